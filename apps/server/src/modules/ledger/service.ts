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
import { ASSET_CLASSES, type AssetClass } from '@portal/contract/classification';
import type { ScopeUser } from '../../platform/auth/data-scope';
import { queryRows, type Db, type Executor } from '../../platform/db/client';
import { badInput } from '../../platform/errors';
import { likePattern } from '../../platform/http/list';
import { scopeOf } from '../contract';
import { writtenOffBy } from '../contract';
import { classAsOf } from '../classification';
import { freshPart, isKept, keptLessTouched, SUMMED, touchedSince } from './kept';
import {
  contractCorrections,
  disbursedBy,
  inSlice,
  interestSplit,
  overdueByContract,
  paidCorrections,
  type OverdueFigures,
  type Slice,
} from './as-of';

const isAssetClass = (v: unknown): v is AssetClass => ASSET_CLASSES.includes(v as AssetClass);

export const money = (v: string | null | undefined) => new Decimal(v ?? 0).toFixed(2);

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
  return sql`(select contracts.* from contracts where ${ledgerContractConds(user, q, asOf, ids)})`;
}

/** ledgerContracts' conditions over the table `contracts`. */
function ledgerContractConds(user: ScopeUser, q: LedgerExportQuery, asOf: string, ids?: Slice): SQL {
  const conds: SQL[] = [
    sql`contracts.deleted_at is null`,
    sql`contracts.status <> 'none'`,
    sql`contracts.start_date <= ${asOf}::date`,
    scopeOf(user),
  ];
  if (q.orgCode) conds.push(sql`contracts.org_id in ${orgSubtree(q.orgCode)}`);
  if (q.custCode) conds.push(sql`contracts.cust_code = ${q.custCode}`);
  if (q.custName) conds.push(sql`contracts.cust_name ilike ${likePattern(q.custName)}`);
  if (q.product) conds.push(sql`contracts.product = ${q.product}`);
  // 放款日 as of asOf: a disbursement dated after it had not happened yet.
  if (q.loanDateStart) conds.push(sql`contracts.loan_date >= ${q.loanDateStart}::date`);
  if (q.loanDateEnd) conds.push(sql`contracts.loan_date <= ${q.loanDateEnd}::date`);
  if (ids) conds.push(inSlice('contracts.id', ids));
  return sql.join(conds, sql` and `);
}

/** The organisation filter (an organisation and those below it) over a row's org_id. */
const orgSubtree = (code: string) =>
  sql`(with recursive sub(id) as (
         select id from depts where biz_code = ${code}
         union select d.id from depts d join sub on d.parent_id = sub.id) select id from sub)`;

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
export async function buildLedger(
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
                       c0.rule_snapshot ->> 'method' as method, c0.rule_biz_code, c0.org_id, c0.created_by, c0.line_code,
                       c0.principal_open, c0.interest_open, c0.fee_open
                  from ${base} as c0),
    cc as ${contractCorrections(asOf)},
    -- The ids from the contracts themselves, not from lc: the planner estimates a filter over a CTE
    -- at a few rows and then probes the plan items contract by contract (bench/README.md).
    ai as ${interestSplit(sql`(select c1.id from ${base} as c1 where ${disbursedBy('c1', asOf)})`, asOf, known?.ids)},
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
           fig.rule_biz_code, fig.org_id, fig.created_by,
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
  const kept = await keptLedgerPage(ex, user, q, today);
  if (kept) return kept;
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
 * Whether a page reads what the day-end kept (docs/ledger.md "Kept by date"): no filter but the
 * organisation (the kept sums are per organisation and owner, the data scope's columns), in the
 * default order. A filter on a row's fields or figures, or another order, computes every row.
 */
function readsKept(q: LedgerListQuery): boolean {
  const { custCode, custName, product, ledgerState, overdueBucket, assetClass, loanDateStart, loanDateEnd } =
    q;
  const filters = [
    custCode,
    custName,
    product,
    ledgerState,
    overdueBucket,
    assetClass,
    loanDateStart,
    loanDateEnd,
  ];
  return filters.every((f) => f === undefined || f === '') && !q.orderBy;
}

/**
 * The page and its totals from what the day-end kept for the date, when it kept it and the call
 * reads nothing else (readsKept): the kept sums the user may see, less the kept rows of the
 * contracts touched since and plus those contracts computed afresh (kept.ts), the period's
 * write-offs and reversals summed over the period's documents, and the page's rows computed
 * alone (newest first: their ids from the contract rows). Null: compute (ledgerPageIn).
 */
async function keptLedgerPage(
  ex: Executor,
  user: ScopeUser,
  q: LedgerListQuery,
  today: string,
): Promise<LedgerPage | null> {
  const { asOf, dateFrom } = ledgerPeriod(q, today);
  if (!readsKept(q) || !(await isKept(ex, asOf))) return null;
  const touched = await touchedSince(ex, asOf);
  if (!touched) return null;
  const fresh = touched.length ? await buildLedger(ex, user, q, today, { ids: { ids: touched } }) : undefined;
  const narrow = { org: q.orgCode ? orgSubtree(q.orgCode) : null, where: () => sql`true` };
  const parts = sql`(${keptLessTouched(user, asOf, touched, narrow, () => null)}
                    ${fresh ? sql`union all ${freshPart(fresh.rows, null)}` : sql``})`;
  // 本期回款 and 本期冲红 are kept for the default period (from the first of the month); another
  // period sums its write-offs and reversals, each document's contract probed by its key.
  const ofLedger = (contractId: SQL) =>
    sql`cross join lateral (select 1 from contracts
                             where contracts.id = ${contractId} and ${ledgerContractConds(user, q, asOf)} limit 1) as lc`;
  const d = sql`${asOf}::date`;
  const period =
    dateFrom === `${asOf.slice(0, 8)}01`
      ? sql``
      : sql`, (select sum(p.amount)::text from paids p ${ofLedger(sql`p.contract_id`)}
                 where p.deleted_at is null and p.state = 'approved' and p.kind <> 'badDebt'
                   and p.paid_date between ${dateFrom}::date and ${d}) as p_received,
               (select sum(p.amount)::text from paid_reds r join paids p on p.id = r.paid_id ${ofLedger(sql`p.contract_id`)}
                 where r.deleted_at is null and r.state = 'approved' and p.kind <> 'badDebt'
                   and r.red_date between ${dateFrom}::date and ${d}) as p_reversed`;
  const [sums] = await queryRows<Record<string, unknown>>(
    ex,
    sql`select ${SUMMED} ${period} from ${parts} as parts`,
  );
  const t =
    sums && 'p_received' in sums
      ? { ...sums, t_received: sums.p_received, t_reversed: sums.p_reversed }
      : sums;
  const picked = await queryRows<{ id: string }>(
    ex,
    sql`select c.id::text as id from ${ledgerContracts(user, q, asOf)} as c
         order by c.id desc limit ${q.pageSize} offset ${(q.pageNum - 1) * q.pageSize}`,
  );
  const ids = picked.map((r) => Number(r.id));
  const part = ids.length ? await buildLedger(ex, user, q, today, { ids: { ids } }) : undefined;
  const rows = part
    ? await queryRows<RawRow>(
        ex,
        sql`with pg as (select * from ${part.rows} as r0), ic as ${paidCorrections(asOf)}
            select ${decorate('pg', asOf)} order by id desc`,
      )
    : [];
  const totals = totalsFrom(t);
  return {
    list: rows.map(toRow),
    total: totals.contracts,
    pageNum: q.pageNum,
    pageSize: q.pageSize,
    asOf,
    dateFrom,
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
