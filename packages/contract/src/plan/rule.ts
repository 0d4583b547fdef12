import { z } from 'zod';
import { bool, int, oneOf, rate, RATE_PATTERN } from '../fields';
import { DAY_COUNTS, type DayCount } from './dates';
import { D } from './money';

/**
 * The calculation part of an interest rule (计息规则): what a contract snapshots at approval and
 * what the plan engine needs. Rates are decimal strings ("0.0850" is 8.5 % a year).
 */

export { DAY_COUNTS, type DayCount };

export const METHODS = [
  'BULLET',
  'INTEREST_MONTHLY',
  'INTEREST_QUARTERLY',
  'ANNUITY',
  'EQUAL_PRINCIPAL',
  'CUSTOM',
] as const;
export type Method = (typeof METHODS)[number];

export const INTEREST_COLLECTIONS = ['FRONT', 'BACK'] as const;
export type InterestCollection = (typeof INTEREST_COLLECTIONS)[number];

export const FEE_COLLECTIONS = ['FRONT', 'BACK', 'INSTALMENT'] as const;
export type FeeCollection = (typeof FEE_COLLECTIONS)[number];

export const PENALTY_MODES = ['MULTIPLE', 'DAILY'] as const;
export type PenaltyMode = (typeof PENALTY_MODES)[number];

export const COMPONENTS = ['PENALTY', 'INTEREST', 'FEE', 'PRINCIPAL'] as const;
export type Component = (typeof COMPONENTS)[number];

/** Items already due: 罚息 → 利息 → 费用 → 本金 (docs/money-rules.md "Allocating a payment"). */
export const DEFAULT_ALLOCATION_ORDER: readonly Component[] = ['PENALTY', 'INTEREST', 'FEE', 'PRINCIPAL'];
/** Items not yet due: principal first (Apache Fineract "in advance principal-penalty-fee-interest"). */
export const DEFAULT_IN_ADVANCE_ORDER: readonly Component[] = ['PRINCIPAL', 'PENALTY', 'FEE', 'INTEREST'];

// Chinese labels for the UI dictionaries (select options, plan headers).
export const METHOD_LABELS: Readonly<Record<Method, string>> = {
  BULLET: '到期一次还本付息',
  INTEREST_MONTHLY: '按月付息到期还本',
  INTEREST_QUARTERLY: '按季付息到期还本',
  ANNUITY: '等额本息',
  EQUAL_PRINCIPAL: '等额本金',
  CUSTOM: '自定义',
};
export const DAY_COUNT_LABELS: Readonly<Record<DayCount, string>> = {
  'ACT/360': '实际天数/360',
  'ACT/365': '实际天数/365',
  '30/360': '30/360（每月按30天）',
};
export const INTEREST_COLLECTION_LABELS: Readonly<Record<InterestCollection, string>> = {
  FRONT: '前置',
  BACK: '后置',
};
export const FEE_COLLECTION_LABELS: Readonly<Record<FeeCollection, string>> = {
  FRONT: '前置',
  BACK: '后置',
  INSTALMENT: '分期',
};
export const PENALTY_MODE_LABELS: Readonly<Record<PenaltyMode, string>> = {
  MULTIPLE: '按年利率倍数',
  DAILY: '按固定日利率',
};
export const COMPONENT_LABELS: Readonly<Record<Component, string>> = {
  PENALTY: '罚息',
  INTEREST: '利息',
  FEE: '费用',
  PRINCIPAL: '本金',
};

/** A rate string no greater than `max` (the string pattern already bars negatives). */
function boundedRate(label: string, max: string) {
  // zod runs a refinement even after the pattern failed, so only compare well-formed strings.
  return rate(label).refine((v) => !RATE_PATTERN.test(v) || new D(v).lte(max), `${label}不能大于${max}`);
}

function order(label: string, fallback: readonly Component[]) {
  return z
    .array(oneOf(label, COMPONENTS), { error: `${label}格式不正确` })
    .refine(
      (v) => v.length === COMPONENTS.length && COMPONENTS.every((c) => v.includes(c)),
      `${label}必须包含罚息、利息、费用、本金各一次`,
    )
    .default(() => [...fallback]);
}

const penalty = z.discriminatedUnion(
  'mode',
  [
    z.object({ mode: z.literal('MULTIPLE'), value: boundedRate('罚息倍数', '10') }),
    z.object({ mode: z.literal('DAILY'), value: boundedRate('罚息日利率', '0.01') }),
  ],
  { error: (iss) => (iss.input === undefined ? '罚息方式不能为空' : '罚息方式取值不正确') },
);

export const interestRuleCalc = z.object({
  annualRate: boundedRate('年利率', '10'),
  dayCount: oneOf('计息基准', DAY_COUNTS),
  method: oneOf('还款方式', METHODS),
  interestCollection: oneOf('利息收取方式', INTEREST_COLLECTIONS),
  feeRate: boundedRate('费率', '10'),
  feeCollection: oneOf('费用收取方式', FEE_COLLECTIONS),
  penalty,
  graceDays: int('宽限期天数', 0, 365),
  /** 计头又计尾: the loan's last day also bears interest (+1 day, on the last period only). */
  countBothEnds: bool('计头又计尾').default(false),
  allocationOrder: order('还款分配顺序', DEFAULT_ALLOCATION_ORDER),
  inAdvanceOrder: order('未到期分配顺序', DEFAULT_IN_ADVANCE_ORDER),
});

/** A parsed rule (defaults applied): what the engine functions take. */
export type InterestRuleCalc = z.output<typeof interestRuleCalc>;
/** What a form or an API body may send (defaulted fields optional). */
export type InterestRuleCalcInput = z.input<typeof interestRuleCalc>;
