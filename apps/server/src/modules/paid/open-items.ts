import Decimal from 'decimal.js';
import { and, asc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { OpenPlanItem } from '@portal/contract/accounts';
import { accrueItem, type ItemPayment } from '@portal/contract/plan/accrual';
import { fromDayNumber, toDayNumber } from '@portal/contract/plan/dates';
import { interestRuleCalc, type Component, type InterestRuleCalc } from '@portal/contract/plan/rule';
import type { Executor, Tx } from '../../platform/db/client';
import { conflict } from '../../platform/errors';
import { contractPlanItems, type contracts } from '../contract/schema';
import { paidLines, paids } from './schema';

type ContractRow = typeof contracts.$inferSelect;
export type ItemRow = typeof contractPlanItems.$inferSelect;

/** The rule the contract's plan follows (frozen at approval). */
export function contractRule(contract: ContractRow): InterestRuleCalc {
  if (!contract.ruleSnapshot) throw conflict('合同尚无计息规则快照，不能核销');
  return interestRuleCalc.parse(contract.ruleSnapshot);
}

/** The live plan items, locked when `lock` (a posting's transaction). */
export async function planItems(ex: Executor | Tx, contractId: number, lock = false): Promise<ItemRow[]> {
  const q = ex
    .select()
    .from(contractPlanItems)
    .where(and(eq(contractPlanItems.contractId, contractId), isNull(contractPlanItems.supersededBy)))
    .orderBy(asc(contractPlanItems.period));
  return lock ? q.for('update') : q;
}

/**
 * The dated payments to these items: the lines of approved write-offs not reversed, each on its
 * write-off's date (penalty depends on when principal came in), plus those of `posting` (the
 * write-off being approved, whose state changes only after its approval hook).
 */
export async function paymentsOf(
  ex: Executor,
  items: readonly ItemRow[],
  posting?: number,
): Promise<ItemPayment[]> {
  if (items.length === 0) return [];
  const period = new Map(items.map((i) => [i.id, i.period]));
  const rows = await ex
    .select({
      itemId: paidLines.planItemId,
      component: paidLines.component,
      amount: paidLines.amount,
      date: paids.paidDate,
    })
    .from(paidLines)
    .innerJoin(paids, eq(paids.id, paidLines.paidId))
    .where(
      and(
        inArray(
          paidLines.planItemId,
          items.map((i) => i.id),
        ),
        posting === undefined
          ? eq(paids.state, 'approved')
          : or(eq(paids.state, 'approved'), eq(paids.id, posting)),
        eq(paids.red, false),
        isNull(paids.deletedAt),
      ),
    );
  const key: Record<string, keyof ItemPayment> = {
    PRINCIPAL: 'principal',
    INTEREST: 'interest',
    FEE: 'fee',
    PENALTY: 'penalty',
  };
  return rows.map((r) => ({
    period: period.get(r.itemId)!,
    valueDate: r.date,
    [key[r.component]!]: r.amount,
  }));
}

const ZERO = '0.00';

/**
 * Each item as of a payment dated `date`: principal, interest and fee outstanding (due − paid),
 * and the penalty payable — accrued through date − 1 (a payment stops accrual on its value date
 * for what it covers) less the penalty paid so far. Items with nothing open are left out unless
 * `all`.
 */
export function openAsOf(
  items: readonly ItemRow[],
  payments: readonly ItemPayment[],
  date: string,
  rule: InterestRuleCalc,
  all = false,
): OpenPlanItem[] {
  const dayBefore = fromDayNumber(toDayNumber(date) - 1);
  const out: OpenPlanItem[] = [];
  for (const it of items) {
    const mine = payments.filter((p) => p.period === it.period);
    const item = {
      dueDate: it.dueDate,
      principal: it.principal,
      interest: it.interest,
      fee: it.fee,
      penalty: it.penalty,
    };
    const now = accrueItem({ item, payments: mine, asOf: date, rule });
    const before = accrueItem({
      item,
      payments: mine.filter((p) => p.valueDate < date),
      asOf: dayBefore,
      rule,
    });
    const penaltyPaid = mine.reduce((s, p) => s.plus(p.penalty ?? ZERO), new Decimal(0));
    const penaltyOpen = Decimal.max(0, new Decimal(before.penaltyAccrued).minus(penaltyPaid));
    const open: Record<Component, string> = {
      PENALTY: penaltyOpen.toFixed(2),
      INTEREST: now.interestOutstanding,
      FEE: now.feeOutstanding,
      PRINCIPAL: now.principalOutstanding,
    };
    const openTotal = Object.values(open).reduce((s, v) => s.plus(v), new Decimal(0));
    if (!all && openTotal.isZero()) continue;
    out.push({
      itemId: it.id,
      period: it.period,
      dueDate: it.dueDate,
      status: now.status,
      overdueDays: now.overdueDays,
      principal: it.principal,
      interest: it.interest,
      fee: it.fee,
      penaltyAccrued: before.penaltyAccrued,
      open,
      openTotal: openTotal.toFixed(2),
    });
  }
  return out;
}

/** The date of the latest posting on the contract: a new write-off may not be dated before it. */
export async function lastPostingDate(ex: Executor, contractId: number): Promise<string | null> {
  const [row] = await ex
    .select({ d: sql<string>`max(${paids.paidDate})::text` })
    .from(paids)
    .where(
      and(
        eq(paids.contractId, contractId),
        eq(paids.state, 'approved'),
        eq(paids.red, false),
        isNull(paids.deletedAt),
      ),
    );
  return row?.d ?? null;
}
