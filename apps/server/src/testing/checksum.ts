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
      sql.raw(`select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as sum from "${name}" t`),
    );
    out[name] = row?.sum ?? '';
  }
  return out;
}
