import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onPostgres } from './testing/harness';
import { createPgDatabase, freePort, serverEnv, spawnServer, type ServerProcess } from './testing/process';

/**
 * Scheduled jobs with several servers on one PostgreSQL (docs/operations.md "Scheduled jobs"): two
 * real server processes wake at each job's time; a job scheduled every second runs once per scheduled
 * time, on whichever server claimed it, and neither server's claim fails. PostgreSQL only.
 */
let db: { url: string; drop(): Promise<void> } | undefined;
let dataDir: string;
let a: ServerProcess;
let b: ServerProcess;
let c: pg.Client;

beforeAll(async () => {
  if (!onPostgres) return;
  db = await createPgDatabase('job_servers');
  dataDir = mkdtempSync(join(tmpdir(), 'portal-jobs-'));
  const env = serverEnv(dataDir, { DATABASE_URL: db.url, DEMO_DATA: 'off', JOB_TICK_MS: '1000' });
  [a, b] = [spawnServer(env, await freePort()), spawnServer(env, await freePort())];
  await Promise.all([a.waitFor('Portal listening'), b.waitFor('Portal listening')]);
  c = new pg.Client({ connectionString: db.url });
  await c.connect();
}, 240_000);

afterAll(async () => {
  await c?.end();
  await Promise.all([a?.stop(), b?.stop()]);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  await db?.drop();
});

describe.skipIf(!onPostgres)('scheduled jobs on two servers', () => {
  it('run each scheduled time once', async () => {
    // Every second, starting now (croner's six-field form: the first field is the second).
    await c.query(`update jobs set cron = '* * * * * *', next_at = now() where code = 'sessionCleanup'`);
    const runs = async () =>
      (
        await c.query<{ at: string; result: string; server: string }>(
          `select scheduled_for::text as at, result, server from job_runs
            where job = 'sessionCleanup' and trigger = 'schedule' order by scheduled_for`,
        )
      ).rows;
    // Six runs, however long the machine takes: a time passes over while a run is still going
    // (scheduler.ts `running`), so on a loaded machine fewer seconds get a run. The stall bar is the
    // test's own limit (a clean clone's PostgreSQL lane beside the unit lane had 3 runs in 45 s).
    const t0 = Date.now();
    while ((await runs()).filter((r) => r.result === 'ok').length < 6) {
      if (Date.now() - t0 > 200_000) throw new Error(`only ${(await runs()).length} runs within 200 s`);
      await new Promise((r) => setTimeout(r, 250));
    }
    await c.query(`update jobs set paused = true, next_at = null where code = 'sessionCleanup'`);
    // Runs claimed before the pause end by themselves.
    while ((await runs()).some((r) => r.result === 'running')) await new Promise((r) => setTimeout(r, 100));

    const done = await runs();
    expect(done.every((r) => r.result === 'ok')).toBe(true);
    expect(new Set(done.map((r) => r.at)).size).toBe(done.length);
    // A claim that lost a race (two servers inserting the same time) would fail the tick: none did.
    for (const s of [a, b]) {
      expect(s.output()).not.toContain('scheduler tick failed');
      expect(s.output()).not.toContain('job sessionCleanup failed');
    }
  }, 240_000);
});
