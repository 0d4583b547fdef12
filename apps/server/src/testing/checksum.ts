import { createHash } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { queryRows, type Db } from '../platform/db/client';

/** Tables that change on every call by design (sessions touched, nonces, login bookkeeping). */
const VOLATILE = new Set([
  'audit_log',
  'nonces',
  'sessions',
  'login_attempts',
  'captchas',
  'rsa_keys',
  'schema_migrations',
  'download_tokens',
]);

/**
 * Tables a timer folds in the background (contract/tally-timer.ts: delta rows summed into one per
 * key): compared by what they mean, the sum per key, so a compaction that happens to run during a
 * test is not taken for a write by a refused request.
 */
const FOLDED: Record<string, string> = {
  contract_tally: `select created_by, state, status, loan_state, sum(n) as n from contract_tally
                    group by 1, 2, 3, 4 having sum(n) <> 0`,
  contract_tally_all: `select state, status, loan_state, sum(n) as n from contract_tally_all
                        group by 1, 2, 3 having sum(n) <> 0`,
};

/** The md5 of all rows of one table (or of a FOLDED table's sums), as a scalar subquery. */
function tableSum(name: string): string {
  const from = FOLDED[name] ? `(${FOLDED[name]})` : `"${name.replaceAll('"', '""')}"`;
  return `(select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) from ${from} t)`;
}

/** The checksum statements prepared on each PGlite instance, by name. */
const preparedOn = new WeakMap<PGlite, Set<string>>();

/**
 * Runs the checksum statement as a prepared statement of its connection: planned once per
 * connection and table list instead of at every call (docs/testing.md "Write checks"). The name
 * is the text's hash, so a different table list is another statement. PGlite is one connection:
 * PREPARE once per instance, then EXECUTE. On PostgreSQL, node-postgres prepares a named query on
 * each pooled connection the first time that connection runs it.
 */
async function runPrepared<T>(db: Db, text: string): Promise<T[]> {
  const name = `table_checksums_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
  const client = (db as unknown as { $client: PGlite | pg.Pool }).$client;
  if (client instanceof PGlite) {
    let names = preparedOn.get(client);
    if (!names) preparedOn.set(client, (names = new Set()));
    if (!names.has(name)) {
      await client.exec(`prepare ${name} as ${text}`);
      names.add(name);
    }
    return (await client.query<T>(`execute ${name}`)).rows;
  }
  return (await client.query<T & pg.QueryResultRow>({ name, text })).rows;
}

/**
 * One md5 per business table over all its rows, to prove a refused request wrote nothing.
 *
 * Two statements whatever the number of tables: the list, then every table's sum in one
 * `union all`. A statement per table (~100) cost ≈ 230 ms of CPU a call on PGlite, the union
 * ≈ 40 ms, and the fuzz file calls it hundreds of times (bench/README.md "Tenth pass"). The list
 * is read on every call, so a table made after an earlier call is not missed. The union is
 * prepared once per connection and table list: its plan, 109 subqueries, was two thirds of a
 * call's CPU on PGlite (bench/README.md "Fifteenth pass").
 */
export async function tableChecksums(db: Db): Promise<Record<string, string>> {
  const tables = await queryRows<{ name: string }>(
    db,
    sql`select c.relname as name from pg_class c
         where c.relkind in ('r', 'p')
           and c.relnamespace = (select oid from pg_namespace where nspname = current_schema())
         order by c.relname`,
  );
  const names = tables.map((x) => x.name).filter((name) => !VOLATILE.has(name));
  if (names.length === 0) return {};
  const rows = await runPrepared<{ name: string; sum: string | null }>(
    db,
    names
      .map((name) => `select '${name.replaceAll("'", "''")}' as name, ${tableSum(name)} as sum`)
      .join(' union all '),
  );
  const out: Record<string, string> = {};
  for (const { name, sum } of rows) out[name] = sum ?? '';
  return out;
}
