/**
 * Seeds a database with the benchmark portfolio. Usage:
 *   npx tsx bench/seed/run.ts [--scale 0.05] [--pglite DIR] [--as-of 2026-11-20] [--keep]
 * PostgreSQL: BENCH_DATABASE_URL (default a fresh database portal_seed on the machine's server).
 * `--keep`: the scale's kept database instead (bench/load/server.ts keptDatabase: bench_scale10 at
 * scale 10), left alone when this seed already loaded it to the end, else loaded afresh and marked,
 * for the load and scale benches' `--keep` runs (the business date is then the bench's own).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { execOutsideTransaction, openDatabase } from '../../apps/server/src/platform/db/client';
import { migrate } from '../../apps/server/src/platform/db/migrate';
import { keptDatabase, markSeeded } from '../load/server';
import { AS_OF } from '../load/scenarios';
import { seed } from './seed';

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const scaleArg = arg('--scale') ?? '0.05';
const scale = Number(scaleArg);
const keep = process.argv.includes('--keep');
const asOf = keep ? AS_OF : (arg('--as-of') ?? '2026-11-20');
const pgliteDir = process.argv.includes('--pglite')
  ? (arg('--pglite') ?? mkdtempSync(join(tmpdir(), 'portal-seed-')))
  : undefined;

async function freshPostgres(): Promise<string> {
  const base = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  await c.query('drop database if exists portal_seed with (force)');
  await c.query('create database portal_seed');
  await c.end();
  const url = new URL(base);
  url.pathname = '/portal_seed';
  return url.toString();
}

const kept = keep ? await keptDatabase(scaleArg) : undefined;
if (kept?.seeded) {
  console.info(`${new URL(kept.url).pathname.slice(1)} already holds this seed at scale ${scaleArg}`);
  process.exit(0);
}
const database = pgliteDir
  ? await openDatabase({ pgliteDir: join(pgliteDir, 'pg'), lockDir: pgliteDir })
  : await openDatabase({ databaseUrl: kept?.url ?? (await freshPostgres()) });
await migrate(database, resolve(import.meta.dirname, '../../apps/server/migrations'));
const started = performance.now();
const counts = await database.rawTransaction((conn) =>
  seed({ query: (s, p) => conn.query(s, p) }, scale, asOf),
);
// Index-only scans need the visibility map a bulk load leaves unset (VACUUM runs outside a transaction).
await execOutsideTransaction(database, 'vacuum analyze');
const rows = Object.values(counts).reduce((s, c) => s + c.rows, 0);
const seconds = (performance.now() - started) / 1000;
console.info(
  `seeded ${rows} rows at scale ${scale} in ${seconds.toFixed(1)} s (${Math.round(rows / seconds)} rows/s) on ${database.kind}`,
);
await database.close();
if (kept) await markSeeded(kept.url, scaleArg);
