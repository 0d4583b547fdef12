import Decimal from 'decimal.js';
import {
  COMPONENT_LABELS,
  type Component,
  type OpenPlanItem,
  type PaidLineInput,
  type PaidSuggestion,
} from '@portal/contract/accounts';
import { allocate } from '@portal/contract/plan/allocate';
import { settlementQuote } from '@portal/contract/plan/accrual';
import { PlanInputError } from '@portal/contract/plan/money';
import type { ItemPayment } from '@portal/contract/plan/accrual';
import type { InterestRuleCalc } from '@portal/contract/plan/rule';
import { badInput, conflict } from '../../platform/errors';
import type { ItemRow } from '../contract';
import { formatYuan } from '@portal/contract/format';

/** One line per (item, component), amounts > 0. */
export interface Line {
  itemId: number;
  component: Component;
  amount: string;
}

export interface Waiver {
  itemId: number;
  component: 'INTEREST' | 'FEE';
  amount: string;
}

export interface Totals {
  amount: Decimal;
  principal: Decimal;
}

const key = (l: { itemId: number; component: string }) => `${l.itemId}/${l.component}`;

/**
 * Checks lines against what is open (the same check at save and again inside the approval's
 * transaction): each names an open item of the contract, once per component, and takes no more
 * than that component's outstanding (penalty: accrued to the date, less paid).
 */
export function checkLines(
  lines: readonly PaidLineInput[] | readonly Line[],
  open: readonly OpenPlanItem[],
  approving?: { items: readonly ItemRow[] },
): Totals {
  const byId = new Map(open.map((o) => [o.itemId, o]));
  const seen = new Set<string>();
  let amount = new Decimal(0);
  let principal = new Decimal(0);
  // At approval a line that no longer fits means the plan moved since the write-off was saved:
  // 409, naming the item and what it owes now (docs/protocol.md "Versions and optimistic locking": the record changed since it was read).
  const changed = (what: string) => conflict(`核销保存后还款计划已变更：${what}，请重新生成核销明细`);
  for (const l of lines) {
    const item = byId.get(l.itemId);
    if (!item) {
      const period = approving?.items.find((i) => i.id === l.itemId)?.period;
      if (period !== undefined) throw changed(`第${period}期已结清`);
      throw badInput('核销明细中的期次不属于该合同的还款计划或已结清');
    }
    const label = `第${item.period}期${COMPONENT_LABELS[l.component]}`;
    if (seen.has(key(l))) throw badInput(`核销明细重复：${label}`);
    seen.add(key(l));
    const v = new Decimal(l.amount);
    if (v.lte(0)) throw badInput(`${label}核销金额必须大于0`);
    if (v.gt(item.open[l.component])) {
      const now = formatYuan(item.open[l.component]);
      if (approving) throw changed(`${label}现待还 ${now}，少于核销金额 ${formatYuan(v)}`);
      throw conflict(`${label}核销金额 ${formatYuan(v)} 超过待还金额 ${now}`);
    }
    amount = amount.plus(v);
    if (l.component === 'PRINCIPAL') principal = principal.plus(v);
  }
  return { amount, principal };
}

/** The allocation the rule's order gives for `amount` on `date`. */
export function ruleAllocation(
  open: readonly OpenPlanItem[],
  amount: string,
  date: string,
  rule: InterestRuleCalc,
) {
  return allocate({
    amount,
    valueDate: date,
    items: open.map((o) => ({ id: o.itemId, period: o.period, dueDate: o.dueDate, open: o.open })),
    dueOrder: rule.allocationOrder,
    inAdvanceOrder: rule.inAdvanceOrder,
  });
}

/** A normal write-off's lines must be exactly the rule's allocation of their total. */
export function requireRuleOrder(
  lines: readonly Line[],
  open: readonly OpenPlanItem[],
  date: string,
  rule: InterestRuleCalc,
) {
  const total = lines.reduce((s, l) => s.plus(l.amount), new Decimal(0)).toFixed(2);
  const expected = ruleAllocation(open, total, date, rule).lines;
  const norm = (ls: readonly { itemId: number; component: string; amount: string }[]) =>
    ls
      .map((l) => `${key(l)}=${new Decimal(l.amount).toFixed(2)}`)
      .sort()
      .join(',');
  if (norm(lines) !== norm(expected))
    throw badInput('正常核销须按计息规则的还款顺序分配，如需调整请选择手工分配');
}

/** Early settlement on `date`: the lines that settle every item, and the interest and fee it gives up. */
export function settlementLines(
  items: readonly ItemRow[],
  payments: readonly ItemPayment[],
  date: string,
  rule: InterestRuleCalc,
): { lines: Line[]; waivers: Waiver[]; total: string; interestWaived: string; feeWaived: string } {
  let quote;
  try {
    quote = settlementQuote(
      items.map((i) => ({
        period: i.period,
        startDate: i.startDate,
        dueDate: i.dueDate,
        principal: i.principal,
        interest: i.interest,
        fee: i.fee,
        penalty: i.penalty,
      })),
      payments,
      date,
      rule,
    );
  } catch (err) {
    if (err instanceof PlanInputError) throw badInput(err.message);
    throw err;
  }
  const idOf = new Map(items.map((i) => [i.period, i.id]));
  const lines: Line[] = [];
  const waivers: Waiver[] = [];
  let interestWaived = new Decimal(0);
  let feeWaived = new Decimal(0);
  for (const q of quote.lines) {
    const itemId = idOf.get(q.period)!;
    for (const [component, amount] of [
      ['PENALTY', q.penalty],
      ['INTEREST', q.interest],
      ['FEE', q.fee],
      ['PRINCIPAL', q.principal],
    ] as const) {
      if (new Decimal(amount).gt(0)) lines.push({ itemId, component, amount });
    }
    if (new Decimal(q.interestWaived).gt(0))
      waivers.push({ itemId, component: 'INTEREST', amount: q.interestWaived });
    if (new Decimal(q.feeWaived).gt(0)) waivers.push({ itemId, component: 'FEE', amount: q.feeWaived });
    interestWaived = interestWaived.plus(q.interestWaived);
    feeWaived = feeWaived.plus(q.feeWaived);
  }
  return {
    lines,
    waivers,
    total: quote.total,
    interestWaived: interestWaived.toFixed(2),
    feeWaived: feeWaived.toFixed(2),
  };
}

/** Lines with each item's period and due date, for the screens. */
export function describeLines(lines: readonly Line[], items: readonly ItemRow[]): PaidSuggestion['lines'] {
  const byId = new Map(items.map((i) => [i.id, i]));
  return lines.map((l) => ({
    itemId: l.itemId,
    period: byId.get(l.itemId)?.period ?? 0,
    dueDate: byId.get(l.itemId)?.dueDate ?? '',
    component: l.component,
    amount: new Decimal(l.amount).toFixed(2),
  }));
}
