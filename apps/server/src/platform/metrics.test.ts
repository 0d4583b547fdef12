import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Counter, register } from 'prom-client';
import { sql } from 'drizzle-orm';
import { AUTH_PATHS } from '@portal/contract/auth';
import { MONITOR_PATHS } from '@portal/contract/monitor';
import {
  SERVER_MONITOR_MENU,
  SERVER_MONITOR_PATHS,
  type ServerStatus,
} from '@portal/contract/server-monitor';
import { SYSPARAM_PATHS } from '@portal/contract/sysparams';
import {
  createTestDb,
  createTestPortal,
  createUserWithCodes,
  served,
  TEST_ADMIN_PASSWORD,
  type TestPortal,
} from '../testing/harness';
import { DRAINING_MESSAGE } from './http/health';
import { queryRows } from './db/client';
import { loadConfig } from './config';
import type { PortalModule } from './module';
import { buildPortal } from '../server';
import { MODULES } from '../modules';

/**
 * /healthz, /readyz, /metrics and 服务监控 on one portal (docs/operations.md "Health, readiness,
 * metrics" and "Monitoring"); the real process's drain on SIGTERM is in drain.test.ts.
 */
const TOKEN = 'metrics-token-for-the-test-0123456789';
let t: TestPortal;

beforeAll(async () => {
  // The counters are the process's (prom-client's default register): the test files run before
  // this one in the worker counted into them. These tests count from zero.
  register.resetMetrics();
  t = await createTestPortal({ METRICS_TOKEN: TOKEN });
});
afterAll(async () => t?.close());

const get = (url: string, headers: Record<string, string> = {}) =>
  t.portal.app.inject({ method: 'GET', url, headers });

async function scrape(): Promise<string> {
  const res = await get('/metrics', { authorization: `Bearer ${TOKEN}` });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toContain('text/plain');
  return res.body;
}

/** The value of one sample line (name and labels exactly as printed), or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('health and readiness', () => {
  it('answer outside the envelope: the process is up and the database is ready', async () => {
    const health = await get('/healthz');
    expect([health.statusCode, health.body.trim()]).toEqual([200, 'ok']);
    const ready = await get('/readyz');
    expect([ready.statusCode, ready.body.trim()]).toEqual([200, 'ready']);
    expect(ready.headers['cache-control']).toBe('no-store');
  });

  it('a database without this release’s last migration is not ready', async () => {
    const [row] = await queryRows<{ last: string }>(
      t.database.db,
      sql`select max(name) as last from schema_migrations`,
    );
    const last = row!.last;
    // The last migration's row renamed below every file name: the database is an older release's.
    await t.database.db.execute(sql`update schema_migrations set name = '0000_hidden' where name = ${last}`);
    try {
      const ready = await get('/readyz');
      expect(ready.statusCode).toBe(503);
      expect(ready.body).toContain('migrations pending');
    } finally {
      await t.database.db.execute(
        sql`update schema_migrations set name = ${last} where name = '0000_hidden'`,
      );
    }
    expect((await get('/readyz')).statusCode).toBe(200);
  });
});

describe('/metrics', () => {
  it('answers only with the METRICS_TOKEN bearer', async () => {
    expect((await get('/metrics')).statusCode).toBe(401);
    expect((await get('/metrics', { authorization: 'Bearer wrong' })).statusCode).toBe(401);
    expect((await get('/metrics', { authorization: `Bearer ${TOKEN}x` })).statusCode).toBe(401);
  });

  it('refuses to start with a token short enough to guess (it is outside the rate limits)', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'secret' })).toThrow('METRICS_TOKEN');
    expect(() => loadConfig({ METRICS_TOKEN: `${'x'.repeat(31)}` })).toThrow('METRICS_TOKEN');
    expect(() => loadConfig({ METRICS_TOKEN: `${'x'.repeat(20)} ${'y'.repeat(20)}` })).toThrow(
      'METRICS_TOKEN',
    );
    expect(loadConfig({ METRICS_TOKEN: TOKEN }).metricsToken).toBe(TOKEN);
    expect(loadConfig({}).metricsToken).toBeUndefined();
  });

  it('counts requests per route and status, sign-in failures, sessions and the pool', async () => {
    const anon = t.client();
    const bad = await anon.call(served(AUTH_PATHS.login), {
      userName: 'admin',
      passWord: 'not-the-password-1A',
      userType: '2',
    });
    expect(bad.status).toBe(400);
    const admin = await t.login();
    expect((await admin.call(served(SYSPARAM_PATHS.get), {})).status).toBe(200);
    expect((await admin.call(served(SYSPARAM_PATHS.get), {})).status).toBe(200);

    const text = await scrape();
    const route = served(SYSPARAM_PATHS.get);
    expect(sample(text, `portal_http_requests_total{method="POST",route="${route}",status="200"}`)).toBe(2);
    expect(
      sample(text, `portal_http_request_duration_seconds_count{method="POST",route="${route}",status="200"}`),
    ).toBe(2);
    expect(sample(text, 'portal_login_failures_total{outcome="badPassword"}')).toBe(1);
    // The one session signed in above.
    expect(sample(text, 'portal_sessions_active')).toBe(1);
    expect(sample(text, 'portal_db_pool_max')).toBe(t.database.kind === 'pglite' ? 1 : 60);
    expect(sample(text, 'portal_db_pool_waiting')).toBe(0);
    for (const stat of ['p50', 'p99', 'max']) {
      expect(sample(text, `portal_event_loop_delay_seconds{stat="${stat}"}`)).toBeGreaterThanOrEqual(0);
    }
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(text).toContain('# TYPE portal_pdf_duration_seconds histogram');
    // An unknown path is one label value, not one per URL.
    await get('/api/no/such/path/123');
    expect(await scrape()).toContain('route="unmatched",status="404"');
  });

  it('times xlsx exports', async () => {
    const admin = await t.login();
    const res = await admin.call(served(MONITOR_PATHS.operLogExport), {});
    expect(res.httpStatus).toBe(200);
    // Observed as the last byte is written, which the download's end may overtake.
    await vi.waitFor(async () =>
      expect(sample(await scrape(), 'portal_export_duration_seconds_count{outcome="ok"}')).toBe(1),
    );
  });

  it('leaves out a portal whose start failed (its database gone, the scrape still answers)', async () => {
    const { database, drop } = await createTestDb();
    const refuses: PortalModule = {
      name: 'refuses',
      register: () => {
        throw new Error('refused to start');
      },
    };
    const config = loadConfig({ ADMIN_PASSWORD: TEST_ADMIN_PASSWORD, DEMO_DATA: 'off', WEB_DIST: '' });
    await expect(
      buildPortal({ config, database, logger: false, modules: [...MODULES, refuses] }),
    ).rejects.toThrow('refused to start');
    await drop();
    const text = await scrape();
    expect(sample(text, 'portal_db_pool_max')).toBe(t.database.kind === 'pglite' ? 1 : 60);
    expect(sample(text, 'portal_sessions_active')).toBeGreaterThanOrEqual(0);
  });

  it('publishes what any module counts in the default register (the scheduler’s job metrics)', async () => {
    const jobs = new Counter({ name: 'portal_test_job_runs_total', help: 'a module’s own counter' });
    try {
      jobs.inc(3);
      expect(sample(await scrape(), 'portal_test_job_runs_total')).toBe(3);
    } finally {
      register.removeSingleMetric('portal_test_job_runs_total');
    }
  });
});

describe('服务监控', () => {
  it('shows the figures /metrics publishes, to holders of its menu code', async () => {
    const admin = await t.login();
    const status = await admin.ok<ServerStatus>(served(SERVER_MONITOR_PATHS.status), {});
    const text = await scrape();
    expect(status.dbPool.max).toBe(sample(text, 'portal_db_pool_max'));
    expect(status.sessions.active).toBe(sample(text, 'portal_sessions_active'));
    expect(status.memory.rssBytes).toBeGreaterThan(0);
    expect(status.memory.heapUsedBytes).toBeGreaterThan(0);
    expect(status.uptimeSeconds).toBeGreaterThanOrEqual(0);
    expect(status.pid).toBe(process.pid);

    await createUserWithCodes(t.database.db, 'no-monitor', TEST_ADMIN_PASSWORD, ['system-config']);
    const other = await t.login('no-monitor', TEST_ADMIN_PASSWORD);
    expect((await other.call(served(SERVER_MONITOR_PATHS.status), {})).status).toBe(401);
    await createUserWithCodes(t.database.db, 'monitor', TEST_ADMIN_PASSWORD, [SERVER_MONITOR_MENU]);
    const holder = await t.login('monitor', TEST_ADMIN_PASSWORD);
    expect((await holder.call(served(SERVER_MONITOR_PATHS.status), {})).status).toBe(200);
  });
});

describe('draining', () => {
  it('is not ready and passes new calls on (503), while the probes still answer', async () => {
    const admin = await t.login();
    t.portal.readiness.drain();
    const ready = await get('/readyz');
    expect([ready.statusCode, ready.body.trim()]).toEqual([503, 'draining']);
    expect((await get('/healthz')).statusCode).toBe(200);
    const call = await admin.call(served(SYSPARAM_PATHS.get), {});
    expect([call.httpStatus, call.msg]).toEqual([503, DRAINING_MESSAGE]);
    expect(call.headers.connection).toBe('close');
  });
});
