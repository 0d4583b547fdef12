import { sql } from 'drizzle-orm';
import type { Executor } from './client';

/**
 * Takes a transaction-scoped PostgreSQL advisory lock on (namespace, key), released at commit or
 * rollback. The namespace is a readable name ('crm.deptTree', 'crm.relation', …) hashed to the
 * lock's first int4, the key hashed to its second, so modules need no magic numbers and two
 * namespaces never share a lock by accident of equal keys.
 */
export async function advisoryXactLock(tx: Executor, namespace: string, key: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${namespace}), hashtext(${key}))`);
}
