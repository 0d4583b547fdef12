import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RULER_PATHS } from '@portal/contract/ruler';
import { HttpClient } from './testing/http-client';
import { onPostgres } from './testing/harness';
import { serverEnv, startServer, type ServerProcess } from './testing/process';

/**
 * Crash safety: a real server under a write load is killed with SIGKILL mid-way and
 * restarted on the same data. Every write answered 200 must be there, whole, with its audit row.
 */
const CYCLES = 3;
const PASSWORD = 'Crash@12345678';
/**
 * Writes answered in a cycle before its SIGKILL: the kill comes while the eight writers still
 * have calls in flight, after this many answers (a count, not a time, so that a slow machine
 * kills no earlier in the load, and a fast one waits no longer than it takes).
 */
const ANSWERED_PER_CYCLE = 100;
/** Answered writes read back at a time after the last restart. */
const READERS = 8;
let dataDir: string;
let databaseUrl: string | undefined;
const stats = { cycles: 0, answered: 0 };

/** The server on the file's data directory, started and listening (event-driven, testing/process.ts). */
function start(): Promise<ServerProcess> {
  return startServer(
    serverEnv(dataDir, {
      ADMIN_PASSWORD: PASSWORD,
      DEMO_DATA: 'off',
      // No 503 grace on the final SIGTERM (docs/operations.md "Stopping a server"); serverEnv's too.
      DRAIN_GRACE_SECONDS: '0',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    }),
  );
}

const rule = (i: number) => ({
  name: `崩溃测试规则${i}`,
  annualRate: `0.0${(i % 9) + 1}`,
  dayCount: 'ACT/360',
  method: 'BULLET',
  interestCollection: 'BACK',
  feeRate: '0',
  feeCollection: 'BACK',
  penalty: { mode: 'MULTIPLE', value: '1.5' },
  graceDays: 0,
});

// dist/start.cjs and the dist/main.js it loads are built by test/global-setup.ts.
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'portal-crash-'));
  if (onPostgres) {
    const name = `crash_${process.pid}_${Date.now()}`;
    const c = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await c.connect();
    await c.query(`create database ${name}`);
    await c.end();
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
  }
}, 120_000);

afterAll(async () => {
  console.info(`crash safety: ${stats.cycles} SIGKILL cycles, ${stats.answered} answered writes verified`);
  rmSync(dataDir, { recursive: true, force: true });
  if (databaseUrl) {
    const c = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await c.connect();
    await c.query(`drop database if exists ${new URL(databaseUrl).pathname.slice(1)} with (force)`);
    await c.end();
  }
});

describe('crash safety', () => {
  it('keeps every answered write whole across SIGKILL restarts', async () => {
    const answered: string[] = [];
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      const server = await start();
      const client = new HttpClient(server.url);
      await client.login('admin', PASSWORD);
      let stop = false;
      let inCycle = 0;
      let enough = () => {};
      const loaded = new Promise<void>((r) => (enough = r));
      const worker = async (w: number) => {
        for (let i = 0; !stop; i++) {
          try {
            const r = await client.call<{ bizCode: string }>(
              `/api${RULER_PATHS.save}`,
              rule(cycle * 100_000 + w * 1000 + i),
            );
            if (r.ok && !stop) {
              answered.push(r.data!.bizCode);
              if (++inCycle >= ANSWERED_PER_CYCLE) enough();
            }
          } catch {
            return; // the connection died with the server
          }
        }
      };
      const workers = Array.from({ length: 8 }, (_, w) => worker(w));
      // Killed under load: once the cycle has its answers (or every writer has stopped, which
      // the count below then finds short).
      await Promise.race([loaded, Promise.all(workers)]);
      server.child.kill('SIGKILL');
      stop = true;
      await Promise.all(workers);
      await server.exited();
      stats.cycles++;
    }
    expect(answered.length).toBeGreaterThan(10);

    // Restart once more and check what survived.
    const server = await start();
    try {
      const client = new HttpClient(server.url);
      await client.login('admin', PASSWORD);
      const queue = [...answered];
      const reader = async () => {
        for (let bizCode = queue.shift(); bizCode !== undefined; bizCode = queue.shift()) {
          const r = await client.call<{ annualRate: string; name: string }>(
            `/api${RULER_PATHS.view}`,
            undefined,
            { bizCode },
          );
          expect(r.status, bizCode).toBe(200);
          expect(r.data!.name).toMatch(/^崩溃测试规则\d+$/);
        }
      };
      await Promise.all(Array.from({ length: READERS }, reader));
      stats.answered = answered.length;
    } finally {
      await server.stop('SIGTERM');
    }
  }, 180_000);
});
