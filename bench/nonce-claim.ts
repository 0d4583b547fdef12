/**
 * The nonce claim on the embedded database (issue 42 §2): `npx tsx bench/nonce-claim.ts [--statements 1000]`.
 * With `--postgres` (BENCH_DATABASE_NAME, a fresh database on BENCH_DATABASE_URL's server, dropped
 * after), the same on PostgreSQL over one pooled connection: CPU of this process and of its backend
 * (read from /proc), a statement and a nonce (bench/README.md "Fifteenth pass").
 * A fresh PGlite, migrated, and the server's own claim (`dbNonceStore`: the prepared statement with
 * the batch as one text[] parameter) run one statement after another with batches of 1, 8 and 32
 * nonces, beside `select 1` on the same connection: CPU a statement and a nonce (process.cpuUsage;
 * PGlite runs in this process, so that is the whole cost). On PostgreSQL the statement's cost is
 * the backend's and is measured by the load run (bench/README.md "The envelope's cost").
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../apps/server/src/platform/db/client';
import { migrate } from '../apps/server/src/platform/db/migrate';
import { dbNonceStore } from '../apps/server/src/platform/envelope/nonces';
import { dropDatabase, freshDatabase } from './load/server';

const arg = process.argv.indexOf('--statements');
const STATEMENTS = arg > 0 ? Number(process.argv[arg + 1]) : 1000;

const postgres = process.argv.includes('--postgres');
const dir = mkdtempSync(join(tmpdir(), 'nonce-claim-'));
const url = postgres ? await freshDatabase(false) : undefined;
const database = await openDatabase(
  url ? { databaseUrl: url, poolSize: 1 } : { pgliteDir: join(dir, 'pg'), lockDir: dir },
);
await migrate(database, join(import.meta.dirname, '../apps/server/migrations'));
const store = dbNonceStore(database.db);
/** The driver below drizzle (PGlite's own query). */
const driver = (database.db as unknown as { $client: { query(text: string): Promise<unknown> } }).$client;
/** PostgreSQL: the pool's one backend, whose CPU counts with this process's. */
const backend = url
  ? ((await driver.query('select pg_backend_pid() as pid')) as { rows: { pid: number }[] }).rows[0]!.pid
  : undefined;
const backendUs = () => {
  if (!backend) return 0;
  const f = readFileSync(`/proc/${backend}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) * 10_000; // clock ticks of 10 ms
};
const cpuUs = () => {
  const u = process.cpuUsage();
  return u.user + u.system + backendUs();
};

let n = 0;
const results: Record<string, number> = {};
// Two passes: the first warms the JIT and PGlite's caches; the second is printed last and kept.
for (const pass of [1, 2]) {
  console.info(`pass ${pass}`);
  for (const batch of [1, 8, 32]) {
    let before = cpuUs();
    for (let i = 0; i < STATEMENTS; i++) {
      // One turn's claims share one statement (groupClaims), so each batch is one insert.
      await Promise.all(
        Array.from({ length: batch }, () => store.claim(`claim${String(n++).padStart(16, '0')}`)),
      );
    }
    const claim = (cpuUs() - before) / STATEMENTS;
    before = cpuUs();
    for (let i = 0; i < STATEMENTS; i++) await driver.query('select 1');
    const select1 = (cpuUs() - before) / STATEMENTS;
    console.info(
      `batch ${String(batch).padStart(2)}: claim ${claim.toFixed(0)} µs a statement, ${(claim / batch).toFixed(0)} µs a nonce; select 1 ${select1.toFixed(0)} µs`,
    );
    results[`claim${batch}Us`] = Math.round(claim);
    results[`select1Us`] = Math.round(select1);
  }
}
console.info(JSON.stringify({ statements: STATEMENTS, ...results }));
await database.close();
rmSync(dir, { recursive: true, force: true });
if (url) await dropDatabase(url);
