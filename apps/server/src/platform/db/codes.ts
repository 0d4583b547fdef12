import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from './client';

/**
 * Business codes (docs/protocol.md "Values on the wire"): 12 digits, zero-padded, one database sequence per
 * kind, so a code is never reused even when its transaction rolls back. A kind's sequence is created by the
 * migration that creates its table (`create sequence code_seq_<kind>`).
 */
export async function nextCode(ex: Executor, kind: string): Promise<string> {
  if (!/^[a-z][a-z_]*$/.test(kind)) throw new Error(`bad code kind ${kind}`);
  const rows = await queryRows<{ code: string }>(
    ex,
    sql`select lpad(nextval(${`code_seq_${kind}`}::regclass)::text, 12, '0') as code`,
  );
  return rows[0]!.code;
}
