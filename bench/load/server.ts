/**
 * The benchmark server on loopback, shared by the load scenarios and the web timings: a fresh
 * PostgreSQL database (BENCH_DATABASE_URL, default the machine's) or PGlite, the product plus the
 * floor route (bench-server.ts), seeded at the given scale, the business date AS_OF.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { AS_OF } from './scenarios';

export const PASSWORD = 'Bench@12345678';

export async function freePort(): Promise<number> {
  return new Promise((res) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
  });
}

export async function freshDatabase(usePglite: boolean): Promise<string | undefined> {
  if (usePglite) return undefined;
  const base = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  await c.query('drop database if exists portal_bench with (force)');
  await c.query('create database portal_bench');
  await c.end();
  const url = new URL(base);
  url.pathname = '/portal_bench';
  return url.toString();
}

export function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : 0;
  } catch {
    return 0;
  }
}

export async function startServer(
  port: number,
  databaseUrl: string | undefined,
  seedScale: string,
): Promise<ChildProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-'));
  const child = spawn('npx', ['tsx', 'bench/load/bench-server.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      ADMIN_PASSWORD: PASSWORD,
      API_ENVELOPE: 'optional',
      RATE_LIMIT_PER_MINUTE: '0',
      DEMO_DATA: 'off',
      LOG_LEVEL: 'warn',
      BENCH_SEED_SCALE: seedScale,
      BUSINESS_DATE: AS_OF,
      // Scenario 5 approves its own write-offs (one bench user plays maker and checker).
      ALLOW_SELF_APPROVAL: 'true',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('bench server listening') && resolve());
    child.on('exit', (code) => reject(new Error(`bench server exited ${code}`)));
  });
  return child;
}
