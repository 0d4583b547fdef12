import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client';
import { companies } from '../company/schema';
import { compInfoChanges, compManagerChanges } from './schema';

export type Company = typeof companies.$inferSelect;

/**
 * The live (not deleted) customer row, or undefined. `lock` holds it until commit: 'update' where
 * the change is applied (rival approvals, direct edits and deletion of the customer wait their
 * turn), 'share' where a document of it is submitted (a deletion waits, then sees the document).
 * New drafts use lockCustomer (company/service), which answers 404 itself.
 */
export async function findCompany(
  ex: Executor,
  compCode: string,
  lock?: 'update' | 'share',
): Promise<Company | undefined> {
  const q = ex
    .select()
    .from(companies)
    .where(and(eq(companies.compCode, compCode), isNull(companies.deletedAt)))
    .limit(1);
  const [row] = await (lock ? q.for(lock) : q);
  return row;
}

const OPEN = ['draft', 'pending'];

/** Customer usage check (company/del): its draft or pending 企业信息变更单. */
export async function openInfoChangesUsage(ex: Executor, compCode: string): Promise<string | null> {
  const [r] = await ex
    .select({ n: sql<number>`count(*)::int` })
    .from(compInfoChanges)
    .where(
      and(
        eq(compInfoChanges.compCode, compCode),
        isNull(compInfoChanges.deletedAt),
        sql`${compInfoChanges.state} in ${OPEN}`,
      ),
    );
  const n = Number(r?.n ?? 0);
  return n > 0 ? `存在${n}张未完成的企业信息变更单` : null;
}

/** Customer usage check (company/del): its draft or pending 管理员变更单. */
export async function openManagerChangesUsage(ex: Executor, compCode: string): Promise<string | null> {
  const [r] = await ex
    .select({ n: sql<number>`count(*)::int` })
    .from(compManagerChanges)
    .where(
      and(
        eq(compManagerChanges.compCode, compCode),
        isNull(compManagerChanges.deletedAt),
        sql`${compManagerChanges.state} in ${OPEN}`,
      ),
    );
  const n = Number(r?.n ?? 0);
  return n > 0 ? `存在${n}张未完成的管理员变更单` : null;
}
