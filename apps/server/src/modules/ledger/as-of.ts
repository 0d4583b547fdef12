import Decimal from 'decimal.js';
import { sql, type SQL } from 'drizzle-orm';
import { interestRuleCalc, type InterestRuleCalc } from '@portal/contract/plan/rule';
import { addDays } from '@portal/contract/plan/dates';
import { queryRows, type Executor } from '../../platform/db/client';
import { itemAsOf, itemPayment } from '../contract';

/*
 * The figures of contracts as they stood at the end of a date (docs/ledger.md "As posted on a
 * date"), as SQL row sources and one reader: the write-off lines posted by then, the corrections
 * of the stored balances, the open interest split as the books hold it, the overdue figures. The
 * ledger, its statements, the dashboard and the month-end read them.
 */

/**
 * The write-off lines posted as of the end of `asOf` (docs/ledger.md "As posted on a date"): approved
 * write-offs dated on or before it whose reversal, if any, is dated after it. A reversal dated on
 * or before `asOf` takes its write-off out; one dated later leaves it in, as it stood that day.
 */
export function postedLines(asOf: string, narrow: SQL = sql`true`): SQL {
  return sql`(select l.plan_item_id, l.component, l.amount, p.paid_date, p.contract_id
                from paid_lines l join paids p on p.id = l.paid_id
               where ${narrow} and p.deleted_at is null and p.state = 'approved' and p.paid_date <= ${asOf}::date
                 and not exists (select 1 from paid_reds r
                                  where r.paid_id = p.id and r.deleted_at is null and r.state = 'approved'
                                    and r.red_date <= ${asOf}::date))`;
}

/**
 * The lines of the write-off `p`, read through their (paid_id, …) key. `offset 0` keeps the
 * planner from flattening it into a join: it would then estimate the write-offs dated after a past
 * date at a few thousand and hash-join them against a scan of every line (1.5 million at 100,000
 * contracts) instead of reading their own lines (bench/README.md).
 */
const linesOf = (p: string) =>
  sql`(select l.plan_item_id, l.component, l.amount from paid_lines l where l.paid_id = ${sql.raw(p)}.id offset 0)`;

/**
 * What a plan item's paid columns (principal_paid, interest_paid, fee_paid: the write-offs posted
 * now) must be corrected by to read as of the end of `asOf` (docs/ledger.md "As posted on a date"): minus the
 * lines of write-offs dated after it that stand now, plus the lines of write-offs dated by then
 * whose reversal is dated after it. Both sets are the write-offs of the days after `asOf`, so for
 * today's ledger they are empty and the 1.5 million lines of a large portfolio are never read.
 * One row per item, the corrections of principal, interest and fee as p, i, f.
 */
export function paidCorrections(asOf: string): SQL {
  return sql`(select plan_item_id,
                     coalesce(sum(amount) filter (where component = 'PRINCIPAL'), 0) as p,
                     coalesce(sum(amount) filter (where component = 'INTEREST'), 0) as i,
                     coalesce(sum(amount) filter (where component = 'FEE'), 0) as f
                from (select l.plan_item_id, l.component, -l.amount as amount
                        from paids p cross join lateral ${linesOf('p')} as l
                       where p.deleted_at is null and p.state = 'approved' and p.paid_date > ${asOf}::date
                         and not exists (select 1 from paid_reds r where r.paid_id = p.id and r.deleted_at is null
                                            and r.state = 'approved')
                      union all
                      select l.plan_item_id, l.component, l.amount
                        from paid_reds r join paids p on p.id = r.paid_id cross join lateral ${linesOf('p')} as l
                       where r.deleted_at is null and r.state = 'approved' and r.red_date > ${asOf}::date
                         and p.deleted_at is null and p.state = 'approved' and p.paid_date <= ${asOf}::date) as moved
               group by plan_item_id)`;
}

/**
 * paidCorrections summed per contract over its live items: what the contract's stored balances
 * (principal_open, interest_open, fee_open: Σ due − paid over its live items, kept by every posting
 * in its transaction, migration 0008) must be corrected by to read as of `asOf`. Empty on the
 * business date, so the ledger's balances are one read of the contract row.
 */
export function contractCorrections(asOf: string): SQL {
  return sql`(select i.contract_id, sum(c.p) as p, sum(c.i) as i, sum(c.f) as f
                from ${paidCorrections(asOf)} as c join contract_plan_items i on i.id = c.plan_item_id
               where i.superseded_by is null
               group by i.contract_id)`;
}

/**
 * Each contract's 本金余额 as of the end of `asOf`, as the ledger shows it (its stored balance less
 * the postings dated after it), for the contracts disbursed by then: row source (contract_id,
 * p_open). The month-end provisioning reads it (docs/accounting.md "Provisioning").
 */
export function principalOpenAsOf(asOf: string): SQL {
  return sql`(select c.id as contract_id, c.principal_open - coalesce(cc.p, 0) as p_open
                from contracts c left join ${contractCorrections(asOf)} as cc on cc.contract_id = c.id
               where c.deleted_at is null and c.loan_state = 'loaned' and c.loan_date <= ${asOf}::date)`;
}

/** A slice of the contracts by id, for the export's batches. */
interface IdRange {
  after: number;
  upTo: number;
}

/** The contracts an export batch (a range of ids) or a page (its rows' ids) computes. */
export type Slice = IdRange | { ids: readonly number[] };

export function inSlice(column: string, s: Slice): SQL {
  const c = sql.raw(column);
  if ('ids' in s) return sql`${c} = any(string_to_array(${s.ids.join(',')}, ',')::bigint[])`;
  return sql`${c} > ${s.after} and ${c} <= ${s.upTo}`;
}

/** A plan item still owing principal, interest or fee now (the open-items index's predicate). */
const OWING = (alias: string) => {
  const a = sql.raw(alias);
  return sql`(${a}.principal_paid < ${a}.principal or ${a}.interest_paid < ${a}.interest or ${a}.fee_paid < ${a}.fee)`;
};

/**
 * The columns of a plan item the overdue figures read: all of them in the open-items index
 * (migration 0062), so the items still owing come from an index-only scan rather than from the
 * table (the planner cannot estimate OWING and read the whole table otherwise).
 */
const ITEM_COLUMNS =
  sql.raw(`i.id, i.contract_id, i.period, i.due_date, i.principal, i.interest, i.fee, i.penalty,
  i.principal_paid, i.interest_paid, i.fee_paid`);

/** Disbursed as of the end of `asOf`: the 放款单 in force is dated on or before it. */
export const disbursedBy = (alias: string, asOf: string) =>
  sql`(${sql.raw(alias)}.loan_state = 'loaned' and ${sql.raw(alias)}.loan_date <= ${asOf}::date)`;

/** Past this many days after its due date an item's open interest is off the books (表外). */
const OFF_BALANCE_DAYS = 90;

/**
 * The open interest of contracts as of the end of `asOf`, split as the books hold it
 * (docs/accounting.md "Interest on the books"), one row per contract with open interest:
 * - `accrued` (应收利息): of each started item not more than OFF_BALANCE_DAYS past due, the
 *   interest earned through `asOf` — all of it once due, else interest × (asOf + 1 − start) /
 *   (due − start) days rounded half-up to the cent — less the interest received, never below 0;
 * - `off_balance` (表外利息): the open interest of items more than OFF_BALANCE_DAYS past due, whose
 *   accrual was reversed and stopped until it is paid.
 * The rest of the open interest is 未到期利息. Received means written off as of `asOf`
 * (paidCorrections). `ids` is a row source of the contracts' ids (column `id`). The ledger, the
 * dashboard and the month-end accrual all read it.
 */
export function interestSplit(
  ids: SQL,
  asOf: string,
  /** The slice of contracts `ids` is narrowed to (an export batch, a page's rows), if any. */
  slice?: Slice,
): SQL {
  const d = sql`${asOf}::date`;
  // A slice's items are read through the contract index; without it the open-interest index,
  // which holds every contract's, would be scanned whole for each batch of an export.
  const ofSlice = slice ? inSlice('i.contract_id', slice) : sql`true`;
  const off = sql`${d} - it.due_date > ${OFF_BALANCE_DAYS}`;
  const earned = sql`case when i.due_date <= ${d} then i.interest
                          else round(i.interest * (${d} + 1 - i.start_date) / (i.due_date - i.start_date), 2)
                     end as earned`;
  // The items read: those owing interest now, found by their start date in a partial index of
  // the open-interest items (migration 0062), not every item of every contract; and the items a
  // posting after asOf changed (paidCorrections: none on the business date), which may owe
  // interest then though they owe none now.
  return sql`(with ic as materialized ${paidCorrections(asOf)}
              select it.contract_id,
                     sum(case when ${off} then 0 else greatest(0, least(it.interest, it.earned) - it.ip) end) as accrued,
                     sum(case when ${off} then it.interest - it.ip else 0 end) as off_balance
                from (select i.contract_id, i.due_date, i.interest, i.interest_paid + ic.i as ip, ${earned}
                        from ic join contract_plan_items i on i.id = ic.plan_item_id
                       where ${ofSlice} and i.contract_id in ${ids} and i.superseded_by is null and i.start_date <= ${d}
                      union all
                      select i.contract_id, i.due_date, i.interest, i.interest_paid as ip, ${earned}
                        from contract_plan_items i
                       where i.superseded_by is null and i.interest_paid < i.interest and i.start_date <= ${d}
                         and ${ofSlice} and i.contract_id in ${ids}
                         and not exists (select 1 from ic where ic.plan_item_id = i.id)) as it
               where it.ip < it.interest
               group by it.contract_id)`;
}

export interface OverdueFigures {
  contractId: number;
  days: number;
  open: string;
  penalty: string;
}

/** A candidate with posted lines as of the date: accrued by itemAsOf in Node. */
interface Candidate {
  contract_id: number;
  period: number | null;
  due_date: string;
  principal: string;
  interest: string;
  fee: string;
  penalty: string;
  rule_snapshot: unknown;
  payments: { component: string; amount: string; date: string }[] | null;
  /** Set instead of the item's columns on a row that sums a contract's candidates without lines. */
  s_days: number | null;
  s_open: string | null;
  s_penalty: string | null;
}

/**
 * itemAsOf of an item nothing was posted to as of `d` (docs/ledger.md "Overdue"), in SQL: with no
 * payment, accrueItem's figures are closed forms over the item and its rule. It is overdue when
 * anything is owed and `d` is past the grace days; it owes principal + interest + fee, and the
 * penalty accrued through `d`: the item's assessed penalty plus cents(principal × days × daily
 * rate), days counted from the day after the grace period through `d` (no payment moves the
 * principal). The daily rate is the fixed one (DAILY) or annualRate × multiple / basis (MULTIPLE;
 * 365 for ACT/365, else 360), divided at 40 decimals then rounded half-up to cents like decimal.js:
 * rates have at most 8 decimals, so the quotient is either a half cent exactly or far from one.
 * `c` is the candidate (its item columns and rule_snapshot); columns `late_days`, `accrued`.
 */
export function unpaidAccrual(c: string, d: SQL): SQL {
  const a = sql.raw(c);
  const days = sql`(${d} - ${a}.due_date - (${a}.rule_snapshot ->> 'graceDays')::int)`;
  const pd = sql`(${a}.principal * ${days})`;
  const rate = sql`(case when ${a}.rule_snapshot -> 'penalty' ->> 'mode' = 'DAILY'
                        then (${a}.rule_snapshot -> 'penalty' ->> 'value')::numeric
                        else ((${a}.rule_snapshot ->> 'annualRate')::numeric
                              * (${a}.rule_snapshot -> 'penalty' ->> 'value')::numeric)::numeric(1000, 40)
                             / (case when ${a}.rule_snapshot ->> 'dayCount' = 'ACT/365' then 365 else 360 end) end)`;
  return sql`${days} as late_days,
    ${a}.penalty + case when ${days} >= 1 then round((${pd} * ${rate})::numeric(1000, 40), 2) else 0 end as accrued`;
}

/**
 * Per contract, its items overdue on `asOf` by itemAsOf (the plan view's, the dashboard's and the
 * day-end's function, docs/money-rules.md "Figures as of a date") over the lines posted as of that
 * date: the longest overdue days, the open principal + interest + fee and the penalty owed.
 * Candidates are the items due before `asOf` that still owed principal, interest or fee then, or
 * whose principal was paid after the due date (penalty may still be owed). Those with no line
 * posted as of `asOf` (nearly all) are accrued and summed per contract in SQL (unpaidAccrual); the
 * others go through itemAsOf here.
 */
export async function overdueByContract(
  ex: Executor,
  contractsSql: SQL,
  asOf: string,
  /** The slice of contracts `contractsSql` is narrowed to, so that only their items are read. */
  slice?: Slice,
): Promise<Map<number, OverdueFigures>> {
  // Candidates: the items still owing now, those a posting after asOf changed (paid now, perhaps
  // not then), and those whose principal was paid late (marked by the posting, migration 0038). An
  // item in none of them was paid on asOf as it is now, on time: not overdue. One pass over the
  // items (the later sets are small, hashed); the dated payments are read for the candidates only.
  const d = sql`${asOf}::date`;
  const ofSlice = slice ? inSlice('i.contract_id', slice) : sql`true`;
  // The items paid late of the slice's contracts only (their write-offs by contract): a page's 20
  // rows read those of the whole book otherwise (bench/README.md "Ninth pass").
  const lateOf = slice ? sql`l.principal_late and ${inSlice('p.contract_id', slice)}` : sql`l.principal_late`;
  const rows = await queryRows<Candidate>(
    ex,
    sql`with lc as (select c0.id from ${contractsSql} as c0 where ${disbursedBy('c0', asOf)}),
        ic as materialized ${paidCorrections(asOf)},
        late as materialized (select distinct pl.plan_item_id from ${postedLines(asOf, lateOf)} as pl),
        items as (select ${ITEM_COLUMNS} from contract_plan_items i
                   where ${ofSlice} and i.superseded_by is null and i.due_date < ${d} and ${OWING('i')}
                  union all
                  select ${ITEM_COLUMNS} from contract_plan_items i
                   where i.id in (select plan_item_id from ic union select plan_item_id from late)
                     and ${ofSlice} and i.superseded_by is null and i.due_date < ${d} and not ${OWING('i')}),
        it as (select i.*, i.principal_paid + coalesce(ic.p, 0) as pp, i.interest_paid + coalesce(ic.i, 0) as ip,
                      i.fee_paid + coalesce(ic.f, 0) as fp
                 from items i join lc on lc.id = i.contract_id left join ic on ic.plan_item_id = i.id),
        cand as materialized (
          select it.*, (select k.rule_snapshot from contracts k where k.id = it.contract_id) as rule_snapshot,
                 (select json_agg(json_build_object('component', pl.component, 'amount', pl.amount::text,
                                                    'date', to_char(pl.paid_date, 'YYYY-MM-DD')))
                    from ${postedLines(asOf, sql`l.plan_item_id = it.id`)} as pl) as payments
            from it
           where it.pp + it.ip + it.fp < it.principal + it.interest + it.fee
              or it.id in (select plan_item_id from late)),
        unpaid as (select cand.contract_id, cand.due_date, cand.principal + cand.interest + cand.fee as owed, ${unpaidAccrual('cand', d)}
                     from cand where cand.payments is null)
        select cand.contract_id::int as contract_id, cand.period, to_char(cand.due_date, 'YYYY-MM-DD') as due_date,
               cand.principal::text, cand.interest::text, cand.fee::text, cand.penalty::text, cand.rule_snapshot,
               cand.payments, null::int as s_days, null::text as s_open, null::text as s_penalty
          from cand where cand.payments is not null
        union all
        select u.contract_id::int, null, null, null, null, null, null, null, null,
               max(${d} - u.due_date)::int, sum(u.owed)::text, sum(u.accrued)::text
          from unpaid as u
         where u.late_days >= 1 and u.owed + u.accrued > 0
         group by u.contract_id`,
  );
  const out = new Map<number, OverdueFigures>();
  const add = (contractId: number, days: number, open: Decimal.Value, penalty: Decimal.Value) => {
    const had = out.get(contractId);
    out.set(contractId, {
      contractId,
      days: Math.max(had?.days ?? 0, days),
      open: new Decimal(open).plus(had?.open ?? 0).toFixed(2),
      penalty: new Decimal(penalty).plus(had?.penalty ?? 0).toFixed(2),
    });
  };
  const rules = new Map<number, InterestRuleCalc>();
  for (const r of rows) {
    const { period, payments: lines } = r;
    if (period === null || lines === null) {
      add(r.contract_id, Number(r.s_days), r.s_open ?? 0, r.s_penalty ?? 0);
      continue;
    }
    let rule = rules.get(r.contract_id);
    if (!rule) {
      rule = interestRuleCalc.parse(r.rule_snapshot);
      rules.set(r.contract_id, rule);
    }
    const payments = lines.map((p) => itemPayment(period, p.component, p.amount, p.date));
    const f = itemAsOf(
      {
        period,
        dueDate: r.due_date,
        principal: r.principal,
        interest: r.interest,
        fee: r.fee,
        penalty: r.penalty,
      },
      payments,
      asOf,
      rule,
    );
    if (f.status !== '逾期') continue;
    const open = new Decimal(f.open.PRINCIPAL).plus(f.open.INTEREST).plus(f.open.FEE);
    add(r.contract_id, f.overdueDays, open, new Decimal(f.outstanding).minus(open));
  }
  return out;
}

/** The day before a date (a statement's opening balance is the balance at its end). */
export const dayBefore = (d: string) => addDays(d, -1);
