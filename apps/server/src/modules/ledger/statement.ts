import Decimal from 'decimal.js';
import { sql, type SQL } from 'drizzle-orm';
import { toChineseCapitals } from '@portal/contract/capitals';
import type { Statement, StatementKind, StatementLine, StatementQuery } from '@portal/contract/ledger';
import type { ScopeUser } from '../../platform/auth/data-scope';
import { queryRows, type Executor } from '../../platform/db/client';
import { notFound } from '../../platform/errors';
import { scopeOf } from '../contract';
import { dayBefore, postedLines } from './as-of';

const money = (v: string | null | undefined) => new Decimal(v ?? 0).toFixed(2);

/** The remark of the 放款 line of a contract brought in by 期初导入 (no 放款单 behind it). */
const OPENING_REMARK = '期初导入';

/** The statement's contracts: one, or every approved contract of the customer, in the user's scope. */
function statementContracts(user: ScopeUser, q: StatementQuery): SQL {
  return sql`(select contracts.* from contracts
               where contracts.deleted_at is null and contracts.status <> 'none' and ${scopeOf(user)}
                 ${q.contBizCode ? sql`and contracts.biz_code = ${q.contBizCode}` : sql``}
                 ${q.custCode ? sql`and contracts.cust_code = ${q.custCode}` : sql``})`;
}

/**
 * The principal balance of the contracts at the end of `asOf` (docs/ledger.md "The statement"):
 * the plan's principal of each contract disbursed by then, less the principal of the write-off
 * lines posted by then. The same figure as the ledger's 本金余额 for that date.
 */
export async function principalBalance(ex: Executor, contractsSql: SQL, asOf: string): Promise<string> {
  const [r] = await queryRows<{ due: string | null; paid: string | null }>(
    ex,
    sql`with lc as (select * from ${contractsSql} as c0
                     where c0.loan_state = 'loaned' and c0.loan_date <= ${asOf}::date),
        it as (select i.* from contract_plan_items i join lc on lc.id = i.contract_id where i.superseded_by is null)
        select (select sum(principal) from it)::text as due,
               (select sum(pl.amount) from ${postedLines(asOf)} as pl join it on it.id = pl.plan_item_id
                 where pl.component = 'PRINCIPAL')::text as paid`,
  );
  return new Decimal(r?.due ?? 0).minus(r?.paid ?? 0).toFixed(2);
}

interface RawMove {
  date: string;
  kind: StatementKind;
  doc_code: string;
  cont_biz_code: string;
  contract_no: string;
  disbursed: string;
  net_paid: string;
  deducted: string;
  principal: string;
  interest: string;
  fee: string;
  penalty: string;
  remark: string | null;
  /** When the document was approved (UTC, microseconds): the order the books took it in. */
  posted: string | null;
}

const KIND_ORDER: Record<StatementKind, number> = {
  loan: 0,
  receipt: 1,
  badDebt: 1,
  reversal: 2,
  badDebtRed: 2,
};

/** The kinds that receive nothing: a bad-debt write-off closes the plan without money. */
const NOTHING_RECEIVED: ReadonlySet<StatementKind> = new Set(['badDebt', 'badDebtRed']);

/** A document's approval time as a sortable string. */
const postedAt = (alias: string) =>
  sql.raw(`to_char(${alias}.approved_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') as posted`);

/**
 * 客户对账单 over [dateFrom, dateTo]: the opening principal balance (end of dateFrom − 1), every
 * disbursement (the contract's 放款日 and 实际放款, the figures the balance counts from: its
 * 放款单 in force, or 期初导入 for an imported contract, docs/ledger.md "The statement"), every write-off with its allocation per component, every
 * reversal (the negative of its write-off, on its own date), a 核销坏账 as its own kind (its principal
 * lowers the balance, nothing received) and its 冲红 likewise, and the closing balance (end of
 * dateTo), computed apart from the movements: opening + Σ movements = closing is what a test checks.
 * One day's lines run in the order they were posted (docs/ledger.md "The statement").
 */
export async function statement(ex: Executor, user: ScopeUser, q: StatementQuery): Promise<Statement> {
  const cs = statementContracts(user, q);
  const [head] = await queryRows<{
    cust_code: string;
    cust_name: string;
    biz_code: string | null;
    contract_no: string | null;
  }>(
    ex,
    q.contBizCode
      ? sql`select cust_code, cust_name, biz_code, contract_no from ${cs} as c limit 1`
      : sql`select comp_code as cust_code, comp_name as cust_name, null as biz_code, null as contract_no
              from companies where comp_code = ${q.custCode!} and deleted_at is null limit 1`,
  );
  if (!head) throw notFound(q.contBizCode ? '合同' : '企业客户');
  if (q.contBizCode && q.custCode && head.cust_code !== q.custCode) throw notFound('合同');
  const from = sql`${q.dateFrom}::date`;
  const to = sql`${q.dateTo}::date`;
  const lineSums = (sign: string) => sql`
    ${sql.raw(sign)} coalesce((select sum(l.amount) from paid_lines l where l.paid_id = p.id and l.component = 'PRINCIPAL'), 0) as principal,
    ${sql.raw(sign)} coalesce((select sum(l.amount) from paid_lines l where l.paid_id = p.id and l.component = 'INTEREST'), 0) as interest,
    ${sql.raw(sign)} coalesce((select sum(l.amount) from paid_lines l where l.paid_id = p.id and l.component = 'FEE'), 0) as fee,
    ${sql.raw(sign)} coalesce((select sum(l.amount) from paid_lines l where l.paid_id = p.id and l.component = 'PENALTY'), 0) as penalty`;
  const moves = await queryRows<RawMove>(
    ex,
    sql`with lc as ${cs}
        select to_char(lc.loan_date, 'YYYY-MM-DD') as date, 'loan' as kind,
               coalesce(l.biz_code, lc.biz_code) as doc_code, lc.biz_code as cont_biz_code, lc.contract_no,
               coalesce((select sum(i.principal) from contract_plan_items i
                          where i.contract_id = lc.id and i.superseded_by is null), 0)::text as disbursed,
               coalesce(l.net_amount, lc.loan_amount)::text as net_paid,
               coalesce(l.deducted_amount, lc.financing_amount - lc.loan_amount)::text as deducted,
               '0' as principal, '0' as interest, '0' as fee, '0' as penalty,
               case when l.id is null then ${OPENING_REMARK} else l.remark end as remark, ${postedAt('l')}
          from lc left join loans l on l.contract_id = lc.id and l.biz_code = lc.loan_biz_code
               and l.deleted_at is null and l.state = 'approved' and l.red_state = 'none'
         where lc.loan_state = 'loaned' and lc.loan_date between ${from} and ${to}
        union all
        select to_char(p.paid_date, 'YYYY-MM-DD'), case when p.kind = 'badDebt' then 'badDebt' else 'receipt' end, p.biz_code, lc.biz_code, lc.contract_no,
               '0', '0', '0', ${lineSums('')}, p.remark, ${postedAt('p')}
          from paids p join lc on lc.id = p.contract_id
         where p.deleted_at is null and p.state = 'approved' and p.paid_date between ${from} and ${to}
        union all
        select to_char(r.red_date, 'YYYY-MM-DD'), case when p.kind = 'badDebt' then 'badDebtRed' else 'reversal' end, r.biz_code, lc.biz_code, lc.contract_no,
               '0', '0', '0', ${lineSums('-')}, r.reason, ${postedAt('r')}
          from paid_reds r join paids p on p.id = r.paid_id join lc on lc.id = p.contract_id
         where r.deleted_at is null and r.state = 'approved' and r.red_date between ${from} and ${to}`,
  );
  // Same-day lines in the order they were posted, so each running balance is one the books held
  // (a reversal and the write-off that replaces it, on one day, never dip below both); documents
  // without an approval time (seeded) fall back to disbursement, receipt, reversal.
  moves.sort(
    (a, b) =>
      a.date.localeCompare(b.date) ||
      (a.posted ?? '').localeCompare(b.posted ?? '') ||
      KIND_ORDER[a.kind] - KIND_ORDER[b.kind] ||
      a.doc_code.localeCompare(b.doc_code),
  );
  const opening = await principalBalance(ex, cs, dayBefore(q.dateFrom));
  let balance = new Decimal(opening);
  const sums = {
    disbursed: new Decimal(0),
    netPaid: new Decimal(0),
    deducted: new Decimal(0),
    received: new Decimal(0),
    principal: new Decimal(0),
    interest: new Decimal(0),
    fee: new Decimal(0),
    penalty: new Decimal(0),
  };
  const lines: StatementLine[] = moves.map((raw) => {
    // A 核销坏账 lowers the principal balance by what it wrote off and receives nothing: only its
    // principal is shown (the interest, fee and penalty it closed were never received).
    const writtenOff = NOTHING_RECEIVED.has(raw.kind);
    const m = writtenOff ? { ...raw, interest: '0', fee: '0', penalty: '0' } : raw;
    const received = writtenOff
      ? new Decimal(0)
      : new Decimal(m.principal).plus(m.interest).plus(m.fee).plus(m.penalty);
    balance = balance.plus(m.disbursed).minus(m.principal);
    sums.disbursed = sums.disbursed.plus(m.disbursed);
    sums.netPaid = sums.netPaid.plus(m.net_paid);
    sums.deducted = sums.deducted.plus(m.deducted);
    sums.received = sums.received.plus(received);
    sums.principal = sums.principal.plus(m.principal);
    sums.interest = sums.interest.plus(m.interest);
    sums.fee = sums.fee.plus(m.fee);
    sums.penalty = sums.penalty.plus(m.penalty);
    return {
      date: m.date,
      kind: m.kind,
      docCode: m.doc_code,
      contBizCode: m.cont_biz_code,
      contractNo: m.contract_no,
      disbursed: money(m.disbursed),
      netPaid: money(m.net_paid),
      deducted: money(m.deducted),
      received: received.toFixed(2),
      principal: money(m.principal),
      interest: money(m.interest),
      fee: money(m.fee),
      penalty: money(m.penalty),
      balance: balance.toFixed(2),
      remark: m.remark ?? '',
    };
  });
  const closing = await principalBalance(ex, cs, q.dateTo);
  return {
    custCode: head.cust_code,
    custName: head.cust_name,
    contBizCode: q.contBizCode ? head.biz_code : null,
    contractNo: q.contBizCode ? head.contract_no : null,
    dateFrom: q.dateFrom,
    dateTo: q.dateTo,
    opening,
    lines,
    totals: {
      disbursed: sums.disbursed.toFixed(2),
      netPaid: sums.netPaid.toFixed(2),
      deducted: sums.deducted.toFixed(2),
      received: sums.received.toFixed(2),
      principal: sums.principal.toFixed(2),
      interest: sums.interest.toFixed(2),
      fee: sums.fee.toFixed(2),
      penalty: sums.penalty.toFixed(2),
    },
    closing,
    closingCapitals: toChineseCapitals(closing),
  };
}
