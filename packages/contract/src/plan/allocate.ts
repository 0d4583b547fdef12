import { amount, D, type Dec, fmt, PlanInputError, ZERO } from './money';
import { COMPONENTS, type Component } from './rule';

/**
 * The allocation of a payment over a contract's plan (来款核销, docs/money-rules.md "Allocating a payment"):
 * items due on or before the value date first, oldest first, each by `dueOrder` (default 罚息 → 利息 → 费用 → 本金);
 * then items not yet due, oldest first, each by `inAdvanceOrder` (default principal first, Apache Fineract's
 * "in advance principal-penalty-fee-interest"). Item by item: an item is served completely before the next
 * one. What the amount does not cover stays unallocated.
 */

export interface OpenItem {
  /** The caller's key for the item (the plan item id). */
  id: number;
  period: number;
  dueDate: string;
  /** Outstanding per component as of the value date (penalty accrued to it). */
  open: Readonly<Record<Component, string>>;
}

export interface AllocationLine {
  itemId: number;
  period: number;
  component: Component;
  amount: string;
}

export interface Allocation {
  lines: AllocationLine[];
  allocated: string;
  unallocated: string;
}

function checkOrder(field: string, order: readonly Component[]): void {
  if (order.length !== COMPONENTS.length || COMPONENTS.some((c) => !order.includes(c))) {
    throw new PlanInputError(field, '分配顺序必须恰好包含罚息、利息、费用、本金各一次');
  }
}

export function allocate(input: {
  amount: string;
  valueDate: string;
  items: readonly OpenItem[];
  dueOrder: readonly Component[];
  inAdvanceOrder: readonly Component[];
}): Allocation {
  checkOrder('dueOrder', input.dueOrder);
  checkOrder('inAdvanceOrder', input.inAdvanceOrder);
  const total = amount('amount', '核销金额', input.amount);
  let left: Dec = total;
  const byAge = [...input.items].sort((a, b) =>
    a.dueDate === b.dueDate ? a.period - b.period : a.dueDate < b.dueDate ? -1 : 1,
  );
  const due = byAge.filter((i) => i.dueDate <= input.valueDate);
  const later = byAge.filter((i) => i.dueDate > input.valueDate);
  const lines: AllocationLine[] = [];
  const serve = (items: readonly OpenItem[], order: readonly Component[]) => {
    for (const item of items) {
      for (const component of order) {
        if (left.isZero()) return;
        const open = amount(`items(${item.period}).${component}`, '待还金额', item.open[component]);
        const take = D.min(open, left);
        if (take.isZero()) continue;
        lines.push({ itemId: item.id, period: item.period, component, amount: fmt(take) });
        left = left.minus(take);
      }
    }
  };
  serve(due, input.dueOrder);
  serve(later, input.inAdvanceOrder);
  return { lines, allocated: fmt(total.minus(left)), unallocated: fmt(left) };
}

/** Σ of the lines' amounts. */
export function linesTotal(lines: readonly { amount: string }[]): string {
  return fmt(lines.reduce((s, l) => s.plus(l.amount), ZERO));
}
