import { formatYuan } from '../format';
import { D } from './money';

/**
 * When a contract's saved plan may go to approval: the server checks it on submission and at
 * approval, the editor before it asks to submit (docs/money-lifecycle.md "The plan").
 */
export const PLAN_MISSING_MSG = '请先生成并保存还款计划';

/** The terms a plan is computed from: changing one discards the saved plan. */
export interface PlanTerms {
  financingAmount: string;
  startDate: string;
  maturityDate: string;
  ruleBizCode: string;
}

export function planTermsChanged(saved: PlanTerms, next: PlanTerms): boolean {
  return (
    !new D(saved.financingAmount).eq(next.financingAmount) ||
    saved.startDate !== next.startDate ||
    saved.maturityDate !== next.maturityDate ||
    saved.ruleBizCode !== next.ruleBizCode
  );
}

/** Why a saved plan is not complete, or null: it has items, a frozen rule, and its principal is the financing. */
export function planProblem(
  items: readonly { principal: string }[],
  financingAmount: string,
  ruleFrozen: boolean,
): string | null {
  if (items.length === 0 || !ruleFrozen) return PLAN_MISSING_MSG;
  const principal = items.reduce((s, r) => s.plus(r.principal), new D(0));
  if (!principal.eq(financingAmount))
    return `还款计划本金合计 ${formatYuan(principal.toFixed(2))} 与融资金额 ${formatYuan(financingAmount)} 不一致`;
  return null;
}
