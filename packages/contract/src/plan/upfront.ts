import { DUE_KIND_LABELS, differsFromRule, type DueItem } from '../contract';
import { formatYuan } from '../format';
import { UPFRONT_KINDS } from '../loan';
import { D } from './money';

/**
 * The implied up-front items (docs/money-lifecycle.md "Implied up-front items"): what the server
 * applies when a plan is saved, the terms change, and a contract is submitted or approved, and what
 * the contract editor checks before it asks to submit. One set of functions for both.
 */

/** The contract's terms the up-front items follow. */
export interface UpfrontTerms {
  /** A plan is saved (the rule is frozen on the contract): no item is implied before. */
  planned: boolean;
  startDate: string;
  financingAmount: string;
  marginRatio: string | null;
  upfrontInterest: string;
  upfrontFee: string;
}

/** A due as stored: its amount, the rule's figure it was saved against, and the maker's reason. */
export interface StoredDue {
  kind: string;
  amount: string;
  receivedAmount: string;
  ruleAmount: string | null;
  reason: string | null;
}

const UPFRONT: readonly string[] = UPFRONT_KINDS;

/**
 * The up-front items the contract's rule and terms imply once its plan is made: margin (financing ×
 * margin ratio), 前置利息 and 前置手续费 (the plan engine's), each due on the start date. None while
 * there is no plan.
 */
export function impliedDues(c: UpfrontTerms): DueItem[] {
  if (!c.planned) return [];
  const out: DueItem[] = [];
  const on = c.startDate;
  const margin = new D(c.financingAmount).times(c.marginRatio ?? 0).toDecimalPlaces(2, D.ROUND_HALF_UP);
  if (margin.gt(0)) out.push({ kind: 'margin', amount: margin.toFixed(2), dueDate: on });
  if (new D(c.upfrontInterest).gt(0))
    out.push({ kind: 'upfrontInterest', amount: c.upfrontInterest, dueDate: on });
  if (new D(c.upfrontFee).gt(0)) out.push({ kind: 'upfrontFee', amount: c.upfrontFee, dueDate: on });
  return out;
}

/** The rule's figure for one kind of due (null: the rule implies none of that kind). */
export const ruleFigure = (implied: readonly DueItem[], kind: string): string | null =>
  implied.find((d) => d.kind === kind)?.amount ?? null;

/**
 * Whether a due stays when the implied items are brought in line with the contract (plan saved,
 * terms changed): a due the rule does not imply, added by the maker, or a received one, stays; an
 * up-front one stays while it was saved against the rule's current figure (none: saved against none).
 */
export function impliedDueStays(
  implied: readonly DueItem[],
  d: Pick<StoredDue, 'kind' | 'receivedAmount' | 'ruleAmount'>,
): boolean {
  if (!UPFRONT.includes(d.kind) || !new D(d.receivedAmount).isZero()) return true;
  const figure = ruleFigure(implied, d.kind);
  if (figure === null) return d.ruleAmount === null;
  return d.ruleAmount !== null && new D(d.ruleAmount).eq(figure);
}

/** The implied items none of the kept dues is of: added at the rule's figure. */
export const missingImplied = (implied: readonly DueItem[], kept: readonly Pick<StoredDue, 'kind'>[]) =>
  implied.filter((i) => !kept.some((d) => d.kind === i.kind));

/** The dues after the implied items are brought in line (what the server stores; see impliedDueStays). */
export function refreshedDues<T extends StoredDue>(
  implied: readonly DueItem[],
  dues: readonly T[],
): (T | StoredDue)[] {
  const kept = dues.filter((d) => impliedDueStays(implied, d));
  return [
    ...kept,
    ...missingImplied(implied, kept).map((i) => ({
      kind: i.kind,
      amount: i.amount,
      receivedAmount: '0',
      ruleAmount: i.amount,
      reason: null,
    })),
  ];
}

/**
 * Why the contract may not be submitted or approved for its up-front items (null: it may): each
 * item the rule implies is there once, at the rule's figure or, saved against that figure, with a
 * reason.
 */
export function upfrontProblem(
  implied: readonly DueItem[],
  dues: readonly Pick<StoredDue, 'kind' | 'amount' | 'ruleAmount' | 'reason'>[],
): string | null {
  for (const i of implied) {
    const label = DUE_KIND_LABELS[i.kind];
    const mine = dues.filter((d) => d.kind === i.kind);
    if (mine.length === 0)
      return `应收费用缺少「${label}」（按规则应为 ${formatYuan(i.amount)}），请在应收费用中保存`;
    if (mine.length > 1) return `应收费用「${label}」只能有一条`;
    const d = mine[0]!;
    const explained = !!d.reason && d.ruleAmount !== null && new D(d.ruleAmount).eq(i.amount);
    if (differsFromRule(d.amount, i.amount) && !explained)
      return `应收费用「${label}」${formatYuan(d.amount)} 与按规则计算的 ${formatYuan(i.amount)} 不一致，请填写原因`;
  }
  return null;
}
