import Decimal from 'decimal.js';
import type { z } from 'zod';
import {
  DEFAULT_ALLOCATION_ORDER,
  DEFAULT_IN_ADVANCE_ORDER,
  type Component,
  type DayCount,
  type FeeCollection,
  type InterestCollection,
  type Method,
  type PenaltyMode,
} from '@portal/contract/plan/rule';
import { ruleSaveSchema, type RULE_STATES, type RuleView } from '@portal/contract/ruler';

/**
 * The editor's form values and their mapping to the save body. Rates are typed as percentages
 * ("8.5" for 8.5 %) and sent as decimal fractions ("0.0850"); the conversion is done on decimal
 * strings with decimal.js, never through a float. The shared zod schema (ruleSaveSchema) validates
 * the body, so the form shows exactly the server's messages.
 */

export type RuleState = (typeof RULE_STATES)[number];

export interface RuleFormValues {
  name: string;
  state: RuleState;
  /** Annual rate in percent ("8.5"). */
  annualRatePct: string | null;
  dayCount: DayCount;
  method: Method;
  interestCollection: InterestCollection;
  /** Annual fee rate in percent. */
  feeRatePct: string | null;
  feeCollection: FeeCollection;
  penaltyMode: PenaltyMode;
  /** MULTIPLE: a multiple of the annual rate ("1.5"); DAILY: a daily rate in percent ("0.05"). */
  penaltyValue: string | null;
  graceDays: number | null;
  countBothEnds: boolean;
  allocationOrder: Component[];
  inAdvanceOrder: Component[];
  remark: string;
}

export type RuleSaveBody = z.output<typeof ruleSaveSchema>;

export const NEW_RULE_VALUES: RuleFormValues = {
  name: '',
  state: 'enabled',
  annualRatePct: null,
  dayCount: 'ACT/360',
  method: 'BULLET',
  interestCollection: 'BACK',
  feeRatePct: '0',
  feeCollection: 'BACK',
  penaltyMode: 'MULTIPLE',
  penaltyValue: '1.5',
  graceDays: 0,
  countBothEnds: false,
  allocationOrder: [...DEFAULT_ALLOCATION_ORDER],
  inAdvanceOrder: [...DEFAULT_IN_ADVANCE_ORDER],
  remark: '',
};

const blank = (v: string | null | undefined): v is null | undefined | '' =>
  v === null || v === undefined || v.trim() === '';

function parseDecimal(v: string): Decimal | undefined {
  try {
    const d = new Decimal(v.trim());
    return d.isFinite() ? d : undefined;
  } catch {
    return undefined;
  }
}

/**
 * "8.5" (%) -> "0.0850": at least 4 decimals (the server's own style), more when the percentage
 * has them. Blank stays undefined (the schema answers "…不能为空"); text that is not a number is
 * passed through as it is, so the schema answers "…格式不正确" rather than the form guessing.
 */
export function percentToRate(pct: string | null | undefined): string | undefined {
  if (blank(pct)) return undefined;
  const d = parseDecimal(pct);
  if (!d) return pct.trim();
  const rate = d.div(100);
  return rate.toFixed(Math.max(4, rate.decimalPlaces()));
}

/** "0.0850" -> "8.5" (no trailing zeros). */
export function rateToPercent(rate: string | null | undefined): string | null {
  if (blank(rate)) return null;
  const d = parseDecimal(rate);
  return d ? d.times(100).toFixed() : rate;
}

/** A rate shown in lists: "0.0850" -> "8.5%". */
export function formatRatePercent(rate: string | null | undefined): string {
  const pct = rateToPercent(rate);
  return pct === null ? '' : `${pct}%`;
}

function penaltyValueOut(mode: PenaltyMode, value: string | null): string | undefined {
  if (mode === 'DAILY') return percentToRate(value);
  return blank(value) ? undefined : value.trim();
}

/** The unvalidated save body of the form (what the schema parses). */
export function toRuleDraft(
  v: Partial<RuleFormValues>,
  ids?: { bizCode: string; version: number },
): Record<string, unknown> {
  const mode = v.penaltyMode;
  return {
    ...(ids ? { bizCode: ids.bizCode, version: ids.version } : {}),
    name: v.name ?? '',
    state: v.state,
    annualRate: percentToRate(v.annualRatePct),
    dayCount: v.dayCount,
    method: v.method,
    interestCollection: v.interestCollection,
    feeRate: percentToRate(v.feeRatePct),
    feeCollection: v.feeCollection,
    penalty: mode === undefined ? undefined : { mode, value: penaltyValueOut(mode, v.penaltyValue ?? null) },
    graceDays: v.graceDays ?? undefined,
    countBothEnds: v.countBothEnds ?? false,
    allocationOrder: v.allocationOrder,
    inAdvanceOrder: v.inAdvanceOrder,
    remark: v.remark,
  };
}

/** A view from the server -> form values. */
export function viewToForm(r: RuleView): RuleFormValues {
  return {
    name: r.name,
    state: r.state,
    annualRatePct: rateToPercent(r.annualRate),
    dayCount: r.dayCount,
    method: r.method,
    interestCollection: r.interestCollection,
    feeRatePct: rateToPercent(r.feeRate),
    feeCollection: r.feeCollection,
    penaltyMode: r.penalty.mode,
    penaltyValue: r.penalty.mode === 'DAILY' ? rateToPercent(r.penalty.value) : r.penalty.value,
    graceDays: r.graceDays,
    countBothEnds: r.countBothEnds,
    allocationOrder: [...r.allocationOrder],
    inAdvanceOrder: [...r.inAdvanceOrder],
    remark: r.remark ?? '',
  };
}

export type RuleField = keyof RuleFormValues;

/** A schema issue path -> the form field that shows it. */
export function fieldOfIssue(path: readonly PropertyKey[]): RuleField | undefined {
  const [head, second] = path;
  switch (head) {
    case 'annualRate':
      return 'annualRatePct';
    case 'feeRate':
      return 'feeRatePct';
    case 'penalty':
      return second === 'value' ? 'penaltyValue' : 'penaltyMode';
    case 'name':
    case 'state':
    case 'dayCount':
    case 'method':
    case 'interestCollection':
    case 'feeCollection':
    case 'graceDays':
    case 'countBothEnds':
    case 'allocationOrder':
    case 'inAdvanceOrder':
    case 'remark':
      return head;
    default:
      return undefined;
  }
}

export type RuleCheck =
  | { ok: true; body: RuleSaveBody }
  | { ok: false; errors: Partial<Record<RuleField, string>>; other: string[] };

/** Validates the form with the shared schema: the body to send, or the first message per field. */
export function checkRule(v: Partial<RuleFormValues>, ids?: { bizCode: string; version: number }): RuleCheck {
  const parsed = ruleSaveSchema.safeParse(toRuleDraft(v, ids));
  if (parsed.success) return { ok: true, body: parsed.data };
  const errors: Partial<Record<RuleField, string>> = {};
  const other: string[] = [];
  for (const issue of parsed.error.issues) {
    const field = fieldOfIssue(issue.path);
    if (!field) other.push(issue.message);
    else errors[field] ??= issue.message;
  }
  return { ok: false, errors, other };
}
