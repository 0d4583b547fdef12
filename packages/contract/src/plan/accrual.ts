import { isRealDate, RATE_PATTERN } from '../fields';
import { DAY_COUNTS, dayCountDays, fromDayNumber, toDayNumber, yearBasis } from './dates';
import { amount, cents, D, type Dec, fmt, PlanInputError, ZERO } from './money';
import { FEE_COLLECTIONS, INTEREST_COLLECTIONS, PENALTY_MODES, type InterestRuleCalc } from './rule';

/**
 * Accrual of one plan item as of a business date, and the early-settlement quote.
 *
 * Day convention of the penalty (罚息), an end-of-day accrual:
 * - Day d bears penalty when dueDate + graceDays < d <= asOf, i.e. from the day after the grace
 *   period through asOf itself, on the item's principal still outstanding at the end of day d.
 * - A payment with value date v reduces the principal from day v on: the principal it pays
 *   bears no penalty on v (计头不计尾 between the first penalty day and the value date). So a
 *   payment on the first penalty day pays no penalty on the principal it covers.
 * - To price a payment with value date v, count through v − 1: the accrual with asOf = v and
 *   that payment included gives the same figure. settlementQuote does exactly this.
 * - Simple interest: Σ(principal × days) × daily rate, rounded half-up once per item; the daily
 *   rate is annualRate × multiple / basis (MULTIPLE; basis 360 or 365 by the day count, 30/360
 *   uses 360 per calendar day) or the fixed daily rate (DAILY). Overdue interest and fees bear
 *   no penalty; countBothEnds does not apply to penalty days.
 */

export const ITEM_STATUSES = ['未到期', '待还', '部分还款', '已结清', '逾期'] as const;
export type ItemStatus = (typeof ITEM_STATUSES)[number];

export interface AccrualItem {
  dueDate: string;
  principal: string;
  interest: string;
  fee: string;
  /**
   * Penalty assessed outside this engine (migrated, or set by hand), added on top of the
   * computed one. Not a figure this module computed earlier: it recomputes from the due date.
   */
  penalty?: string;
}

/** Amounts paid to one item on a value date; absent components are 0. */
export interface Payment {
  valueDate: string;
  principal?: string;
  interest?: string;
  fee?: string;
  penalty?: string;
}

export type AccrualRule = Pick<InterestRuleCalc, 'annualRate' | 'dayCount' | 'penalty' | 'graceDays'>;

export interface AccrualInput {
  item: AccrualItem;
  /** Payments to this item; those dated after asOf are ignored. */
  payments: readonly Payment[];
  asOf: string;
  rule: AccrualRule;
}

export interface Accrual {
  /** Penalty accrued through asOf (item.penalty included). */
  penaltyAccrued: string;
  principalOutstanding: string;
  interestOutstanding: string;
  feeOutstanding: string;
  /** penaltyAccrued − penalty paid, never below 0 (a back-dated payment can shrink the accrual). */
  penaltyOutstanding: string;
  /** asOf − dueDate while anything is outstanding (grace days included), else 0. */
  overdueDays: number;
  status: ItemStatus;
}

function checkDate(field: string, label: string, v: unknown): string {
  if (typeof v !== 'string' || !isRealDate(v))
    throw new PlanInputError(field, `${label}必须是有效日期（YYYY-MM-DD）`);
  return v;
}

function checkRate(field: string, label: string, v: unknown): Dec {
  if (typeof v !== 'string' || !RATE_PATTERN.test(v)) {
    throw new PlanInputError(field, `${label}必须是不超过8位小数的非负小数`);
  }
  return new D(v);
}

function checkAccrualRule(rule: AccrualRule): void {
  if (typeof rule !== 'object' || rule === null) throw new PlanInputError('rule', '计息规则不能为空');
  checkRate('rule.annualRate', '年利率', rule.annualRate);
  if (!DAY_COUNTS.includes(rule.dayCount)) throw new PlanInputError('rule.dayCount', '计息基准取值不正确');
  const { penalty } = rule;
  if (typeof penalty !== 'object' || penalty === null || !PENALTY_MODES.includes(penalty.mode)) {
    throw new PlanInputError('rule.penalty.mode', '罚息方式取值不正确');
  }
  checkRate('rule.penalty.value', penalty.mode === 'DAILY' ? '罚息日利率' : '罚息倍数', penalty.value);
  if (!Number.isInteger(rule.graceDays) || rule.graceDays < 0 || rule.graceDays > 365) {
    throw new PlanInputError('rule.graceDays', '宽限期天数必须是0到365之间的整数');
  }
}

interface PrincipalEvent {
  day: number;
  amount: Dec;
}

interface Paid {
  principal: Dec;
  interest: Dec;
  fee: Dec;
  penalty: Dec;
  /** Anything paid at all. */
  any: boolean;
  /** Principal payments by value day, ascending. */
  events: PrincipalEvent[];
}

/** Sums the payments dated on or before `cutoff` (a day number). */
function collect(payments: readonly Payment[], cutoff: number, field: string): Paid {
  const paid: Paid = { principal: ZERO, interest: ZERO, fee: ZERO, penalty: ZERO, any: false, events: [] };
  payments.forEach((p, i) => {
    const f = `${field}[${i}]`;
    const day = toDayNumber(checkDate(`${f}.valueDate`, '还款日期', p.valueDate));
    const principal = amount(`${f}.principal`, '还款本金', p.principal, true);
    const interest = amount(`${f}.interest`, '还款利息', p.interest, true);
    const fee = amount(`${f}.fee`, '还款费用', p.fee, true);
    const penalty = amount(`${f}.penalty`, '还款罚息', p.penalty, true);
    if (day > cutoff) return;
    paid.principal = paid.principal.plus(principal);
    paid.interest = paid.interest.plus(interest);
    paid.fee = paid.fee.plus(fee);
    paid.penalty = paid.penalty.plus(penalty);
    if (!principal.isZero() || !interest.isZero() || !fee.isZero() || !penalty.isZero()) paid.any = true;
    if (!principal.isZero()) paid.events.push({ day, amount: principal });
  });
  paid.events.sort((a, b) => a.day - b.day);
  return paid;
}

/** Σ over days from..to (inclusive) of the principal outstanding at the end of each day. */
function principalDays(principal: Dec, events: readonly PrincipalEvent[], from: number, to: number): Dec {
  if (to < from) return ZERO;
  let base = principal;
  let cursor = from;
  let sum = ZERO;
  for (const e of events) {
    if (e.day > to) break;
    if (e.day > cursor) {
      sum = sum.plus(base.times(e.day - cursor));
      cursor = e.day;
    }
    base = base.minus(e.amount);
  }
  return sum.plus(base.times(to - cursor + 1));
}

function penaltyOn(rule: AccrualRule, principalDaysSum: Dec): Dec {
  if (principalDaysSum.isZero()) return ZERO;
  if (rule.penalty.mode === 'DAILY') return cents(principalDaysSum.times(rule.penalty.value));
  return cents(
    principalDaysSum.times(rule.annualRate).times(rule.penalty.value).div(yearBasis(rule.dayCount)),
  );
}

interface ItemFigures {
  due: number;
  principal: Dec;
  interest: Dec;
  fee: Dec;
  penaltyBase: Dec;
}

function itemFigures(item: AccrualItem, field: string): ItemFigures {
  return {
    due: toDayNumber(checkDate(`${field}.dueDate`, '到期日', item.dueDate)),
    principal: amount(`${field}.principal`, '应还本金', item.principal),
    interest: amount(`${field}.interest`, '应还利息', item.interest),
    fee: amount(`${field}.fee`, '应还费用', item.fee),
    penaltyBase: amount(`${field}.penalty`, '已计罚息', item.penalty, true),
  };
}

/** Outstanding = due − paid; overpaying principal, interest or fee is a data error. */
function outstanding(field: string, label: string, due: Dec, paid: Dec): Dec {
  const left = due.minus(paid);
  if (left.isNeg()) throw new PlanInputError(field, `已还${label}超过应还${label}`);
  return left;
}

export function accrueItem(input: AccrualInput): Accrual {
  const { rule } = input;
  checkAccrualRule(rule);
  const it = itemFigures(input.item, 'item');
  const asOf = toDayNumber(checkDate('asOf', '计算日', input.asOf));
  const paid = collect(input.payments, asOf, 'payments');

  const principalLeft = outstanding('payments', '本金', it.principal, paid.principal);
  const interestLeft = outstanding('payments', '利息', it.interest, paid.interest);
  const feeLeft = outstanding('payments', '费用', it.fee, paid.fee);
  const firstPenaltyDay = it.due + rule.graceDays + 1;
  const accrued = it.penaltyBase.plus(
    penaltyOn(rule, principalDays(it.principal, paid.events, firstPenaltyDay, asOf)),
  );
  let penaltyLeft = accrued.minus(paid.penalty);
  if (penaltyLeft.isNeg()) penaltyLeft = ZERO;

  const open = !(principalLeft.isZero() && interestLeft.isZero() && feeLeft.isZero() && penaltyLeft.isZero());
  let status: ItemStatus;
  if (!open && (paid.any || asOf >= it.due)) status = '已结清';
  else if (asOf < it.due) status = '未到期';
  else if (asOf >= firstPenaltyDay) status = '逾期';
  else status = paid.any ? '部分还款' : '待还';

  return {
    penaltyAccrued: fmt(accrued),
    principalOutstanding: fmt(principalLeft),
    interestOutstanding: fmt(interestLeft),
    feeOutstanding: fmt(feeLeft),
    penaltyOutstanding: fmt(penaltyLeft),
    overdueDays: open && asOf > it.due ? asOf - it.due : 0,
    status,
  };
}

// ---------------------------------------------------------------------------------------------
// Early settlement (提前结清)

/** A plan item as stored (PlanItem fits), with its period number and period start. */
export interface SettlementItem extends AccrualItem {
  period: number;
  startDate: string;
}

/** A payment to the item with the same `period`. */
export interface ItemPayment extends Payment {
  period: number;
}

export type SettlementRule = AccrualRule &
  Pick<InterestRuleCalc, 'interestCollection' | 'feeRate' | 'feeCollection' | 'countBothEnds'>;

export interface SettlementLine {
  period: number;
  principal: string;
  interest: string;
  fee: string;
  penalty: string;
  total: string;
  /** Scheduled interest this settlement forgoes (due − paid − charged); write it off as waived. */
  interestWaived: string;
  feeWaived: string;
}

export interface SettlementQuote {
  settlementDate: string;
  principal: string;
  interest: string;
  fee: string;
  penalty: string;
  total: string;
  /** One line per item, in period order, with what a settlement on that date must pay to it. */
  lines: SettlementLine[];
}

/**
 * What settles the whole contract with a payment on `settlementDate`:
 * - items due on or before that date: their outstanding principal, interest and fee, plus penalty
 *   through settlementDate − 1 (the settlement payment stops accrual on its value date);
 * - the current item (start <= date < due): interest recomputed as outstanding principal ×
 *   annualRate × days(period start → settlementDate) / basis, segment by segment when principal was
 *   prepaid inside the period, +1 day with countBothEnds; never more than the scheduled interest.
 *   The INSTALMENT fee of that item, and a BACK fee, are recomputed to the date the same way
 *   (financing amount × feeRate × days / basis), capped by the scheduled fee;
 * - later items: principal only; their interest and fee are dropped (reported as waived).
 * 前置 (FRONT) interest and fees were taken at financing and are not refunded here.
 * Interest or fee already paid beyond what the quote charges is not refunded either (clamped to 0).
 */
export function settlementQuote(
  items: readonly SettlementItem[],
  payments: readonly ItemPayment[],
  settlementDate: string,
  rule: SettlementRule,
): SettlementQuote {
  checkAccrualRule(rule);
  const feeRate = checkRate('rule.feeRate', '费率', rule.feeRate);
  if (!INTEREST_COLLECTIONS.includes(rule.interestCollection)) {
    throw new PlanInputError('rule.interestCollection', '利息收取方式取值不正确');
  }
  if (!FEE_COLLECTIONS.includes(rule.feeCollection))
    throw new PlanInputError('rule.feeCollection', '费用收取方式取值不正确');
  if (items.length === 0) throw new PlanInputError('items', '还款计划不能为空');
  const s = toDayNumber(checkDate('settlementDate', '结清日', settlementDate));

  const sorted = [...items].sort((a, b) => a.period - b.period);
  const figures = sorted.map((item, i) => ({
    ...itemFigures(item, `items[${i}]`),
    start: toDayNumber(checkDate(`items[${i}].startDate`, '起始日', item.startDate)),
  }));
  if (s < figures[0]!.start) throw new PlanInputError('settlementDate', '结清日不能早于起息日');
  const stray = payments.findIndex((p) => !sorted.some((item) => item.period === p.period));
  if (stray >= 0)
    throw new PlanInputError(`payments[${stray}].period`, `还款记录的期次${payments[stray]!.period}不存在`);
  const paidBy = sorted.map((item) =>
    collect(
      payments.filter((p) => p.period === item.period),
      s,
      `payments(period ${item.period})`,
    ),
  );

  const annualRate = new D(rule.annualRate);
  const basis = new D(yearBasis(rule.dayCount));
  const financed = figures.reduce((sum, f) => sum.plus(f.principal), ZERO);
  const current = figures.findIndex((f) => f.start <= s && s < f.due);
  const last = figures.length - 1;
  const extraDay = rule.countBothEnds ? 1 : 0;

  /** Interest of the current period to s: Σ balance × days per segment between principal payments. */
  const currentInterest = (c: number): Dec => {
    if (rule.interestCollection === 'FRONT') return ZERO;
    // Principal of the current and later items, reduced by their principal payments as they land.
    let balance = ZERO;
    const events: PrincipalEvent[] = [];
    for (let j = c; j <= last; j++) {
      balance = balance.plus(figures[j]!.principal);
      events.push(...paidBy[j]!.events);
    }
    events.sort((a, b) => a.day - b.day);
    let cursor = figures[c]!.start;
    let sum = ZERO;
    let k = 0;
    for (; k < events.length && events[k]!.day < s; k++) {
      const e = events[k]!;
      if (e.day > cursor) {
        sum = sum.plus(
          balance.times(dayCountDays(rule.dayCount, fromDayNumber(cursor), fromDayNumber(e.day))),
        );
        cursor = e.day;
      }
      balance = balance.minus(e.amount);
    }
    sum = sum.plus(balance.times(dayCountDays(rule.dayCount, fromDayNumber(cursor), settlementDate)));
    if (extraDay) {
      // 计头又计尾: the settlement day itself, on what principal paid that day has not cleared.
      for (; k < events.length; k++) balance = balance.minus(events[k]!.amount);
      sum = sum.plus(balance);
    }
    return cents(sum.times(annualRate).div(basis));
  };

  /** The time-based fee to s: financing amount × feeRate × days / basis. */
  const feeTo = (fromDay: number): Dec => {
    let days = dayCountDays(rule.dayCount, fromDayNumber(fromDay), settlementDate) + extraDay;
    if (rule.feeCollection === 'BACK') {
      // The BACK fee spans the whole loan: whole past periods keep their own day counts.
      for (let j = 0; j < current; j++) {
        days += dayCountDays(rule.dayCount, fromDayNumber(figures[j]!.start), fromDayNumber(figures[j]!.due));
      }
    }
    return cents(financed.times(feeRate).times(days).div(basis));
  };

  const lines: SettlementLine[] = [];
  const totals = { principal: ZERO, interest: ZERO, fee: ZERO, penalty: ZERO };
  figures.forEach((f, i) => {
    const paid = paidBy[i]!;
    const field = `payments(period ${sorted[i]!.period})`;
    const principal = outstanding(field, '本金', f.principal, paid.principal);
    const interestDue = outstanding(field, '利息', f.interest, paid.interest);
    const feeDue = outstanding(field, '费用', f.fee, paid.fee);
    let interest = interestDue;
    let fee = feeDue;
    let penalty = ZERO;
    if (f.due <= s) {
      const accrued = f.penaltyBase.plus(
        penaltyOn(rule, principalDays(f.principal, paid.events, f.due + rule.graceDays + 1, s - 1)),
      );
      penalty = accrued.minus(paid.penalty);
      if (penalty.isNeg()) penalty = ZERO;
    } else {
      const charged = (scheduled: Dec, recomputed: Dec, paidSoFar: Dec): Dec => {
        const left = D.min(scheduled, recomputed).minus(paidSoFar);
        return left.isNeg() ? ZERO : left;
      };
      interest = i === current ? charged(f.interest, currentInterest(i), paid.interest) : ZERO;
      if (rule.feeCollection === 'INSTALMENT' && i === current)
        fee = charged(f.fee, feeTo(f.start), paid.fee);
      else if (rule.feeCollection === 'BACK' && i === last && current >= 0) {
        fee = charged(f.fee, feeTo(figures[current]!.start), paid.fee);
      } else fee = ZERO;
      penalty = f.penaltyBase.minus(paid.penalty);
      if (penalty.isNeg()) penalty = ZERO;
    }
    totals.principal = totals.principal.plus(principal);
    totals.interest = totals.interest.plus(interest);
    totals.fee = totals.fee.plus(fee);
    totals.penalty = totals.penalty.plus(penalty);
    lines.push({
      period: sorted[i]!.period,
      principal: fmt(principal),
      interest: fmt(interest),
      fee: fmt(fee),
      penalty: fmt(penalty),
      total: fmt(principal.plus(interest).plus(fee).plus(penalty)),
      interestWaived: fmt(interestDue.minus(interest)),
      feeWaived: fmt(feeDue.minus(fee)),
    });
  });
  return {
    settlementDate,
    principal: fmt(totals.principal),
    interest: fmt(totals.interest),
    fee: fmt(totals.fee),
    penalty: fmt(totals.penalty),
    total: fmt(totals.principal.plus(totals.interest).plus(totals.fee).plus(totals.penalty)),
    lines,
  };
}
