import { isRealDate, RATE_PATTERN } from '../fields';
import {
  addMonths,
  addMonthsYMD,
  type DayCount,
  dayCountDays,
  days360YMD,
  formatYMD,
  parseDate,
  yearBasis,
  type YMD,
  ymdToDayNumber,
} from './dates';
import { cents, D, type Dec, fmt, PlanInputError, amount, ZERO } from './money';
import { DAY_COUNTS, FEE_COLLECTIONS, INTEREST_COLLECTIONS, METHODS, type InterestRuleCalc } from './rule';

/**
 * Repayment plan generation. Conventions (callers rely on them):
 * - Periods run from the start date by whole calendar months (quarters for INTEREST_QUARTERLY),
 *   always start + k months (see addMonths), and the last period ends on the maturity date; when
 *   maturity falls before a full period the last period is broken (shorter) and its interest is
 *   prorated by its days. Only the last period can be broken.
 * - Interest of an item = outstanding principal at the period start × annualRate × days / basis,
 *   half-up to the cent per item. Days follow the day count (30/360 days under '30/360') and
 *   count the first day, not the last (计头不计尾); with countBothEnds (计头又计尾) the loan's
 *   last day also counts: +1 day on the last item only, so no day is charged twice.
 * - Fee = principal (the financing amount, not the declining balance) × feeRate × days / basis;
 *   the total fee is the same for every collection mode up to per-item rounding.
 * - Σ principal = principal exactly: EQUAL_PRINCIPAL parts are P/n half-up with the residue on the
 *   last item; ANNUITY parts are the instalment less the item's interest (see annuityParts);
 *   the other methods repay all principal on the last item.
 * - ANNUITY (等额本息, docs/money-rules.md "等额本息"): instalment A = P·r/(1−(1+r)^−n) half-up
 *   to the cent with r = annualRate / 12 whatever the day count; a whole period's interest is
 *   outstanding × r half-up and its principal A − interest, so every item but the last totals A
 *   exactly; the last item takes the remaining principal. Only a broken last period (maturity
 *   before a full month) charges interest by its day count, like the other methods.
 * - maturityDate wins over termMonths when both are given (termMonths is then only validated).
 */

export interface PlanItem {
  period: number;
  startDate: string;
  dueDate: string;
  /** The days the interest and fee of this item were computed on (30/360 days under 30/360). */
  days: number;
  principal: string;
  interest: string;
  fee: string;
  total: string;
}

/** One row of a CUSTOM plan: the due date and the principal part; interest and fee follow the rule. */
export interface CustomItem {
  dueDate: string;
  principal: string;
}

/** What the schedule needs from a rule (the penalty and allocation parts do not matter here). */
export type PlanRule = Pick<
  InterestRuleCalc,
  'annualRate' | 'dayCount' | 'method' | 'interestCollection' | 'feeRate' | 'feeCollection' | 'countBothEnds'
>;

export interface PlanInput {
  /** Financing amount, "0.01" to "1000000000000", at most 2 decimals. */
  principal: string;
  startDate: string;
  maturityDate?: string;
  /** 1..360; used only when maturityDate is absent (maturity = start + termMonths). */
  termMonths?: number;
  rule: PlanRule;
  /** Required for method CUSTOM, refused otherwise. */
  customItems?: readonly CustomItem[];
}

export interface PlanResult {
  items: PlanItem[];
  /** The maturity used (given, start + termMonths, or the last custom due date). */
  maturityDate: string;
  /** 前置 interest deducted at financing ("0.00" for BACK); the items then carry interest 0. */
  upfrontInterest: string;
  /** 前置 fee deducted at financing ("0.00" unless feeCollection is FRONT). */
  upfrontFee: string;
  /** upfrontInterest + Σ item interest. */
  totalInterest: string;
  /** upfrontFee + Σ item fee. */
  totalFee: string;
}

export const MAX_TERM_MONTHS = 360;
export const MAX_PRINCIPAL = '1000000000000';
const MAX_RATE = new D(10);
const MIN_PRINCIPAL = new D('0.01');
const MAX_PRINCIPAL_D = new D(MAX_PRINCIPAL);
const TWELVE = new D(12);
const ONE = new D(1);

function checkRule(rule: PlanRule): void {
  const rates: [keyof PlanRule, string, unknown][] = [
    ['annualRate', '年利率', rule.annualRate],
    ['feeRate', '费率', rule.feeRate],
  ];
  for (const [key, label, v] of rates) {
    if (typeof v !== 'string' || !RATE_PATTERN.test(v)) {
      throw new PlanInputError(`rule.${key}`, `${label}必须是不超过8位小数的非负小数`);
    }
    if (new D(v).gt(MAX_RATE)) throw new PlanInputError(`rule.${key}`, `${label}不能大于10`);
  }
  const enums: [keyof PlanRule, string, readonly string[], unknown][] = [
    ['dayCount', '计息基准', DAY_COUNTS, rule.dayCount],
    ['method', '还款方式', METHODS, rule.method],
    ['interestCollection', '利息收取方式', INTEREST_COLLECTIONS, rule.interestCollection],
    ['feeCollection', '费用收取方式', FEE_COLLECTIONS, rule.feeCollection],
  ];
  for (const [key, label, values, v] of enums) {
    if (typeof v !== 'string' || !values.includes(v))
      throw new PlanInputError(`rule.${key}`, `${label}取值不正确`);
  }
  if (typeof rule.countBothEnds !== 'boolean')
    throw new PlanInputError('rule.countBothEnds', '计头又计尾格式不正确');
}

function checkDate(field: string, label: string, v: unknown): string {
  if (typeof v !== 'string' || !isRealDate(v))
    throw new PlanInputError(field, `${label}必须是有效日期（YYYY-MM-DD）`);
  return v;
}

interface Period {
  start: string;
  due: string;
  /** Day-count days of the period, 计头不计尾. */
  days: number;
}

/** start + k·step months while before maturity, then maturity itself (the anchor is parsed once). */
function calendarPeriods(start: string, maturity: string, stepMonths: number, dayCount: DayCount): Period[] {
  const periods: Period[] = [];
  const anchor = parseDate(start);
  const end = parseDate(maturity);
  const endDay = ymdToDayNumber(end);
  const days = (a: YMD, aDay: number, b: YMD, bDay: number) =>
    dayCount === '30/360' ? days360YMD(a, b) : bDay - aDay;
  let from = anchor;
  let fromDay = ymdToDayNumber(anchor);
  let fromText = start;
  for (let k = 1; ; k++) {
    const due = addMonthsYMD(anchor, k * stepMonths);
    const dueDay = ymdToDayNumber(due);
    if (dueDay >= endDay) break;
    const dueText = formatYMD(due.year, due.month, due.day);
    periods.push({ start: fromText, due: dueText, days: days(from, fromDay, due, dueDay) });
    from = due;
    fromDay = dueDay;
    fromText = dueText;
  }
  periods.push({ start: fromText, due: maturity, days: days(from, fromDay, end, endDay) });
  return periods;
}

function customPeriods(input: PlanInput, start: string, total: Dec): { periods: Period[]; parts: Dec[] } {
  const rows = input.customItems;
  if (!rows || rows.length === 0) throw new PlanInputError('customItems', '自定义还款计划不能为空');
  if (rows.length > MAX_TERM_MONTHS) {
    throw new PlanInputError('customItems', `自定义还款计划不能超过${MAX_TERM_MONTHS}期`);
  }
  const periods: Period[] = [];
  const parts: Dec[] = [];
  let from = start;
  let sum = ZERO;
  rows.forEach((row, i) => {
    const due = checkDate(`customItems[${i}].dueDate`, `第${i + 1}期到期日`, row.dueDate);
    if (due <= from) {
      throw new PlanInputError(
        `customItems[${i}].dueDate`,
        i === 0 ? '第1期到期日必须晚于起息日' : `第${i + 1}期到期日必须晚于第${i}期到期日`,
      );
    }
    const part = amount(`customItems[${i}].principal`, `第${i + 1}期本金`, row.principal);
    periods.push({ start: from, due, days: dayCountDays(input.rule.dayCount, from, due) });
    parts.push(part);
    sum = sum.plus(part);
    from = due;
  });
  if (!sum.eq(total)) throw new PlanInputError('customItems', '自定义还款计划的本金合计必须等于融资本金');
  return { periods, parts };
}

/**
 * Principal parts per period for the methods whose split does not depend on the interest
 * (ANNUITY is built item by item in annuityItems); Σ parts = total exactly, no part negative.
 */
function splitPrincipal(method: PlanRule['method'], total: Dec, n: number): Dec[] {
  const parts: Dec[] = [];
  if (method === 'EQUAL_PRINCIPAL') {
    // P/n half-up, never more than what is left (a 1.00 loan over 120 periods would otherwise
    // round every part up to 0.01 and leave a negative last one); the residue on the last item.
    const each = cents(total.div(n));
    let left = total;
    for (let k = 0; k < n - 1; k++) {
      const part = each.gt(left) ? left : each;
      parts.push(part);
      left = left.minus(part);
    }
    parts.push(left);
    return parts;
  }
  // BULLET and the interest-only methods: all principal at maturity.
  for (let k = 0; k < n - 1; k++) parts.push(ZERO);
  parts.push(total);
  return parts;
}

/**
 * 等额本息 principal parts: A = P·r/(1−(1+r)^−n) half-up to the cent, r = annualRate / 12; item k
 * pays interest cents(B_k·r) and principal A − interest (never more than B_k, never negative);
 * the last item pays what is left. With r = 0, A = P/n half-up. A broken last period changes
 * only that item's interest (by days), never the split.
 */
function annuityParts(total: Dec, n: number, annualRate: Dec): { parts: Dec[] } {
  const r = annualRate.div(TWELVE);
  const payment = cents(r.isZero() ? total.div(n) : total.times(r).div(ONE.minus(r.plus(ONE).pow(-n))));
  const parts: Dec[] = [];
  let balance = total;
  for (let k = 0; k < n - 1; k++) {
    const interest = cents(balance.times(annualRate).div(TWELVE));
    let part = payment.minus(interest);
    if (part.isNeg()) part = ZERO;
    if (part.gt(balance)) part = balance;
    parts.push(part);
    balance = balance.minus(part);
  }
  parts.push(balance);
  return { parts };
}

/**
 * One period's interest on `balance`: by its day-count days, or (等额本息's whole periods) by the
 * month's rate r = annualRate / 12, 计头又计尾's extra day then added by the day count. Multiply
 * first, divide last: the product is exact, so a true half-cent tie rounds up.
 */
function periodInterest(
  balance: Dec,
  annualRate: Dec,
  basis: Dec,
  days: number,
  extraDay: boolean,
  byMonth: boolean,
): Dec {
  return byMonth
    ? cents(
        balance
          .times(annualRate)
          .div(TWELVE)
          .plus(extraDay ? balance.times(annualRate).div(basis) : ZERO),
      )
    : cents(balance.times(annualRate).times(days).div(basis));
}

export function generatePlan(input: PlanInput): PlanResult {
  const { rule } = input;
  if (typeof rule !== 'object' || rule === null) throw new PlanInputError('rule', '计息规则不能为空');
  checkRule(rule);
  const principal = amount('principal', '融资本金', input.principal);
  if (principal.lt(MIN_PRINCIPAL) || principal.gt(MAX_PRINCIPAL_D)) {
    throw new PlanInputError('principal', `融资本金必须在0.01到${MAX_PRINCIPAL}之间`);
  }
  const start = checkDate('startDate', '起息日', input.startDate);
  const term = input.termMonths;
  if (term !== undefined && (!Number.isInteger(term) || term < 1 || term > MAX_TERM_MONTHS)) {
    throw new PlanInputError('termMonths', `期限（月）必须是1到${MAX_TERM_MONTHS}之间的整数`);
  }
  const custom = rule.method === 'CUSTOM';
  if (!custom && input.customItems !== undefined && input.customItems.length > 0) {
    throw new PlanInputError('customItems', '只有自定义还款方式可以填写自定义还款计划');
  }

  let periods: Period[];
  let parts: Dec[] | undefined;
  let maturity: string;
  if (custom) {
    ({ periods, parts } = customPeriods(input, start, principal));
    maturity = periods[periods.length - 1]!.due;
    if (input.maturityDate !== undefined && input.maturityDate !== maturity) {
      throw new PlanInputError('maturityDate', '到期日必须等于自定义还款计划最后一期的到期日');
    }
  } else {
    if (input.maturityDate !== undefined) maturity = checkDate('maturityDate', '到期日', input.maturityDate);
    else if (term !== undefined) maturity = addMonths(start, term);
    else throw new PlanInputError('maturityDate', '到期日和期限不能同时为空');
    if (maturity <= start) throw new PlanInputError('maturityDate', '到期日必须晚于起息日');
    if (maturity > addMonths(start, MAX_TERM_MONTHS)) {
      throw new PlanInputError('maturityDate', `到期日不能晚于起息日后${MAX_TERM_MONTHS}个月`);
    }
    periods =
      rule.method === 'BULLET'
        ? [{ start, due: maturity, days: dayCountDays(rule.dayCount, start, maturity) }]
        : calendarPeriods(start, maturity, rule.method === 'INTEREST_QUARTERLY' ? 3 : 1, rule.dayCount);
  }

  const n = periods.length;
  const annualRate = new D(rule.annualRate);
  const feeRate = new D(rule.feeRate);
  const basis = new D(yearBasis(rule.dayCount));
  const annuity = !custom && rule.method === 'ANNUITY';
  // A broken last period: maturity is not a whole number of months after the start.
  const brokenLast = annuity && addMonths(start, n) !== maturity;
  const annuityPlan = annuity ? annuityParts(principal, n, annualRate) : null;
  parts ??= annuityPlan?.parts ?? splitPrincipal(rule.method, principal, n);
  const frontInterest = rule.interestCollection === 'FRONT';

  const items: PlanItem[] = [];
  let balance = principal;
  let interestSum = ZERO;
  let itemFeeSum = ZERO;
  let totalDays = 0;
  const feeByDays = new Map<number, Dec>();
  for (let k = 0; k < n; k++) {
    const p = periods[k]!;
    const part = parts[k]!;
    const days = p.days + (k === n - 1 && rule.countBothEnds ? 1 : 0);
    totalDays += days;
    const periodRate = !!annuityPlan && !(brokenLast && k === n - 1);
    const interest = periodInterest(balance, annualRate, basis, days, days > p.days, periodRate);
    interestSum = interestSum.plus(interest);
    let fee = ZERO;
    if (rule.feeCollection === 'INSTALMENT') {
      // The fee depends on the days only, and monthly periods have 28..31 of them.
      fee = feeByDays.get(days) ?? cents(principal.times(feeRate).times(days).div(basis));
      feeByDays.set(days, fee);
    }
    itemFeeSum = itemFeeSum.plus(fee);
    const shownInterest = frontInterest ? ZERO : interest;
    items.push({
      period: k + 1,
      startDate: p.start,
      dueDate: p.due,
      days,
      principal: fmt(part),
      interest: fmt(shownInterest),
      fee: fmt(fee),
      total: fmt(part.plus(shownInterest).plus(fee)),
    });
    balance = balance.minus(part);
  }

  let upfrontFee = ZERO;
  if (rule.feeCollection !== 'INSTALMENT') {
    const fee = cents(principal.times(feeRate).times(totalDays).div(basis));
    if (rule.feeCollection === 'FRONT') upfrontFee = fee;
    else {
      const last = items[n - 1]!;
      last.fee = fmt(fee);
      last.total = fmt(new D(last.total).plus(fee));
      itemFeeSum = fee;
    }
  }
  const upfrontInterest = frontInterest ? interestSum : ZERO;
  return {
    items,
    maturityDate: maturity,
    upfrontInterest: fmt(upfrontInterest),
    upfrontFee: fmt(upfrontFee),
    totalInterest: fmt(interestSum),
    totalFee: fmt(upfrontFee.plus(itemFeeSum)),
  };
}

export interface DisbursedPlanInput {
  /** The financing amount. */
  principal: string;
  rule: PlanRule;
  /** The plan as signed (generatePlan's items, or a contract's saved plan), in period order. */
  items: readonly PlanItem[];
  /** 放款日: the day the money went out. */
  valueDate: string;
}

export interface DisbursedPlan {
  /** The plan with its first period from the value date; the same items when it already starts then. */
  items: PlanItem[];
  /** The first period starts on another day than the signed plan's. */
  changed: boolean;
  /** 前置 interest of that plan ("0.00" for BACK): every period's interest, the first from the value date. */
  upfrontInterest: string;
}

/**
 * The plan once the money went out on `valueDate` (docs/money-lifecycle.md "Interest starts on the
 * value date"): the signed due dates, principal parts and fees stay; the first period runs from the
 * value date and its interest is computed again on the whole principal by its day-count days (a
 * period shorter than the method's is priced as a broken period is; 计头又计尾's day when it is also
 * the last); the other items stay as they are. A value date on or after the first due date would
 * leave no first period: refused (the contract must be changed first).
 *
 * With 前置 interest the items keep 0.00 and `upfrontInterest` sums the periods' interest as
 * generatePlan would have computed them (the first from the value date): for a single period or
 * principal repaid at maturity that is principal × annualRate × days(value date → maturity) / basis.
 */
export function disbursedPlan(input: DisbursedPlanInput): DisbursedPlan {
  const { rule, items, valueDate } = input;
  checkRule(rule);
  const principal = amount('principal', '融资本金', input.principal);
  checkDate('valueDate', '放款日', valueDate);
  const n = items.length;
  const first = items[0];
  if (!first) throw new PlanInputError('items', '还款计划不能为空');
  if (valueDate >= first.dueDate) {
    throw new PlanInputError('valueDate', '放款日不能晚于或等于首期还款日，请先做合同变更');
  }
  const changed = valueDate !== first.startDate;
  const annualRate = new D(rule.annualRate);
  const basis = new D(yearBasis(rule.dayCount));
  const front = rule.interestCollection === 'FRONT';
  const annuity = rule.method === 'ANNUITY';
  const brokenLast = annuity && addMonths(first.startDate, n) !== items[n - 1]!.dueDate;
  const out: PlanItem[] = items.map((it) => ({ ...it }));
  if (changed) {
    const days =
      dayCountDays(rule.dayCount, valueDate, first.dueDate) + (n === 1 && rule.countBothEnds ? 1 : 0);
    const interest = front ? ZERO : cents(principal.times(annualRate).times(days).div(basis));
    out[0] = {
      ...first,
      startDate: valueDate,
      days,
      interest: fmt(interest),
      total: fmt(new D(first.principal).plus(interest).plus(first.fee)),
    };
  }
  let upfront = ZERO;
  if (front) {
    let balance = principal;
    out.forEach((it, k) => {
      const last = k === n - 1;
      const extraDay = last && rule.countBothEnds;
      // 等额本息 prices a whole month by its rate; a first period moved to the value date is broken.
      const byMonth = annuity && !(last && brokenLast) && !(k === 0 && changed);
      upfront = upfront.plus(periodInterest(balance, annualRate, basis, it.days, extraDay, byMonth));
      balance = balance.minus(it.principal);
    });
  }
  return { items: out, changed, upfrontInterest: fmt(upfront) };
}
