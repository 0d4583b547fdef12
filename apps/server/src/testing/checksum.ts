import { sql } from 'drizzle-orm';
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

/** One md5 per business table over all its rows, to prove a refused request wrote nothing. */
export async function tableChecksums(db: Db): Promise<Record<string, string>> {
  const tables = await queryRows<{ name: string }>(
    db,
    sql`select table_name as name from information_schema.tables
         where table_schema = current_schema() and table_type = 'BASE TABLE' order by 1`,
  );
  const out: Record<string, string> = {};
  for (const { name } of tables) {
    if (VOLATILE.has(name)) continue;
    const [row] = await queryRows<{ sum: string | null }>(
      db,
      sql.raw(
        `select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as sum from ${
          FOLDED[name] ? `(${FOLDED[name]})` : `"${name}"`
        } t`,
      ),
    );
    out[name] = row?.sum ?? '';
  }
  return out;
}
