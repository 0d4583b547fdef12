import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client';
import { contracts } from './schema';
import { live } from './queries';

/* What a delete elsewhere asks of contract: does a live contract use this rule, customer or bank account? */

/** A rule in use by a live contract cannot be deleted (the ruler module's usage check). */
export async function ruleUsage(ex: Executor, ruleBizCode: string): Promise<string | null> {
  const [c] = await ex
    .select({ code: contracts.bizCode })
    .from(contracts)
    .where(and(eq(contracts.ruleBizCode, ruleBizCode), live))
    .limit(1);
  return c ? `合同 ${c.code}` : null;
}

/** A customer with a live contract cannot be deleted (the company module's usage check). */
export async function customerUsage(ex: Executor, compCode: string): Promise<string | null> {
  const [c] = await ex
    .select({ code: contracts.bizCode })
    .from(contracts)
    .where(and(sql`(${contracts.custCode} = ${compCode} or ${contracts.coreCompCode} = ${compCode})`, live))
    .limit(1);
  return c ? `合同 ${c.code}` : null;
}

/** A repayment account named by a live contract cannot be deleted (the bank module's usage check). */
export async function bankUsage(ex: Executor, bankBizCode: string): Promise<string | null> {
  const [c] = await ex
    .select({ code: contracts.bizCode })
    .from(contracts)
    .where(and(eq(contracts.bankBizCode, bankBizCode), live))
    .limit(1);
  return c ? `合同 ${c.code}` : null;
}
