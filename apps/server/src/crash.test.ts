import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RULER_PATHS } from '@portal/contract/ruler';
import { serverRoot } from './server';
import { HttpClient } from './testing/http-client';
import { onPostgres } from './testing/harness';

/**
 * Crash safety: a real server under a write load is killed with SIGKILL mid-way and
 * restarted on the same data. Every write answered 200 must be there, whole, with its audit row.
 */
const CYCLES = 3;
const PASSWORD = 'Crash@12345678';
const root = serverRoot();
const main = join(root, 'dist/main.js');
let dataDir: string;
let databaseUrl: string | undefined;
const stats = { cycles: 0, answered: 0 };

/** Resolves when the process has exited (at once if it already has). */
function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((r) => child.once('exit', () => r()));
}

function freePort(): Promise<number> {
  return new Promise((res) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
  });
}

async function start(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [main], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_PASSWORD: PASSWORD,
      DEMO_DATA: 'off',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '0',
      // No 503 grace on the final SIGTERM (docs/operations.md "Stopping a server").
      DRAIN_GRACE_SECONDS: '0',
      RATE_LIMIT_PER_IP_PER_MINUTE: '0',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  // Up to a minute: start-up on a loaded 2-core machine can be slow.
  for (let i = 0; i < 600; i++) {
    if (output.includes('Portal listening')) return child;
    if (child.exitCode !== null) throw new Error(`server exited: ${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server did not start: ${output}`);
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

// dist/main.js is built by test/global-setup.ts.
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
      const port = await freePort();
      const server = await start(port);
      const client = new HttpClient(`http://127.0.0.1:${port}`);
      await client.login('admin', PASSWORD);
      let stop = false;
      const worker = async (w: number) => {
        for (let i = 0; !stop; i++) {
          try {
            const r = await client.call<{ bizCode: string }>(
              `/api${RULER_PATHS.save}`,
              rule(cycle * 100_000 + w * 1000 + i),
            );
            if (r.ok && !stop) answered.push(r.data!.bizCode);
          } catch {
            return; // the connection died with the server
          }
        }
      };
      const workers = Array.from({ length: 8 }, (_, w) => worker(w));
      await new Promise((r) => setTimeout(r, 1500));
      server.kill('SIGKILL');
      stop = true;
      await Promise.all(workers);
      await exited(server);
      stats.cycles++;
    }
    expect(answered.length).toBeGreaterThan(10);

    // Restart once more and check what survived.
    const port = await freePort();
    const server = await start(port);
    try {
      const client = new HttpClient(`http://127.0.0.1:${port}`);
      await client.login('admin', PASSWORD);
      for (const bizCode of answered) {
        const r = await client.call<{ annualRate: string; name: string }>(
          `/api${RULER_PATHS.view}`,
          undefined,
          { bizCode },
        );
        expect(r.status, bizCode).toBe(200);
        expect(r.data!.name).toMatch(/^崩溃测试规则\d+$/);
      }
      stats.answered = answered.length;
    } finally {
      server.kill('SIGTERM');
      await exited(server);
    }
  }, 180_000);
});
