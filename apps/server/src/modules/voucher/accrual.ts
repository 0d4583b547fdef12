import Decimal from 'decimal.js';
import { and, desc, eq, gt, isNull, lte } from 'drizzle-orm';
import { addDays, daysBetween } from '@portal/contract/plan/dates';
import type { Tx } from '../../platform/db/client';
import type { Actor } from '../../platform/db/audit';
import { contractPlanItems, contracts } from '../contract/schema';
import type { Aux } from './journal';
import { postEvent, reverseDocument } from './service';
import { vouchers } from './schema';

/** The last day of a date's month. */
export function monthEnd(date: string): string {
  const [y, m] = date.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
}

/** The month end on or before a date: the date itself on a month's last day, else the previous one. */
export function monthEndOnOrBefore(date: string): string {
  return monthEnd(date) === date ? date : addDays(`${date.slice(0, 8)}01`, -1);
}

/**
 * Interest earned by the end of month end E and not yet due, per contract (docs/accounting.md
 * "Month-end accrual"): for each live plan item of a contract disbursed by E that started by E and
 * falls due after E, its interest × (E + 1 − start) / (due − start) calendar days, rounded half-up
 * to the cent, less what was already paid of its interest (never below 0).
 */
export async function accruedInterest(tx: Tx, e: string): Promise<{ amount: string; aux: Aux }[]> {
  const rows = await tx
    .select({
      contractId: contracts.id,
      custCode: contracts.custCode,
      custName: contracts.custName,
      contractNo: contracts.contractNo,
      startDate: contractPlanItems.startDate,
      dueDate: contractPlanItems.dueDate,
      interest: contractPlanItems.interest,
      interestPaid: contractPlanItems.interestPaid,
    })
    .from(contractPlanItems)
    .innerJoin(contracts, eq(contracts.id, contractPlanItems.contractId))
    .where(
      and(
        isNull(contracts.deletedAt),
        eq(contracts.loanState, 'loaned'),
        lte(contracts.loanDate, e),
        isNull(contractPlanItems.supersededBy),
        lte(contractPlanItems.startDate, e),
        gt(contractPlanItems.dueDate, e),
      ),
    )
    .orderBy(contracts.id, contractPlanItems.period);
  const byContract = new Map<number, { amount: Decimal; aux: Aux }>();
  for (const r of rows) {
    const span = daysBetween(r.startDate, r.dueDate);
    if (span <= 0) continue;
    const earned = new Decimal(r.interest)
      .times(daysBetween(r.startDate, addDays(e, 1)))
      .div(span)
      .toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
    const open = Decimal.max(0, earned.minus(r.interestPaid));
    const c = byContract.get(r.contractId) ?? {
      amount: new Decimal(0),
      aux: { custCode: r.custCode, custName: r.custName, contractNo: r.contractNo },
    };
    c.amount = c.amount.plus(open);
    byContract.set(r.contractId, c);
  }
  return [...byContract.values()]
    .filter((c) => c.amount.gt(0))
    .map((c) => ({ amount: c.amount.toFixed(2), aux: c.aux }));
}

/**
 * The day-end's month-end accrual (called by bizdate inside the day-end's transaction, under its
 * advisory lock): for each month end from the one after the last accrued, up to the month end on
 * or before D (only that one when nothing was accrued yet), posts the accrual dated the month end
 * and its reversal dated the next day (自动冲回), so the interest written off later goes to 利息收入
 * whole. Idempotent: a month already accrued is not accrued again.
 */
export async function accrueMonthEnds(tx: Tx, d: string, actor: Actor): Promise<number> {
  const target = monthEndOnOrBefore(d);
  const [last] = await tx
    .select({ code: vouchers.docCode })
    .from(vouchers)
    .where(and(eq(vouchers.docType, 'accrual'), isNull(vouchers.redOf)))
    .orderBy(desc(vouchers.docCode))
    .limit(1);
  if (last && last.code >= target.slice(0, 7)) return 0;
  // A gap of months is caught up month by month, from the one after the last accrued.
  let e = last ? monthEnd(addDays(monthEnd(`${last.code}-01`), 1)) : target;
  let posted = 0;
  for (; e <= target; e = monthEnd(addDays(e, 1))) {
    const period = e.slice(0, 7);
    const [done] = await tx
      .select({ id: vouchers.id })
      .from(vouchers)
      .where(and(eq(vouchers.docType, 'accrual'), eq(vouchers.docCode, period)))
      .limit(1);
    if (done) continue;
    const lines = await accruedInterest(tx, e);
    if (lines.length === 0) continue;
    await postEvent(tx, { kind: 'accrual', period, date: e, contracts: lines }, actor);
    await reverseDocument(
      tx,
      { docType: 'accrual', docCode: period },
      { docType: 'accrual', docCode: period, date: addDays(e, 1), summary: `冲回${period}计提利息` },
      actor,
    );
    posted++;
  }
  return posted;
}
