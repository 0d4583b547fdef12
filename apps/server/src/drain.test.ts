import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_PATHS } from '@portal/contract/session';
import { SYSPARAM_PATHS } from '@portal/contract/sysparams';
import { HttpClient } from './testing/http-client';
import { onPostgres, TEST_ADMIN_PASSWORD } from './testing/harness';
import { createPgDatabase, serverEnv, startServer, type ServerProcess } from './testing/process';
import { DRAINING_MESSAGE } from './platform/http/health';

/**
 * The real server process's health, readiness and stop (docs/operations.md "Stopping a server"):
 * on SIGTERM it is not ready first (/readyz 503, a new call 503 that a proxy passes on), the call
 * in flight is answered in full, and the process exits 0. On PGlite, or on a PostgreSQL database of
 * its own with TEST_DATABASE_URL.
 */
let dataDir: string;
let pgdb: { url: string; drop(): Promise<void> } | undefined;
let server: ServerProcess;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'portal-drain-'));
  pgdb = onPostgres ? await createPgDatabase('drain') : undefined;
  server = await startServer(
    serverEnv(dataDir, {
      ...(pgdb ? { DATABASE_URL: pgdb.url } : {}),
      DEMO_DATA: 'off',
      ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
      CHROMIUM_PATH: 'off',
      // Long enough that the drain is seen however slow the machine; the second signal ends it.
      DRAIN_GRACE_SECONDS: '600',
      METRICS_TOKEN: METRICS_TOKEN,
      LOG_LEVEL: 'info',
    }),
  );
}, 120_000);

afterAll(async () => {
  await server?.stop('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
  await pgdb?.drop();
});

const METRICS_TOKEN = 'drain-test-metrics-token-0123456789';

/** Requests received and not yet answered, as /metrics counts them (the scrape included). */
async function inFlight(): Promise<number> {
  const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const line = (await res.text()).split('\n').find((l) => l.startsWith('portal_http_requests_in_flight '));
  return Number(line?.split(' ')[1] ?? 0);
}

const probe = async (path: string) => {
  const res = await fetch(`${server.url}${path}`);
  return { status: res.status, text: (await res.text()).trim() };
};

/** A POST whose body is still being sent: in flight until `finish` sends the rest. */
function startSlowCall(path: string): Promise<{ socket: Socket; answer: Promise<string> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1', () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{`,
      );
      let got = '';
      const answer = new Promise<string>((done) => {
        socket.on('data', (d: Buffer) => (got += d.toString()));
        socket.on('close', () => done(got));
        socket.on('end', () => done(got));
      });
      resolve({ socket, answer });
    });
    socket.once('error', reject);
  });
}

async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('not seen within 30 s');
}

describe('a real server process', () => {
  it('is healthy and ready', async () => {
    expect(await probe('/healthz')).toEqual({ status: 200, text: 'ok' });
    expect(await probe('/readyz')).toEqual({ status: 200, text: 'ready' });
  });

  it('on SIGTERM goes not-ready first, answers the call in flight, then exits 0', async () => {
    const admin = new HttpClient(server.url);
    await admin.login('admin', TEST_ADMIN_PASSWORD);
    const slow = await startSlowCall(`/api${AUTH_PATHS.rsaKey}`);
    // The slow call's headers are in: it is in flight (with the scrape itself) before the signal.
    await until(async () => (await inFlight()) >= 2);

    server.child.kill('SIGTERM');
    await server.waitFor('not ready');
    await until(async () => (await probe('/readyz')).status === 503);
    expect(await probe('/readyz')).toEqual({ status: 503, text: 'draining' });
    expect((await probe('/healthz')).status).toBe(200);
    const refused = await admin.call(`/api${SYSPARAM_PATHS.get}`, {});
    expect([refused.status, refused.msg]).toEqual([503, DRAINING_MESSAGE]);

    // The second signal ends the grace: the server stops listening and waits for the call in flight.
    server.child.kill('SIGTERM');
    slow.socket.write('}');
    const answer = await slow.answer;
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toContain('"publicKey"');
    expect(await server.exited()).toBe(0);
  });
});
