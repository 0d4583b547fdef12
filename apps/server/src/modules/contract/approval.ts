import { eq } from 'drizzle-orm';
import type { Tx } from '../../platform/db/client';
import type { Actor } from '../../platform/db/audit';
import { runCommand } from '../../platform/db/command';
import { conflict } from '../../platform/errors';
import { requireAdmittedCustomer } from '../company';
import { occupy } from '../credit';
import { syncContractDebtors } from '../debtor';
import { lockContract } from './service';
import { activeItems, planProblem, upfrontProblem } from './plan';
import { contracts } from './schema';

/**
 * Last approval step, in the approving transaction: re-checks the plan and the implied up-front
 * items (docs/money-lifecycle.md), occupies exactly the
 * financing amount on the contract's line (409 授信额度不足 rolls everything back: the contract
 * stays pending, nothing is occupied), its receivables on the debtor lines, and makes the plan live.
 */
export async function approveContract(tx: Tx, code: string, actor: Actor, today: string): Promise<void> {
  await runCommand(tx, actor, { entity: 'contract', action: 'activate', code }, async (_tx, w) => {
    const row = await lockContract(tx, code);
    // Only an admitted customer holds a contract (客户准入, docs/admission.md).
    await requireAdmittedCustomer(tx, row.custCode);
    const problem = planProblem(row, await activeItems(tx, row.id)) ?? (await upfrontProblem(tx, row));
    if (problem) throw conflict(problem);
    await occupy(tx, {
      lineCode: row.lineCode,
      amount: row.financingAmount,
      docType: 'contract',
      docCode: row.bizCode,
      date: today,
      actor,
      reason: `合同 ${row.contractNo} 审核通过`,
    });
    // Its receivables occupy the lines of their debtors, in debtor-code order (docs/credit.md
    // "Debtor lines"): 409 naming the debtor and the figures rolls everything back too.
    await syncContractDebtors(tx, row.id, 'receivables', {
      docType: 'contract',
      docCode: row.bizCode,
      date: today,
      actor,
      reason: `合同 ${row.contractNo} 审核通过`,
    });
    await tx
      .update(contracts)
      .set({ status: 'effective', occupiedAmount: row.financingAmount })
      .where(eq(contracts.id, row.id));
    await w.audit({ detail: { occupied: row.financingAmount, lineCode: row.lineCode } });
  });
}
