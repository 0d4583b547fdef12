import Decimal from 'decimal.js';
import { and, eq, sql } from 'drizzle-orm';
import { addDays, daysBetween } from '@portal/contract/plan/dates';
import { queryRows, type Tx } from '../../platform/db/client';
import type { Actor } from '../../platform/db/audit';
import type { Progress } from '../../platform/progress';
import { writtenOffBy } from '../contract';
import { interestSplit } from '../ledger';
import type { Aux } from './journal';
import { isClosed, postEvent, reverseDocument, type LinesWritten } from './service';
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

type ContractAmount = { amount: string; aux: Aux };

/**
 * 应收利息 at the end of month end E, per contract (docs/accounting.md "Month-end accrual"): the
 * ledger's accrued interest of E (interestSplit) — interest earned through E and not received, of
 * every item not more than 90 days past due — for each contract disbursed by E.
 */
export async function accruedInterest(tx: Tx, e: string): Promise<ContractAmount[]> {
  const rows = await queryRows<{ cust_code: string; cust_name: string; contract_no: string; amount: string }>(
    tx,
    sql`select c.cust_code, c.cust_name, c.contract_no, s.accrued::text as amount
          from ${interestSplit(
            sql`(select id from contracts where deleted_at is null and loan_state = 'loaned' and loan_date <= ${e}::date)`,
            e,
          )} as s join contracts c on c.id = s.contract_id
         where s.accrued > 0
         order by c.id`,
  );
  return rows.map((r) => ({
    amount: new Decimal(r.amount).toFixed(2),
    aux: { custCode: r.cust_code, custName: r.cust_name, contractNo: r.contract_no },
  }));
}

/**
 * 前置利息 to recognise at month end E, per contract (docs/accounting.md "预收利息"). What a contract
 * holds deferred is what was posted to the role deferredInterest by its disbursements, prepayments
 * and their reversals dated by E; what was recognised is what the 预收利息摊销 vouchers moved out of
 * it. By E the share earned is deferred × (E + 1 − 放款日) / (到期日 − 放款日) days (all of it from
 * the maturity on; none while the contract is not disbursed), rounded half-up; the month's
 * amount is that less what was recognised (negative when a reversal took the deferral back). A
 * contract whose 前置利息 went to income before this rule posted nothing deferred, so nothing of it
 * is recognised again. A 期初 voucher credits the 前置利息 received whole (deferred) and debits the
 * share the earlier books recognised before the import (counted as recognised), so the first
 * month end after an import recognises only the days since. A contract written off (核销坏账) by E
 * earns what it still holds deferred in full that month end, as at its maturity (docs/accounting.md
 * "Bad-debt write-off"); a 冲红 later takes the days not yet earned back, as a reversal does.
 */
export async function deferralDue(tx: Tx, e: string): Promise<ContractAmount[]> {
  const rows = await queryRows<{
    cust_code: string;
    cust_name: string;
    contract_no: string;
    loan_date: string | null;
    maturity_date: string;
    deferred: string;
    recognised: string;
    written_off: boolean;
  }>(
    tx,
    sql`with posted as (
          select l.contract_no,
                 coalesce(sum(case when v.doc_type = 'opening' then l.credit
                                   when v.doc_type <> 'deferral' then l.credit - l.debit end), 0) as deferred,
                 coalesce(sum(case when v.doc_type = 'opening' then l.debit
                                   when v.doc_type = 'deferral' then l.debit - l.credit end), 0) as recognised
            from voucher_lines l join vouchers v on v.id = l.voucher_id
           where l.role = 'deferredInterest' and l.contract_no is not null and v.voucher_date <= ${e}::date
           group by l.contract_no)
        select c.cust_code, c.cust_name, c.contract_no,
               case when c.loan_state = 'loaned' and c.loan_date <= ${e}::date
                    then to_char(c.loan_date, 'YYYY-MM-DD') end as loan_date,
               to_char(c.maturity_date, 'YYYY-MM-DD') as maturity_date,
               p.deferred::text, p.recognised::text,
               -- Written off (核销坏账) by E and not reversed by then: nothing more to earn over.
               ${writtenOffBy(sql`c.id`, e)} as written_off
          from posted p join contracts c on c.contract_no = p.contract_no and c.deleted_at is null
         order by c.id`,
  );
  const out: ContractAmount[] = [];
  for (const r of rows) {
    const deferred = new Decimal(r.deferred);
    let earned = new Decimal(0);
    if (r.written_off) earned = deferred;
    else if (r.loan_date !== null) {
      const span = daysBetween(r.loan_date, r.maturity_date);
      const days = Math.min(span, daysBetween(r.loan_date, addDays(e, 1)));
      earned =
        span <= 0 ? deferred : deferred.times(days).div(span).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
    }
    const amount = earned.minus(r.recognised);
    if (!amount.isZero())
      out.push({
        amount: amount.toFixed(2),
        aux: { custCode: r.cust_code, custName: r.cust_name, contractNo: r.contract_no },
      });
  }
  return out;
}

/** Whether a month's voucher of this kind was posted (the kind is then done for that month). */
async function posted(tx: Tx, docType: 'accrual' | 'deferral', period: string): Promise<boolean> {
  const [done] = await tx
    .select({ id: vouchers.id })
    .from(vouchers)
    .where(and(eq(vouchers.docType, docType), eq(vouchers.docCode, period)))
    .limit(1);
  return done !== undefined;
}

/**
 * The day-end's month-end work (called by bizdate inside the day-end's transaction, under its
 * advisory lock), for each month end from the one after the last done, up to the month end on or
 * before D (only that one when nothing was done yet):
 * - the accrual dated the month end and its reversal dated the next day (自动冲回), so the interest
 *   written off later goes to 利息收入 whole;
 * - the month's share of 前置利息 moved from 预收利息 to 利息收入, dated the month end.
 * Idempotent: a month already accrued (recognised) is not accrued (recognised) again. With
 * `progress`, each voucher's phase and its contracts done as its lines are written (a contract has
 * a debit and a credit line: lines written halved; docs/business-date.md "Progress").
 */
export async function accrueMonthEnds(tx: Tx, d: string, actor: Actor, progress?: Progress): Promise<number> {
  const target = monthEndOnOrBefore(d);
  const [last] = await queryRows<{ code: string | null }>(
    tx,
    sql`select max(doc_code) as code from vouchers where doc_type in ('accrual', 'deferral') and red_of is null`,
  );
  if (last?.code && last.code >= target.slice(0, 7)) return 0;
  // A gap of months is caught up month by month, from the one after the last done.
  let e = last?.code ? monthEnd(addDays(monthEnd(`${last.code}-01`), 1)) : target;
  let count = 0;
  for (; e <= target; e = monthEnd(addDays(e, 1))) {
    const period = e.slice(0, 7);
    // A closed month is final: its close ran whatever of this work was due (月结).
    if (await isClosed(tx, period)) continue;
    if (!(await posted(tx, 'accrual', period))) {
      await progress?.phase('accrual', 0, e);
      const lines = await accruedInterest(tx, e);
      if (lines.length > 0) {
        await postEvent(
          tx,
          { kind: 'accrual', period, date: e, contracts: lines },
          actor,
          await contractsOf(progress, 'accrual', lines.length, e),
        );
        await progress?.phase('reversal', 0, addDays(e, 1));
        await reverseDocument(
          tx,
          { docType: 'accrual', docCode: period },
          { docType: 'accrual', docCode: period, date: addDays(e, 1), summary: `冲回${period}计提利息` },
          actor,
          progress && ((n) => progress.wrote(n)),
        );
        count++;
      }
    }
    if (!(await posted(tx, 'deferral', period))) {
      await progress?.phase('deferral', 0, e);
      const lines = await deferralDue(tx, e);
      if (lines.length > 0) {
        await postEvent(
          tx,
          { kind: 'deferral', period, date: e, contracts: lines },
          actor,
          await contractsOf(progress, 'deferral', lines.length, e),
        );
        count++;
      }
    }
  }
  return count;
}

/** A month end's voucher being written: `total` contracts, two lines each (debit, credit). */
async function contractsOf(
  progress: Progress | undefined,
  phase: 'accrual' | 'deferral',
  total: number,
  e: string,
): Promise<LinesWritten | undefined> {
  if (!progress) return undefined;
  await progress.phase(phase, total, e);
  let lines = 0;
  return async (n) => {
    const before = Math.floor(lines / 2);
    lines += n;
    await progress.step(Math.floor(lines / 2) - before, n);
  };
}
