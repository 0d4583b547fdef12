import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { dueSaveSchema, schemeSaveSchema } from '@portal/contract/contract';
import type { Tx } from '../../platform/db/client';
import type { Actor } from '../../platform/db/audit';
import { runCommand } from '../../platform/db/command';
import { badInput } from '../../platform/errors';
import type { WorkflowRegistry } from '../workflow';
import { editableContract } from './editable';
import {
  computePlan,
  impliedDues,
  insertItems,
  refreshImpliedDues,
  replaceDues,
  ruleFor,
  ruleFigure,
} from './plan';
import { contractPlanItems, contracts } from './schema';

/* The contract form's 方案 and 应收费用 sections, saved while the contract is draft/rejected. */

/** 方案: computes the plan from the contract and its rule (or the custom rows) and stores it. */
export async function saveScheme(
  tx: Tx,
  workflow: WorkflowRegistry,
  body: z.output<typeof schemeSaveSchema>,
  actor: Actor,
) {
  const cmd = { entity: 'contract', action: 'saveScheme', code: body.contBizCode };
  return runCommand(tx, actor, cmd, async (_tx, w) => {
    const row = await editableContract(tx, workflow, body.contBizCode, body.version, actor);
    const rule = await ruleFor(tx, row.bizCode, row.ruleBizCode);
    const plan = computePlan({
      principal: row.financingAmount,
      startDate: row.startDate,
      maturityDate: row.maturityDate,
      rule,
      customItems: body.customItems,
    });
    if (plan.maturityDate !== row.maturityDate)
      throw badInput(`还款计划的最后还款日 ${plan.maturityDate} 必须等于合同到期日 ${row.maturityDate}`);
    await tx.delete(contractPlanItems).where(eq(contractPlanItems.contractId, row.id));
    await insertItems(tx, row.id, plan.items);
    await tx
      .update(contracts)
      .set({ ruleSnapshot: rule, upfrontInterest: plan.upfrontInterest, upfrontFee: plan.upfrontFee })
      .where(eq(contracts.id, row.id));
    // The up-front items the plan implies are the contract's from now on (docs/money-lifecycle.md).
    await refreshImpliedDues(tx, {
      ...row,
      ruleSnapshot: rule,
      upfrontInterest: plan.upfrontInterest,
      upfrontFee: plan.upfrontFee,
    });
    await w.audit({
      detail: { method: rule.method, items: plan.items.length, totalInterest: plan.totalInterest },
    });
    return { version: row.version, plan };
  });
}

export async function saveDues(
  tx: Tx,
  workflow: WorkflowRegistry,
  body: z.output<typeof dueSaveSchema>,
  actor: Actor,
) {
  const cmd = { entity: 'contract', action: 'saveDues', code: body.contBizCode };
  return runCommand(tx, actor, cmd, async (_tx, w) => {
    const row = await editableContract(tx, workflow, body.contBizCode, body.version, actor);
    for (const d of body.items) {
      if (d.dueDate < row.startDate || d.dueDate > row.maturityDate)
        throw badInput(`应收费用的应收日期必须在合同起始日与到期日之间`);
    }
    // Each up-front item is saved against the rule's figure of its kind: the reason, if any, explains
    // a difference from that figure (docs/money-lifecycle.md "Implied up-front items").
    const implied = impliedDues(row);
    await replaceDues(
      tx,
      row.id,
      body.items.map((d) => ({ ...d, ruleAmount: ruleFigure(implied, d.kind) })),
    );
    await w.audit({ detail: body.items });
    return { version: row.version };
  });
}
