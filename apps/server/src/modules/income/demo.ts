import { inArray, sql } from 'drizzle-orm';
import type { Tx } from '../../platform/db/client';
import { incomes } from './schema';

/**
 * Demo data (fresh database only): incoming payments marked approved without going through the
 * workflow, for another module's demo (paid's write-off) to have approved money to use; the caller
 * posts their vouchers with postIncome, as the approval would.
 */
export async function approveDemoIncomes(tx: Tx, codes: readonly string[]): Promise<void> {
  await tx
    .update(incomes)
    .set({ state: 'approved', submittedAt: sql`now()`, approvedAt: sql`now()` })
    .where(inArray(incomes.bizCode, [...codes]));
}
