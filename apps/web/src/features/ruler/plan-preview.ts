import Decimal from 'decimal.js';
import { interestRuleCalc } from '@portal/contract/plan/rule';
import { PlanInputError } from '@portal/contract/plan/money';
import { generatePlan, type PlanResult } from '@portal/contract/plan/schedule';
import { toRuleDraft, type RuleFormValues } from './rule-form';

/** The sample loan of the editor's live preview. */
export interface SampleLoan {
  /** Money string, "1000000.00". */
  principal: string | null;
  /** YYYY-MM-DD. */
  startDate: string | null;
  termMonths: number | null;
}

export const DEFAULT_SAMPLE_PRINCIPAL = '1000000.00';
export const DEFAULT_SAMPLE_TERM = 12;

export interface PlanTotals {
  principal: string;
  interest: string;
  fee: string;
  total: string;
}

export type Preview =
  { ok: true; plan: PlanResult; totals: PlanTotals } | { ok: false; field: string; message: string };

/** Σ of the item columns, in decimal (the engine's strings, never floats). */
export function planTotals(plan: PlanResult): PlanTotals {
  let principal = new Decimal(0);
  let interest = new Decimal(0);
  let fee = new Decimal(0);
  let total = new Decimal(0);
  for (const item of plan.items) {
    principal = principal.plus(item.principal);
    interest = interest.plus(item.interest);
    fee = fee.plus(item.fee);
    total = total.plus(item.total);
  }
  return {
    principal: principal.toFixed(2),
    interest: interest.toFixed(2),
    fee: fee.toFixed(2),
    total: total.toFixed(2),
  };
}

/**
 * The sample plan of the rule being edited: the calculation part is checked with the shared schema
 * first (so a blank rate reads 年利率不能为空), then the engine runs exactly as on the server. Every
 * input error comes back as a value, never thrown.
 */
export function previewPlan(values: Partial<RuleFormValues>, sample: SampleLoan): Preview {
  const calc = interestRuleCalc.safeParse(toRuleDraft(values));
  if (!calc.success) {
    const issue = calc.error.issues[0];
    return { ok: false, field: issue?.path.join('.') ?? 'rule', message: issue?.message ?? '计息规则不完整' };
  }
  if (calc.data.method === 'CUSTOM') {
    return {
      ok: false,
      field: 'customItems',
      message: '自定义还款方式的还款计划在合同中逐期录入，此处无法预览示例计划',
    };
  }
  try {
    const plan = generatePlan({
      principal: sample.principal?.trim() ?? '',
      startDate: sample.startDate ?? '',
      termMonths: sample.termMonths ?? Number.NaN,
      rule: calc.data,
    });
    return { ok: true, plan, totals: planTotals(plan) };
  } catch (err) {
    if (err instanceof PlanInputError) return { ok: false, field: err.field, message: err.message };
    return { ok: false, field: 'plan', message: err instanceof Error ? err.message : String(err) };
  }
}
