import Decimal from 'decimal.js';
import { sql, type SQL } from 'drizzle-orm';
import {
  AGING_BUCKETS,
  type AgingBucket,
  type AgingRow,
  type PortfolioFigures,
  type TrendPoint,
} from '@portal/contract/dashboard';
import { queryRows, type Executor } from '../../platform/db/client';
import type { ScopeUser } from '../../platform/auth/data-scope';
import { scopeOf } from '../contract';
import { overdueItems, type OverdueItem } from '../contract';
import { interestSplit } from '../ledger';

/* The dashboard's figures, computed from the contracts, plan items, incomings and write-offs the
 * user may see; routes.ts only wires them to their calls through the cache. */

const fmt = (v: string | null) => new Decimal(v ?? 0).toFixed(2);

/**
 * 履约中 contracts the user may see, with their open balances (kept by the database): disbursed
 * ones only, since 在贷本金 and every balance count money that went out (docs/money-lifecycle.md).
 */
function liveContracts(user: ScopeUser): SQL {
  return sql`(select contracts.id, contracts.grace_days, contracts.principal_open, contracts.interest_open,
                     contracts.fee_open
                from contracts where contracts.deleted_at is null and contracts.status = 'effective'
                 and contracts.loan_state = 'loaned' and ${scopeOf(user)})`;
}

/** Items still owed principal, interest or fee and due from `from` to `until`, of those contracts. */
function openItemsDue(user: ScopeUser, from: SQL, until: SQL): SQL {
  return sql`(select i.contract_id, i.due_date,
                     i.principal + i.interest + i.fee - i.principal_paid - i.interest_paid - i.fee_paid as open
                from contract_plan_items i join ${liveContracts(user)} as c on c.id = i.contract_id
               where i.superseded_by is null
                 and (i.principal_paid < i.principal or i.interest_paid < i.interest or i.fee_paid < i.fee)
                 and i.due_date between ${from} and ${until})`;
}

/** The overdue items of the contracts the user may see, as of `asOf` (contract/overdue.ts). */
export function overdueItemsOf(ex: Executor, user: ScopeUser, asOf: string): Promise<OverdueItem[]> {
  return overdueItems(ex, liveContracts(user), asOf);
}

const sum = (rows: readonly OverdueItem[], pick: (r: OverdueItem) => string) =>
  rows.reduce((s, r) => s.plus(pick(r)), new Decimal(0)).toFixed(2);

export async function portfolio(
  ex: Executor,
  user: ScopeUser,
  asOf: string,
  overdue: readonly OverdueItem[],
): Promise<PortfolioFigures> {
  const d = sql`${asOf}::date`;
  const [r] = await queryRows<Record<string, string | number | null>>(
    ex,
    sql`with totals as (
          select count(*)::int as contracts, sum(principal_open)::text as principal,
                 sum(interest_open)::text as interest, sum(fee_open)::text as fee
            from ${liveContracts(user)} as c),
        items as ${openItemsDue(user, d, sql`${d} + 30`)},
        split as (select sum(accrued) as accrued, sum(off_balance) as off_balance
                    from ${interestSplit(sql`(select c.id from ${liveContracts(user)} as c)`, asOf)} as s)
        select totals.*, (select accrued from split)::text as interest_accrued,
               (select off_balance from split)::text as interest_off,
               (select sum(open) from items where due_date <= ${d} + 7)::text as due7,
               (select count(*) from items where due_date <= ${d} + 7)::int as due7_count,
               (select sum(open) from items)::text as due30,
               (select count(*) from items)::int as due30_count
          from totals`,
  );
  const interest = (k: string) => new Decimal((r![k] as string | null) ?? 0);
  return {
    asOf,
    contractCount: Number(r!.contracts ?? 0),
    outstandingPrincipal: fmt(r!.principal as string | null),
    interestReceivable: fmt(r!.interest_accrued as string | null),
    // The open interest not earned yet nor off the books (docs/accounting.md).
    interestNotDue: interest('interest')
      .minus(interest('interest_accrued'))
      .minus(interest('interest_off'))
      .toFixed(2),
    interestOffBalance: fmt(r!.interest_off as string | null),
    feeReceivable: fmt(r!.fee as string | null),
    due7: fmt(r!.due7 as string | null),
    due7Count: Number(r!.due7_count ?? 0),
    due30: fmt(r!.due30 as string | null),
    due30Count: Number(r!.due30_count ?? 0),
    overdueAmount: sum(overdue, (o) => o.open),
    overduePenalty: sum(overdue, (o) => o.penalty),
    overdueCount: overdue.length,
    overdueContracts: new Set(overdue.map((o) => o.contractId)).size,
  };
}

/** Overdue items by days past the due date (the same items and figures as the portfolio's). */
export function aging(overdue: readonly OverdueItem[]): AgingRow[] {
  const bucketOf = (days: number): AgingBucket =>
    days <= 30 ? '1-30' : days <= 60 ? '31-60' : days <= 90 ? '61-90' : '90+';
  return AGING_BUCKETS.map((bucket) => {
    const rows = overdue.filter((o) => bucketOf(o.overdueDays) === bucket);
    return { bucket, amount: sum(rows, (o) => o.open), count: rows.length };
  });
}

/**
 * Per month: incoming payments (every approved one: incomings are the finance office's, not a
 * contract owner's), the write-offs of contracts the user may see (reversed ones left out), and
 * new financing: the principal of the 放款单 in force by value date, a reversed one never counting
 * (docs/ledger.md "As posted on a date"), with their number.
 */
export async function trend(
  ex: Executor,
  user: ScopeUser,
  asOf: string,
  months: number,
): Promise<TrendPoint[]> {
  const rows = await queryRows<{
    month: string;
    incoming: string;
    written: string;
    financed: string;
    contracts: number;
  }>(
    ex,
    sql`with m as (
          select d::date as first, to_char(d, 'YYYY-MM') as month
            from generate_series(date_trunc('month', ${asOf}::date) - (${months - 1} * interval '1 month'),
                                 date_trunc('month', ${asOf}::date), interval '1 month') as d),
        f as (select date_trunc('month', l.value_date)::date as first, sum(l.financing_amount) as v, count(*) as n
                from loans l join contracts on contracts.id = l.contract_id
               where l.deleted_at is null and l.state = 'approved' and l.red_state = 'none' and contracts.deleted_at is null
                 and l.value_date >= (select min(first) from m) and ${scopeOf(user)}
               group by 1),
        i as (select date_trunc('month', value_date)::date as first, sum(amount) as v
                from incomes
               where deleted_at is null and state = 'approved' and value_date >= (select min(first) from m)
               group by 1),
        w as (select date_trunc('month', p.paid_date)::date as first, sum(p.amount) as v
                from paids p join contracts on contracts.id = p.contract_id
               where p.deleted_at is null and p.state = 'approved' and not p.red and p.kind <> 'badDebt'
                 and p.paid_date >= (select min(first) from m) and ${scopeOf(user)}
               group by 1)
        select m.month, coalesce(i.v, 0)::text as incoming, coalesce(w.v, 0)::text as written,
               coalesce(f.v, 0)::text as financed, coalesce(f.n, 0)::int as contracts
          from m left join f on f.first = m.first left join i on i.first = m.first left join w on w.first = m.first
         order by m.month`,
  );
  return rows.map((r) => ({
    month: r.month,
    incoming: fmt(r.incoming),
    writtenOff: fmt(r.written),
    financed: fmt(r.financed),
    contracts: Number(r.contracts),
  }));
}
