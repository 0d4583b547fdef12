/**
 * The benchmark server on loopback, shared by the load scenarios and the web timings: a fresh
 * PostgreSQL database (BENCH_DATABASE_URL, default the machine's) or PGlite, the product plus the
 * floor route (bench-server.ts), seeded at the given scale, the business date AS_OF.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { bundleServer } from '../../apps/server/build.mjs';
import { HttpClient } from '../../apps/server/src/testing/http-client';
import { AS_OF } from './scenarios';

export const PASSWORD = 'Bench@12345678';

/**
 * The bench's administrator signed in on a bench server: its client, the authorization header of
 * its session, and the server's current envelope key (what sealed calls are sealed with).
 */
export async function signedInAdmin(base: string): Promise<{
  client: HttpClient;
  auth: { authorization: string };
  key: { keyId: string; publicKey: string };
}> {
  const client = new HttpClient(base);
  await client.login('admin', PASSWORD);
  const keyRes = await fetch(`${base}/api/admin/portal/login/user/rsa/secretKey`, { method: 'POST' });
  const { data: key } = (await keyRes.json()) as { data: { keyId: string; publicKey: string } };
  return { client, auth: { authorization: `Bearer ${client.token}` }, key };
}
/** Beside dist/main.js, so the server finds its migrations and web build the same way. */
const BENCH_BUNDLE = 'dist/bench-server.js';

export async function freePort(): Promise<number> {
  return new Promise((res) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
  });
}

/** A fresh database portal_bench, or (`reuse`) the one a previous run left seeded. */
export async function freshDatabase(usePglite: boolean, reuse = false): Promise<string | undefined> {
  if (usePglite) return undefined;
  const base = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  // BENCH_DATABASE_NAME: another name, so that two engineers' runs on one server do not drop each other's.
  const name = process.env.BENCH_DATABASE_NAME ?? 'portal_bench';
  if (!reuse) {
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    await c.query(`drop database if exists ${name} with (force)`);
    await c.query(`create database ${name}`);
    await c.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops a database freshDatabase made (a bench's own, once it is done). */
export async function dropDatabase(url: string): Promise<void> {
  const c = new pg.Client({ connectionString: benchServerUrl() });
  await c.connect();
  try {
    await c.query(`drop database if exists ${new URL(url).pathname.slice(1)} with (force)`);
  } finally {
    await c.end();
  }
}

/**
 * What a kept database was seeded with: the scale, the business date and the seed's source, so a
 * changed seed is loaded again instead of being measured stale.
 */
function seedMark(seedScale: string): string {
  const source = createHash('sha256')
    .update(readFileSync(new URL('../seed/seed.ts', import.meta.url)))
    .digest('hex')
    .slice(0, 12);
  return `portal bench seed scale=${seedScale} asOf=${AS_OF} seed=${source}`;
}

/** The kept database of a scale: bench_small at the small one (0.05), bench_scale1, bench_scale10, bench_scale0_1. */
function keptDatabaseName(seedScale: string): string {
  return seedScale === '0.05' ? 'bench_small' : `bench_scale${seedScale.replace('.', '_')}`;
}

/**
 * A database kept between runs (`--keep`), named by its scale (keptDatabaseName), on
 * BENCH_DATABASE_URL's server. `seeded` when a previous run loaded the same seed into it to the
 * end (its mark, a comment on the database, is written after the load); otherwise it is created
 * afresh and the caller seeds it and marks it with markSeeded.
 */
export async function keptDatabase(seedScale: string): Promise<{ url: string; seeded: boolean }> {
  const kept = await seededKeptDatabase(seedScale);
  if (kept.url) return { url: kept.url, seeded: true };
  const c = new pg.Client({ connectionString: benchServerUrl() });
  await c.connect();
  try {
    await c.query(`drop database if exists ${kept.name} with (force)`);
    await c.query(`create database ${kept.name}`);
  } finally {
    await c.end();
  }
  return { url: databaseUrl(kept.name), seeded: false };
}

const benchServerUrl = () => process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** A database on BENCH_DATABASE_URL's server. */
function databaseUrl(name: string): string {
  const url = new URL(benchServerUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * The kept database of a scale, with its URL when this seed loaded it to the end (without, when
 * not: missing, unmarked or marked by another seed); never drops or creates anything (the scale
 * bench measures what is there and skips the rest).
 */
export async function seededKeptDatabase(seedScale: string): Promise<{ name: string; url?: string }> {
  const name = keptDatabaseName(seedScale);
  const c = new pg.Client({ connectionString: benchServerUrl() });
  await c.connect();
  try {
    const found = await c.query<{ mark: string | null }>(
      `select shobj_description(oid, 'pg_database') as mark from pg_database where datname = $1`,
      [name],
    );
    return found.rows[0]?.mark === seedMark(seedScale) ? { name, url: databaseUrl(name) } : { name };
  } finally {
    await c.end();
  }
}

/** Marks a kept database as loaded to the end with this seed (see keptDatabase). */
export async function markSeeded(url: string, seedScale: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const name = new URL(url).pathname.slice(1);
    await c.query(`comment on database ${name} is '${seedMark(seedScale)}'`);
  } finally {
    await c.end();
  }
}

function vmRssKb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/** The process and its descendants (workers the server may start). */
function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // "pid (comm) state ppid …": comm may hold spaces, so read after the last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // the process ended meanwhile
    }
  }
  const out: number[] = [];
  const todo = [root];
  while (todo.length) {
    const pid = todo.pop()!;
    out.push(pid);
    todo.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** Resident memory of the server: its whole process tree, in MB. */
export function rssMb(pid: number): number {
  return Math.round(processTree(pid).reduce((s, p) => s + vmRssKb(p), 0) / 1024);
}

export async function startServer(
  port: number,
  databaseUrl: string | undefined,
  seedScale: string,
  /** Load the dataset first (false: serve a database seeded before). */
  seedFirst = true,
): Promise<ChildProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-'));
  const env = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    ADMIN_PASSWORD: PASSWORD,
    API_ENVELOPE: 'optional',
    RATE_LIMIT_PER_MINUTE: '0',
    RATE_LIMIT_PER_IP_PER_MINUTE: '0',
    DEMO_DATA: 'off',
    LOG_LEVEL: 'warn',
    BENCH_SEED_SCALE: seedScale,
    BUSINESS_DATE: AS_OF,
    // Scenario 5 approves its own write-offs (one bench user plays maker and checker).
    ALLOW_SELF_APPROVAL: 'true',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
  // Bundled like the product's dist/main.js and run by plain node: the child is the server itself
  // (tsx would add its loader and an esbuild child process to the memory measured).
  await bundleServer('../../bench/load/bench-server.ts', BENCH_BUNDLE);
  // BENCH_SERVER_NODE_ARGS: node flags for the serving process only (`--cpu-prof --cpu-prof-dir=…`).
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const run = (phase: 'seed' | 'serve') =>
    spawn(process.execPath, [...(phase === 'serve' ? nodeArgs : []), `apps/server/${BENCH_BUNDLE}`], {
      env: { ...env, BENCH_PHASE: phase },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
  // The dataset is loaded by a process of its own, so the server measured is a server that serves.
  if (seedFirst) {
    const seeder = run('seed');
    seeder.stdout!.resume();
    await new Promise<void>((resolve, reject) =>
      seeder.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`bench seed exited ${code}`)))),
    );
  }
  const child = run('serve');
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('bench server listening') && resolve());
    child.on('exit', (code) => reject(new Error(`bench server exited ${code}`)));
  });
  return child;
}
