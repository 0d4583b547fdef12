import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Executor } from './client';

/**
 * Business codes (docs/protocol.md "Values on the wire"): 12 digits, zero-padded, one database sequence per
 * kind, so a code is never reused even when its transaction rolls back. A kind's sequence is created by the
 * migration that creates its table (`create sequence code_seq_<kind>`).
 */
export async function nextCode(ex: Executor, kind: string): Promise<string> {
  const rows = await queryRows<{ code: string }>(ex, sql`select ${codeSql(kind)} as code`);
  return rows[0]!.code;
}

/**
 * nextCode as an expression, for the insert that makes the document (`returning` its code): the
 * same sequence and form, a statement less (bench/README.md "Write-off contention: tenth pass").
 */
export function codeSql(kind: string): SQL {
  if (!/^[a-z][a-z_]*$/.test(kind)) throw new Error(`bad code kind ${kind}`);
  return sql`lpad(nextval(${`code_seq_${kind}`}::regclass)::text, 12, '0')`;
}
