import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTRACT_PATHS } from '@portal/contract/contract';
import { AUTH_PATHS } from '@portal/contract/session';
import { addDays } from '@portal/contract/plan/dates';
import { BIZDATE_PATHS, type BizDateView, type DayEndRun } from '@portal/contract/bizdate';
import { MONITOR_PATHS, type OnlineSessionView } from '@portal/contract/monitor';
import { PERMISSION_PATHS, type RoleView } from '@portal/contract/permission';
import type { Page } from '@portal/contract/api';
import { HttpClient } from './testing/http-client';
import { onPostgres } from './testing/harness';
import { createPgDatabase, freePort, serverEnv, spawnServer, type ServerProcess } from './testing/process';
import { parsePasswordFile, PASSWORD_FILE } from './platform/initial-passwords';

/**
 * Several servers on one PostgreSQL (docs/operations.md "Several servers"): two real
 * server processes started at the same moment on an empty database load the demo once; a session
 * made on one is valid on the other, a logout or a role change is seen by the other, and an
 * envelope answered by one is refused as a replay by the other. PostgreSQL only.
 */
let db: { url: string; drop(): Promise<void> } | undefined;
let dataDir: string;
let a: ServerProcess;
let b: ServerProcess;

/** Polls until check() is true; answers how long it took (the cache notices are asynchronous). */
async function until(check: () => Promise<boolean>, limitMs = 10_000): Promise<number> {
  const t0 = Date.now();
  while (!(await check())) {
    if (Date.now() - t0 > limitMs) throw new Error(`not seen within ${limitMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return Date.now() - t0;
}

beforeAll(async () => {
  if (!onPostgres) return;
  db = await createPgDatabase('two_servers');
  dataDir = mkdtempSync(join(tmpdir(), 'portal-two-'));
  const env = serverEnv(dataDir, { DATABASE_URL: db.url, LOG_LEVEL: 'info' });
  [a, b] = [spawnServer(env, await freePort()), spawnServer(env, await freePort())];
  await Promise.all([a.waitFor('Portal listening'), b.waitFor('Portal listening')]);
}, 240_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  await db?.drop();
});

describe.skipIf(!onPostgres)('two servers on one PostgreSQL', () => {
  it('load the demo once when they start together', async () => {
    const firsts = [a, b].filter((s) => s.output().includes('First start'));
    expect(firsts).toHaveLength(1);
    const c = new pg.Client({ connectionString: db!.url });
    await c.connect();
    const r = await c.query<{ contracts: number; users: number; starts: number }>(
      `select (select count(*)::int from contracts) as contracts, (select count(*)::int from users) as users,
              (select count(*)::int from portal_settings where key = 'first_start') as starts`,
    );
    await c.end();
    expect(r.rows[0]).toEqual({ contracts: 4, users: 6, starts: 1 });
  });

  it('share sessions, logouts, role changes and replay protection', async () => {
    const pw = parsePasswordFile(readFileSync(join(dataDir, PASSWORD_FILE), 'utf8'));
    const list = `/api${CONTRACT_PATHS.list}`;

    // A session made on A is valid on B.
    const onA = new HttpClient(a.url);
    await onA.login('auditor', pw.get('auditor')!);
    const onB = await onA.on(b.url);
    const first = await onB.call(list, {});
    expect(first.status, first.msg).toBe(200);

    // An envelope A answered is a replay to B.
    const req = await onA.seal(list, {});
    expect((await onA.send(req)).status).toBe(200);
    const replay = await onB.send(req);
    expect(replay.status).toBe(422);

    // A role change made through A (the read-only role loses every code) is seen on B.
    const admin = new HttpClient(a.url);
    await admin.login('admin', pw.get('admin')!);
    const roles = await admin.call<Page<RoleView>>(`/api${PERMISSION_PATHS.roleList}`, { pageSize: 100 });
    const viewer = roles.data!.list.find((r) => r.code === 'viewer')!;
    const cfg = await admin.call(`/api${PERMISSION_PATHS.roleCfgSave}`, {
      bizCode: viewer.bizCode,
      version: viewer.version,
      menuCodes: [],
    });
    expect(cfg.status, cfg.msg).toBe(200);
    const roleMs = await until(async () => (await onB.call(list, {})).status === 401);

    // A logout on A is seen on B.
    const adminOnB = await admin.on(b.url);
    expect((await adminOnB.call(list, {})).status).toBe(200);
    expect((await admin.call(`/api${AUTH_PATHS.logout}`, {})).status).toBe(200);
    const logoutMs = await until(async () => (await adminOnB.call(list, {})).status === 403);
    console.info(
      `several servers: role change seen on the other after ${roleMs} ms, logout after ${logoutMs} ms`,
    );
  });

  it('see a 强退 made on the other at once', async () => {
    const pw = parsePasswordFile(readFileSync(join(dataDir, PASSWORD_FILE), 'utf8'));
    const list = `/api${CONTRACT_PATHS.list}`;
    const admin = new HttpClient(a.url);
    await admin.login('admin', pw.get('admin')!);
    // The colleague's session is used on B, so B holds it in its session cache.
    const colleague = new HttpClient(a.url);
    await colleague.login('admin', pw.get('admin')!);
    const colleagueOnB = await colleague.on(b.url);
    expect((await colleagueOnB.call(list, {})).status).toBe(200);
    const online = await admin.call<Page<OnlineSessionView>>(`/api${MONITOR_PATHS.onlineList}`, {
      pageSize: 500,
    });
    const target = online.data!.list.filter((s) => !s.current).sort((x, y) => y.sessionId - x.sessionId)[0]!;
    const forced = await admin.call(`/api${MONITOR_PATHS.onlineForceLogout}`, {
      sessionId: target.sessionId,
    });
    expect(forced.status, forced.msg).toBe(200);
    const forcedMs = await until(async () => (await colleagueOnB.call(list, {})).status === 403);
    const told = await colleagueOnB.call(list, {});
    expect(told.msg).toBe('您已被管理员强制下线，请重新登录');
    expect((await admin.call(list, {})).status).toBe(200);
    console.info(`several servers: a 强退 on one seen on the other after ${forcedMs} ms`);
  });

  it('share the business date (set on A, shown by B) and queue their day-ends on one lock', async () => {
    const pw = parsePasswordFile(readFileSync(join(dataDir, PASSWORD_FILE), 'utf8'));
    const admin = new HttpClient(a.url);
    await admin.login('admin', pw.get('admin')!);
    const adminOnB = await admin.on(b.url);
    // A few days on: every day passed over runs its day-end (docs/business-date.md "Catching up").
    const today = (await admin.call<BizDateView>(`/api${BIZDATE_PATHS.view}`, {})).data!.businessDate;
    const target = addDays(today, 3);
    const set = await admin.call(`/api${BIZDATE_PATHS.save}`, { businessDate: target });
    expect(set.status, set.msg).toBe(200);
    const seenMs = await until(
      async () =>
        (await adminOnB.call<BizDateView>(`/api${BIZDATE_PATHS.view}`, {})).data?.businessDate === target,
    );
    const runs = await Promise.all(
      [admin, adminOnB].map((x) => x.call<DayEndRun>(`/api${BIZDATE_PATHS.runDayEnd}`, {})),
    );
    expect(runs.map((r) => [r.data?.businessDate, r.data?.state])).toEqual([
      [target, 'done'],
      [target, 'done'],
    ]);
    // The second of the runs found the date done: the same marks, no reminder twice.
    expect(runs[0]!.data!.overdueItems).toBe(runs[1]!.data!.overdueItems);
    expect(Math.min(runs[0]!.data!.remindersAdded, runs[1]!.data!.remindersAdded)).toBe(0);
    console.info(`several servers: a new business date seen on the other after ${seenMs} ms`);
  });
});
