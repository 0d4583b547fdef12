import Decimal from 'decimal.js';
import { sql, type SQL } from 'drizzle-orm';
import {
  type LedgerExportQuery,
  type LedgerListQuery,
  type LedgerPage,
  type LedgerRow,
  type LedgerState,
  type LedgerTotals,
} from '@portal/contract/ledger';
import {
  ASSET_CLASS_LABELS,
  ASSET_CLASSES,
  UNCLASSIFIED_LABEL,
  type AssetClass,
  type ClassBucket,
  type ClassDistribution,
} from '@portal/contract/classification';
import { interestRuleCalc, type InterestRuleCalc } from '@portal/contract/plan/rule';
import { addDays } from '@portal/contract/plan/dates';
import type { ScopeUser } from '../../platform/auth/data-scope';
import { queryRows, type Db, type Executor } from '../../platform/db/client';
import { badInput } from '../../platform/errors';
import { likePattern } from '../../platform/http/list';
import { scopeOf } from '../contract';
import { itemAsOf, itemPayment, writtenOffBy } from '../contract';
import { classAsOf, storedDistribution } from '../classification';

const isAssetClass = (v: unknown): v is AssetClass => ASSET_CLASSES.includes(v as AssetClass);

const money = (v: string | null | undefined) => new Decimal(v ?? 0).toFixed(2);

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
 * What a plan item's paid columns (principal_paid, interest_paid, fee_paid: the write-offs posted
 * now) must be corrected by to read as of the end of `asOf` (docs/ledger.md "As posted on a date"): minus the
 * lines of write-offs dated after it that stand now, plus the lines of write-offs dated by then
 * whose reversal is dated after it. Both sets are the write-offs of the days after `asOf`, so for
 * today's ledger they are empty and the 1.5 million lines of a large portfolio are never read.
 * One row per item, the corrections of principal, interest and fee as p, i, f.
 */
function paidCorrections(asOf: string): SQL {
  return sql`(select plan_item_id,
                     coalesce(sum(amount) filter (where component = 'PRINCIPAL'), 0) as p,
                     coalesce(sum(amount) filter (where component = 'INTEREST'), 0) as i,
                     coalesce(sum(amount) filter (where component = 'FEE'), 0) as f
                from (select l.plan_item_id, l.component, -l.amount as amount
                        from paids p join paid_lines l on l.paid_id = p.id
                       where p.deleted_at is null and p.state = 'approved' and p.paid_date > ${asOf}::date
                         and not exists (select 1 from paid_reds r where r.paid_id = p.id and r.deleted_at is null
                                            and r.state = 'approved')
                      union all
                      select l.plan_item_id, l.component, l.amount
                        from paid_reds r join paids p on p.id = r.paid_id join paid_lines l on l.paid_id = p.id
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
function contractCorrections(asOf: string): SQL {
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

/** The ledger's date and period: asOf defaults to the business date, dateFrom to its month's first. */
export function ledgerPeriod(
  q: Pick<LedgerExportQuery, 'asOf' | 'dateFrom'>,
  today: string,
): { asOf: string; dateFrom: string } {
  const asOf = q.asOf ?? today;
  const dateFrom = q.dateFrom ?? `${asOf.slice(0, 8)}01`;
  if (dateFrom > asOf) throw badInput('期间开始日期不能晚于台账日期');
  return { asOf, dateFrom };
}

/**
 * The approved contracts the user may see, started by `asOf`, narrowed by the filters that read the
 * contract row itself (organisation, customer, product, 放款日).
 */
function ledgerContracts(user: ScopeUser, q: LedgerExportQuery, asOf: string, ids?: Slice): SQL {
  const conds: SQL[] = [
    sql`contracts.deleted_at is null`,
    sql`contracts.status <> 'none'`,
    sql`contracts.start_date <= ${asOf}::date`,
    scopeOf(user),
  ];
  if (q.orgCode)
    conds.push(
      sql`contracts.org_id in (with recursive sub(id) as (
              select id from depts where biz_code = ${q.orgCode}
              union select d.id from depts d join sub on d.parent_id = sub.id) select id from sub)`,
    );
  if (q.custCode) conds.push(sql`contracts.cust_code = ${q.custCode}`);
  if (q.custName) conds.push(sql`contracts.cust_name ilike ${likePattern(q.custName)}`);
  if (q.product) conds.push(sql`contracts.product = ${q.product}`);
  // 放款日 as of asOf: a disbursement dated after it had not happened yet.
  if (q.loanDateStart) conds.push(sql`contracts.loan_date >= ${q.loanDateStart}::date`);
  if (q.loanDateEnd) conds.push(sql`contracts.loan_date <= ${q.loanDateEnd}::date`);
  if (ids) conds.push(inSlice('contracts.id', ids));
  return sql`(select contracts.* from contracts where ${sql.join(conds, sql` and `)})`;
}

/** A slice of the contracts by id, for the export's batches. */
interface IdRange {
  after: number;
  upTo: number;
}

/** The contracts an export batch (a range of ids) or a page (its rows' ids) computes. */
type Slice = IdRange | { ids: readonly number[] };

function inSlice(column: string, s: Slice): SQL {
  const c = sql.raw(column);
  if ('ids' in s) return sql`${c} = any(string_to_array(${s.ids.join(',')}, ',')::bigint[])`;
  return sql`${c} > ${s.after} and ${c} <= ${s.upTo}`;
}

/** A plan item still owing principal, interest or fee now (the open-items index's predicate). */
const OWING = (alias: string) => {
  const a = sql.raw(alias);
  return sql`(${a}.principal_paid < ${a}.principal or ${a}.interest_paid < ${a}.interest or ${a}.fee_paid < ${a}.fee)`;
};

/** Disbursed as of the end of `asOf`: the 放款单 in force is dated on or before it. */
const disbursedBy = (alias: string, asOf: string) =>
  sql`(${sql.raw(alias)}.loan_state = 'loaned' and ${sql.raw(alias)}.loan_date <= ${asOf}::date)`;

/** Past this many days after its due date an item's open interest is off the books (表外). */
export const OFF_BALANCE_DAYS = 90;

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
export function interestSplit(ids: SQL, asOf: string): SQL {
  const d = sql`${asOf}::date`;
  const off = sql`${d} - it.due_date > ${OFF_BALANCE_DAYS}`;
  return sql`(select it.contract_id,
                     sum(case when ${off} then 0 else greatest(0, least(it.interest, it.earned) - it.ip) end) as accrued,
                     sum(case when ${off} then it.interest - it.ip else 0 end) as off_balance
                from (select i.contract_id, i.due_date, i.interest, i.interest_paid + coalesce(ic.i, 0) as ip,
                             case when i.due_date <= ${d} then i.interest
                                  else round(i.interest * (${d} + 1 - i.start_date) / (i.due_date - i.start_date), 2)
                             end as earned
                        from contract_plan_items i left join ${paidCorrections(asOf)} as ic on ic.plan_item_id = i.id
                       where i.contract_id in ${ids} and i.superseded_by is null and i.start_date <= ${d}
                         and (i.interest_paid < i.interest or ic.plan_item_id is not null)) as it
               where it.ip < it.interest
               group by it.contract_id)`;
}

interface OverdueFigures {
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
  const rows = await queryRows<Candidate>(
    ex,
    sql`with lc as (select c0.id from ${contractsSql} as c0 where ${disbursedBy('c0', asOf)}),
        ic as materialized ${paidCorrections(asOf)},
        late as materialized (select distinct pl.plan_item_id from ${postedLines(asOf, sql`l.principal_late`)} as pl),
        items as (select i.* from contract_plan_items i
                   where ${ofSlice} and i.superseded_by is null and i.due_date < ${d} and ${OWING('i')}
                  union all
                  select i.* from contract_plan_items i
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

interface Built {
  /**
   * The ledger's figures (one row per contract) after every filter, as a SQL row source: what the
   * totals, the sorts and the filters need, set-based over the contract rows. The columns only a
   * shown row needs come from `decorate`.
   */
  rows: SQL;
  asOf: string;
  dateFrom: string;
}

/**
 * The ledger's figures as one SQL row source: each contract's balances as of `asOf` (its stored
 * balances less contractCorrections), the overdue figures computed by itemAsOf (passed in as
 * JSON), the period's write-offs and reversals, then the filters on state, class and overdue bucket.
 */
async function buildLedger(
  ex: Executor,
  user: ScopeUser,
  q: LedgerExportQuery,
  today: string,
  /** A slice of the contracts, with their overdue figures when they are known already. */
  known?: { overdue?: Map<number, OverdueFigures>; ids: Slice },
): Promise<Built & { overdue: Map<number, OverdueFigures> }> {
  const { asOf, dateFrom } = ledgerPeriod(q, today);
  const base = ledgerContracts(user, q, asOf, known?.ids);
  const overdue = known?.overdue ?? (await overdueByContract(ex, base, asOf, known?.ids));
  const od = JSON.stringify([...overdue.values()].map((o) => ({ id: o.contractId, ...o })));
  const d = sql`${asOf}::date`;
  const disbursed = disbursedBy('lc', asOf);
  // The class is read for every row only when a filter asks for it; a shown row gets it in decorate.
  const byClass = q.assetClass !== undefined;
  // An export batch sums the period's postings of its own slice of contracts only.
  const slice = known ? inSlice('p.contract_id', known.ids) : sql`true`;
  // Only the columns the figures and the shown row read. The period's write-offs and reversals are
  // summed per contract over the date indexes (a few thousand), not per contract of lc.
  const figures = sql`(
    with lc as (select c0.id, c0.biz_code, c0.contract_no, c0.cust_code, c0.cust_name, c0.core_comp_name, c0.product,
                       c0.receivables_amount, c0.financing_amount, c0.loan_state, c0.loan_date, c0.loan_amount,
                       c0.start_date, c0.maturity_date, c0.rule_snapshot ->> 'annualRate' as annual_rate,
                       c0.rule_snapshot ->> 'method' as method, c0.rule_biz_code, c0.org_id, c0.line_code,
                       c0.principal_open, c0.interest_open, c0.fee_open
                  from ${base} as c0),
    cc as ${contractCorrections(asOf)},
    ai as ${interestSplit(sql`(select lc.id from lc where ${disbursed})`, asOf)},
    od as (select * from json_to_recordset(${od}::json) as od(id bigint, days int, open numeric, penalty numeric)),
    -- 本期回款 / 本期冲红: a 核销坏账 receives nothing (docs/ledger.md), so it and its 冲红 are left out.
    moved as (select p.contract_id, sum(p.amount) as received from paids p
               where ${slice} and p.deleted_at is null and p.state = 'approved' and p.kind <> 'badDebt'
                 and p.paid_date between ${dateFrom}::date and ${d}
               group by p.contract_id),
    reversed as (select p.contract_id, sum(p.amount) as reversed
                   from paid_reds r join paids p on p.id = r.paid_id
                  where ${slice} and r.deleted_at is null and r.state = 'approved' and p.kind <> 'badDebt'
                    and r.red_date between ${dateFrom}::date and ${d}
                  group by p.contract_id),
    fig as (select lc.*, ${disbursed} as disbursed,
                   case when ${disbursed} then lc.principal_open - coalesce(cc.p, 0) else 0 end as p_open,
                   case when ${disbursed} then lc.interest_open - coalesce(cc.i, 0) else 0 end as i_open,
                   case when ${disbursed} then lc.fee_open - coalesce(cc.f, 0) else 0 end as f_open,
                   coalesce(ai.accrued, 0) as i_accrued, coalesce(ai.off_balance, 0) as i_off,
                   od.id as od_id, od.days as od_days, od.open as od_open, od.penalty as od_penalty,
                   moved.received, reversed.reversed
              from lc
              left join cc on cc.contract_id = lc.id
              left join ai on ai.contract_id = lc.id
              left join od on od.id = lc.id
              left join moved on moved.contract_id = lc.id
              left join reversed on reversed.contract_id = lc.id)
    select fig.id, fig.disbursed, fig.biz_code as "contBizCode", fig.contract_no as "contractNo",
           fig.cust_code as "custCode", fig.cust_name as "custName", fig.core_comp_name, fig.product,
           fig.receivables_amount as receivables, fig.financing_amount as financing,
           case when fig.disbursed then to_char(fig.loan_date, 'YYYY-MM-DD') end as "loanDate",
           case when fig.disbursed then fig.loan_amount end as loan_net,
           to_char(fig.start_date, 'YYYY-MM-DD') as "startDate", to_char(fig.maturity_date, 'YYYY-MM-DD') as "maturityDate",
           coalesce(fig.annual_rate, '') as "annualRate", coalesce(fig.method, '') as method,
           fig.rule_biz_code, fig.org_id,
           fig.p_open as principal_open, fig.i_accrued as interest_open,
           fig.i_open - fig.i_accrued - fig.i_off as interest_not_due, fig.i_off as interest_off, fig.f_open as fee_open,
           coalesce(fig.od_days, 0) as overdue_days, coalesce(fig.od_open, 0) as overdue_open,
           coalesce(fig.od_penalty, 0) as overdue_penalty,
           coalesce(fig.received, 0) as received, coalesce(fig.reversed, 0) as reversed,
           fig.line_code as "lineCode",
           ${byClass ? sql`cl.asset_class` : sql`null::text`} as class_filter,
           case when not fig.disbursed then 'unloaned'
                -- Closed by a 核销坏账 dated by the ledger's date, not reversed by then (docs/ledger.md).
                when ${writtenOffBy(sql`fig.id`, asOf)}
                  then 'writtenOff'
                when fig.p_open + fig.i_open + fig.f_open = 0 and fig.od_id is null then 'settled'
                else 'active' end as ledger_state
      from fig ${byClass ? sql`left join ${classAsOf(sql`fig.id`, asOf)} as cl on true` : sql``})`;
  const conds: SQL[] = [sql`true`];
  if (q.ledgerState) conds.push(sql`ledger_state = ${q.ledgerState}`);
  if (q.assetClass) conds.push(sql`ledger_state = 'active' and class_filter = ${q.assetClass}`);
  const b = q.overdueBucket;
  if (b === '0') conds.push(sql`overdue_days = 0`);
  else if (b === '1-30') conds.push(sql`overdue_days between 1 and 30`);
  else if (b === '31-60') conds.push(sql`overdue_days between 31 and 60`);
  else if (b === '61-90') conds.push(sql`overdue_days between 61 and 90`);
  else if (b === '90+') conds.push(sql`overdue_days > 90`);
  return {
    rows: sql`(select * from ${figures} as f where ${sql.join(conds, sql` and `)})`,
    asOf,
    dateFrom,
    overdue,
  };
}

/**
 * The columns of a shown row beyond the figures, for the rows `r` of a page or an export batch
 * only: the debtor, the rule's name, the organisation, the class in force on `asOf`, and the next
 * due item (the first due on or after `asOf` still owing on it; `ic` is paidCorrections(asOf)).
 */
function decorate(r: string, asOf: string): SQL {
  const a = sql.raw(r);
  return sql`${a}.*,
      coalesce(${a}.core_comp_name,
               (select string_agg(distinct cr.debtor_name, '、') from contract_receivables cr
                 where cr.contract_id = ${a}.id and cr.live), '') as "debtorName",
      coalesce((select name from interest_rules ir where ir.biz_code = ${a}.rule_biz_code), '') as "ruleName",
      (select dp.name from depts dp where dp.id = ${a}.org_id) as "deptName",
      cl.asset_class, nx.due as "nextDueDate", nx.open as next_open,
      (select coalesce(sum(l.credit - l.debit), 0) from voucher_lines l join vouchers v on v.id = l.voucher_id
        where l.role = 'badDebtReserve' and l.contract_no = ${a}."contractNo"
          and v.voucher_date <= ${asOf}::date)::text as provision
    from ${a}
    left join ${classAsOf(sql`${a}.id`, asOf)} as cl on true
    left join lateral (select to_char(i.due_date, 'YYYY-MM-DD') as due, i.principal + i.interest + i.fee
                              - (i.principal_paid + i.interest_paid + i.fee_paid
                                 + coalesce(ic.p, 0) + coalesce(ic.i, 0) + coalesce(ic.f, 0)) as open
                         from contract_plan_items i left join ic on ic.plan_item_id = i.id
                        where ${a}.disbursed and i.contract_id = ${a}.id and i.superseded_by is null
                          and i.due_date >= ${asOf}::date
                          and i.principal_paid + i.interest_paid + i.fee_paid
                              + coalesce(ic.p, 0) + coalesce(ic.i, 0) + coalesce(ic.f, 0) < i.principal + i.interest + i.fee
                        order by i.due_date, i.period limit 1) as nx on true`;
}

interface RawRow {
  id: number;
  contBizCode: string;
  contractNo: string;
  custCode: string;
  custName: string;
  debtorName: string;
  product: LedgerRow['product'];
  receivables: string;
  financing: string;
  loanDate: string | null;
  loan_net: string | null;
  startDate: string;
  maturityDate: string;
  annualRate: string;
  method: string;
  ruleName: string;
  principal_open: string;
  interest_open: string;
  interest_not_due: string;
  interest_off: string;
  fee_open: string;
  overdue_days: number;
  overdue_open: string;
  overdue_penalty: string;
  nextDueDate: string | null;
  next_open: string | null;
  received: string;
  reversed: string;
  lineCode: string;
  deptName: string | null;
  ledger_state: LedgerState;
  asset_class: string | null;
  provision: string;
}

function toRow(r: RawRow): LedgerRow {
  return {
    contBizCode: r.contBizCode,
    contractNo: r.contractNo,
    custCode: r.custCode,
    custName: r.custName,
    debtorName: r.debtorName,
    product: r.product,
    receivablesAmount: money(r.receivables),
    financingAmount: money(r.financing),
    loanDate: r.loanDate,
    loanNetAmount: r.loan_net === null ? null : money(r.loan_net),
    startDate: r.startDate,
    maturityDate: r.maturityDate,
    annualRate: r.annualRate,
    ruleName: r.ruleName,
    method: r.method,
    principalOutstanding: money(r.principal_open),
    provision: money(r.provision),
    interestOutstanding: money(r.interest_open),
    interestNotDue: money(r.interest_not_due),
    interestOffBalance: money(r.interest_off),
    feeOutstanding: money(r.fee_open),
    overdueDays: Number(r.overdue_days),
    overdueAmount: money(r.overdue_open),
    overduePenalty: money(r.overdue_penalty),
    nextDueDate: r.nextDueDate,
    nextDueAmount: r.next_open === null ? null : money(r.next_open),
    periodReceived: money(r.received),
    periodReversed: money(r.reversed),
    lineCode: r.lineCode,
    deptName: r.deptName,
    ledgerState: r.ledger_state,
    classification: r.ledger_state === 'active' && isAssetClass(r.asset_class) ? r.asset_class : null,
  };
}

const SORTS: Record<string, string> = {
  contractNo: '"contractNo"',
  loanDate: '"loanDate"',
  principalOutstanding: 'principal_open',
  overdueDays: 'overdue_days',
};

function orderOf(q: Pick<LedgerListQuery, 'orderBy' | 'order'>): SQL {
  const col = q.orderBy ? SORTS[q.orderBy] : undefined;
  const dir = q.order === 'asc' ? 'asc' : 'desc';
  return col ? sql.raw(`${col} ${dir} nulls last, id desc`) : sql.raw('id desc');
}

/**
 * What the totals and the sorts read of a ledger row: the figures kept for every row of a page's
 * selection. The text columns of a shown row (dates formatted, the rule read out of its snapshot)
 * are left out, so they are computed for the page's rows only: for 90,000 rows they cost about
 * as much as the figures (bench/README.md).
 */
const FIGURE_COLUMNS =
  sql.raw(`id, "contractNo", "loanDate", receivables, financing, loan_net, principal_open,
  interest_open, interest_not_due, interest_off, fee_open, overdue_days, overdue_open, overdue_penalty, received, reversed`);

/** The totals of a ledger row source `r`, as columns named t_*. */
const TOTALS_COLUMNS = sql.raw(`count(*)::int as t_n, sum(receivables)::text as t_receivables,
  sum(financing)::text as t_financing, sum(loan_net)::text as t_loan_net, sum(principal_open)::text as t_p,
  sum(interest_open)::text as t_i, sum(interest_not_due)::text as t_ind, sum(interest_off)::text as t_ioff,
  sum(fee_open)::text as t_f, sum(overdue_open)::text as t_od,
  sum(overdue_penalty)::text as t_pen, (count(*) filter (where overdue_days > 0))::int as t_odn,
  sum(received)::text as t_received, sum(reversed)::text as t_reversed`);

function totalsFrom(t: Record<string, unknown> | undefined): LedgerTotals {
  const s = (k: string) => money(t?.[`t_${k}`] as string | null);
  return {
    contracts: Number(t?.t_n ?? 0),
    receivablesAmount: s('receivables'),
    financingAmount: s('financing'),
    loanNetAmount: s('loan_net'),
    principalOutstanding: s('p'),
    interestOutstanding: s('i'),
    interestNotDue: s('ind'),
    interestOffBalance: s('ioff'),
    feeOutstanding: s('f'),
    overdueAmount: s('od'),
    overduePenalty: s('pen'),
    overdueContracts: Number(t?.t_odn ?? 0),
    periodReceived: s('received'),
    periodReversed: s('reversed'),
  };
}

/**
 * One page of the ledger with the totals of every row the filters match. One statement: the
 * figures of the whole selection are computed once (a materialised CTE) for both the page and the
 * totals, not once for each.
 */
export async function ledgerPage(
  db: Db,
  user: ScopeUser,
  q: LedgerListQuery,
  today: string,
): Promise<LedgerPage> {
  return db.transaction(async (ex) => {
    await ex.execute(sql`set transaction isolation level repeatable read, read only`);
    // PostgreSQL's JIT spent 2 of 20 seconds compiling these scans at 100,000 contracts, and pays
    // only on analytics far larger than a page of the ledger.
    await ex.execute(sql`set local jit = off`);
    return ledgerPageIn(ex, user, q, today);
  });
}

/** The page and its totals inside one snapshot: the overdue figures and the rows agree. */
async function ledgerPageIn(
  ex: Executor,
  user: ScopeUser,
  q: LedgerListQuery,
  today: string,
): Promise<LedgerPage> {
  const built = await buildLedger(ex, user, q, today);
  const order = orderOf(q);
  // The totals and the page's ids over the figures only; then the shown columns of those rows.
  const picked = await queryRows<Record<string, unknown> & { page_ids: string | null }>(
    ex,
    sql`with r as materialized (select ${FIGURE_COLUMNS} from ${built.rows} as r0),
             pick as (select id from r order by ${order} limit ${q.pageSize} offset ${(q.pageNum - 1) * q.pageSize})
        select ${TOTALS_COLUMNS}, (select string_agg(id::text, ',') from pick) as page_ids from r`,
  );
  const ids = (picked[0]?.page_ids ?? '').split(',').filter(Boolean).map(Number);
  const overdue = new Map([...built.overdue].filter(([id]) => ids.includes(id)));
  const part = ids.length ? await buildLedger(ex, user, q, today, { overdue, ids: { ids } }) : undefined;
  const rows = part
    ? await queryRows<RawRow>(
        ex,
        sql`with pg as (select * from ${part.rows} as r0), ic as ${paidCorrections(part.asOf)}
            select ${decorate('pg', part.asOf)} order by ${order}`,
      )
    : [];
  const totals = totalsFrom(picked[0]);
  return {
    list: rows.map(toRow),
    total: totals.contracts,
    pageNum: q.pageNum,
    pageSize: q.pageSize,
    asOf: built.asOf,
    dateFrom: built.dateFrom,
    totals,
  };
}

/**
 * A batch of the export reads one slice of contracts: JIT compiling its plan cost more than running
 * it, and parallel workers started per batch wait for a core on a busy machine (bench/README.md,
 * scenario 8).
 */
async function batchSettings(tx: Executor): Promise<void> {
  await tx.execute(sql`set local jit = off`);
  await tx.execute(sql`set local max_parallel_workers_per_gather = 0`);
}

/** The totals of the rows `rows`, added to `t` (the export sums what it writes). */
function addToTotals(t: LedgerTotals, rows: readonly LedgerRow[]): LedgerTotals {
  const plus = (a: string, b: string | null) => (b === null ? a : new Decimal(a).plus(b).toFixed(2));
  let out = t;
  for (const r of rows)
    out = {
      contracts: out.contracts + 1,
      receivablesAmount: plus(out.receivablesAmount, r.receivablesAmount),
      financingAmount: plus(out.financingAmount, r.financingAmount),
      loanNetAmount: plus(out.loanNetAmount, r.loanNetAmount),
      principalOutstanding: plus(out.principalOutstanding, r.principalOutstanding),
      interestOutstanding: plus(out.interestOutstanding, r.interestOutstanding),
      interestNotDue: plus(out.interestNotDue, r.interestNotDue),
      interestOffBalance: plus(out.interestOffBalance, r.interestOffBalance),
      feeOutstanding: plus(out.feeOutstanding, r.feeOutstanding),
      overdueAmount: plus(out.overdueAmount, r.overdueAmount),
      overduePenalty: plus(out.overduePenalty, r.overduePenalty),
      overdueContracts: out.overdueContracts + (r.overdueDays > 0 ? 1 : 0),
      periodReceived: plus(out.periodReceived, r.periodReceived),
      periodReversed: plus(out.periodReversed, r.periodReversed),
    };
  return out;
}

/**
 * The ledger in batches for the export (docs/ledger.md "Export"): a keyset walk over the matching
 * contracts by id, each batch computing every figure of its slice only — the overdue figures
 * included — so memory and the work per batch stay those of one batch whatever the portfolio's
 * size, and the first byte goes out after one batch. The totals are the sum of the rows written
 * (`totals()` once the walk has ended), so the 合计 row always adds up to the rows above it.
 */
export async function ledgerBatches(
  ex: Executor,
  user: ScopeUser,
  q: LedgerExportQuery,
  today: string,
  batch = 1000,
): Promise<{
  asOf: string;
  dateFrom: string;
  totals: () => LedgerTotals;
  next: (afterId: number | null) => Promise<{ rows: LedgerRow[]; lastId: number | null }>;
}> {
  const { asOf, dateFrom } = ledgerPeriod(q, today);
  const all = ledgerContracts(user, q, asOf);
  let totals = totalsFrom(undefined);
  return {
    asOf,
    dateFrom,
    totals: () => totals,
    next: async (afterId) => {
      const after = afterId ?? 0;
      const [slice] = await queryRows<{ up_to: string | null; n: number }>(
        ex,
        sql`select max(id)::text as up_to, count(*)::int as n
              from (select c.id from ${all} as c where c.id > ${after} order by c.id limit ${batch}) as s`,
      );
      if (!slice?.up_to) return { rows: [], lastId: null };
      const upTo = Number(slice.up_to);
      const raw = await ex.transaction(async (tx) => {
        // One snapshot for the slice's overdue figures and its rows.
        await tx.execute(sql`set transaction isolation level repeatable read, read only`);
        await batchSettings(tx);
        const part = await buildLedger(tx, user, q, today, { ids: { after, upTo } });
        return queryRows<RawRow>(
          tx,
          sql`with r as (select * from ${part.rows} as r0), ic as ${paidCorrections(part.asOf)}
              select ${decorate('r', part.asOf)} order by id`,
        );
      });
      const rows = raw.map(toRow);
      totals = addToTotals(totals, rows);
      return { rows, lastId: slice.n < batch ? null : upTo };
    },
  };
}

/** The day before a date (a statement's opening balance is the balance at its end). */
export const dayBefore = (d: string) => addDays(d, -1);

/**
 * The 五级分类 distribution on `asOf` (docs/classification.md "Distribution"): the 履约中 contracts
 * grouped by their class (未分类 when no day-end has classified the contract yet), with the count and
 * the 本金余额. On the business date (the dashboard's card, the default) it reads the record the
 * day-ends keep and the stored balances — the 五级分类 list's rows, which on that date are the
 * ledger's 履约中 rows. On an earlier date it reads the class rows in force then (one index probe
 * per contract) over the ledger's 履约中 figures of that date: the stored balances less the
 * postings dated after it, and the overdue candidates only (buildLedger, no shown-row columns).
 */
export async function classDistribution(
  ex: Executor,
  user: ScopeUser,
  asOf: string | undefined,
  today: string,
): Promise<ClassDistribution> {
  const date = asOf ?? today;
  const byKey = date === today ? await storedDistribution(ex, user, today) : await ledgerDistribution();
  // The ledger of a past date without JIT, like the page: compiling its plans took longer than
  // running them (bench/README.md).
  function ledgerDistribution() {
    return ex.transaction(async (tx) => {
      await tx.execute(sql`set local jit = off`);
      return ledgerDistributionIn(tx);
    });
  }
  async function ledgerDistributionIn(tx: Executor) {
    const built = await buildLedger(tx, user, { asOf: date }, today);
    const found = await queryRows<{ k: string; n: number; p: string | null }>(
      tx,
      sql`select coalesce(cl.asset_class, 'none') as k, count(*)::int as n, sum(r.principal_open)::text as p
            from ${built.rows} as r left join ${classAsOf(sql`r.id`, date)} as cl on true
           where r.ledger_state = 'active' group by 1`,
    );
    return new Map(found.map((f) => [f.k, { n: f.n, p: f.p }]));
  }
  const buckets: ClassBucket[] = [...ASSET_CLASSES, 'none'];
  const rows = buckets.map((k) => ({
    assetClass: k,
    label: k === 'none' ? UNCLASSIFIED_LABEL : ASSET_CLASS_LABELS[k],
    contracts: byKey.get(k)?.n ?? 0,
    principalOutstanding: money(byKey.get(k)?.p),
  }));
  return {
    asOf: date,
    rows,
    totals: {
      contracts: rows.reduce((s, r) => s + r.contracts, 0),
      principalOutstanding: rows.reduce((s, r) => s.plus(r.principalOutstanding), new Decimal(0)).toFixed(2),
    },
  };
}
