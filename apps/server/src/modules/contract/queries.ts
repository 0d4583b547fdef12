import Decimal from 'decimal.js';
import { and, asc, desc, eq, inArray, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type {
  ContractInfo,
  ContractPick,
  ContractListRow,
  ContractReceivable,
  contractListSchema,
  PayerItem,
} from '@portal/contract/contract';
import type { Page } from '@portal/contract/api';
import type { Db, Executor } from '../../platform/db/client';
import { queryRows } from '../../platform/db/client';
import { conflict, notFound } from '../../platform/errors';
import {
  afterKey,
  keyColumns,
  keysetOrder,
  likePattern,
  page,
  type KeysetPages,
  type RowKey,
  type SortKey,
} from '../../platform/http/list';
import type { ScopeUser } from '../../platform/auth/data-scope';
import { tableScope } from '../../platform/auth/row-scope';
import { tallyTotal } from './tally';
import { overdueItems } from './overdue';
import { contractChanges, contractPayers, contractReceivables, contracts } from './schema';

/*
 * The contract's reads (docs/architecture.md "Modules"): the row and its scope, the pickers, the
 * info view with its invoices and payers, the list, and the usage checks other modules' deletes ask.
 * The writes stay in service.ts.
 */

export type ContractRow = typeof contracts.$inferSelect;
export const CONTRACT = '合同';
export const live = isNull(contracts.deletedAt);
export const fmt = (d: Decimal.Value) => new Decimal(d).toFixed(2);

/**
 * The contracts the user may see: made in their organisation or below (the maker's organisation,
 * stamped at creation), or by themselves. A contract's documents follow it (row-scope.ts).
 */
export function scopeOf(user: ScopeUser): SQL {
  return tableScope(user, contracts);
}

/** How many contracts a picker offers at once: the user narrows by typing. */
const PICK_LIMIT = 20;

/**
 * A contract picker's choices: the user's contracts whose 合同号 or customer name contains the
 * keyword (case-insensitive), newest first, at most PICK_LIMIT.
 */
export async function pickContracts(
  ex: Executor,
  keyword: string | undefined,
  user: ScopeUser,
): Promise<ContractPick[]> {
  const pat = keyword ? likePattern(keyword) : undefined;
  return ex
    .select({ bizCode: contracts.bizCode, contractNo: contracts.contractNo, custName: contracts.custName })
    .from(contracts)
    .where(
      and(
        live,
        scopeOf(user),
        pat
          ? or(sql`${contracts.contractNo} ilike ${pat}`, sql`${contracts.custName} ilike ${pat}`)
          : undefined,
      ),
    )
    .orderBy(desc(contracts.id))
    .limit(PICK_LIMIT);
}

export async function findContract(ex: Executor, bizCode: string, user?: ScopeUser): Promise<ContractRow> {
  const [row] = await ex
    .select()
    .from(contracts)
    .where(and(eq(contracts.bizCode, bizCode), live, user ? scopeOf(user) : undefined))
    .limit(1);
  if (!row) throw notFound(CONTRACT);
  return row;
}

/** What the money documents (prepayment, write-off, 放款) need: an approved contract, not settled. */
export function requireEffective(row: ContractRow, what: string): void {
  if (row.state !== 'approved' || row.status === 'none') throw conflict(`合同未审核通过，不能${what}`);
  if (row.status === 'settled') throw conflict(`合同已结清，不能${what}`);
  if (row.status === 'writtenOff') throw conflict(`合同已核销坏账，不能${what}`);
}

// ---------------------------------------------------------------------------------------------
// Reading

export async function receivablesOf(ex: Executor, contractId: number): Promise<ContractReceivable[]> {
  const rows = await ex
    .select()
    .from(contractReceivables)
    .where(eq(contractReceivables.contractId, contractId))
    .orderBy(asc(contractReceivables.sort), asc(contractReceivables.id));
  return rows.map(toReceivable);
}

/** A stored invoice row (a contract's or a credit's) as the API answers it. */
export function toReceivable(r: {
  invoiceCode: string;
  invoiceNo: string;
  invoiceDate: string;
  amount: string;
  debtorName: string;
  debtorCode: string | null;
  dueDate: string;
  remark: string | null;
}): ContractReceivable {
  return {
    invoiceCode: r.invoiceCode,
    invoiceNo: r.invoiceNo,
    invoiceDate: r.invoiceDate,
    amount: r.amount,
    debtorName: r.debtorName,
    debtorCode: r.debtorCode ?? undefined,
    dueDate: r.dueDate,
    remark: r.remark ?? undefined,
  };
}

export async function payersOf(ex: Executor, contractId: number): Promise<PayerItem[]> {
  const rows = await ex
    .select()
    .from(contractPayers)
    .where(eq(contractPayers.contractId, contractId))
    .orderBy(asc(contractPayers.sort), asc(contractPayers.id));
  return rows.map((p) => ({
    payerName: p.payerName,
    payerCode: p.payerCode ?? undefined,
    accountName: p.accountName ?? undefined,
    accountNo: p.accountNo ?? undefined,
    bankName: p.bankName ?? undefined,
    remark: p.remark ?? undefined,
  }));
}

async function openChangeOf(ex: Executor, contractId: number): Promise<string | null> {
  const [c] = await ex
    .select({ code: contractChanges.bizCode })
    .from(contractChanges)
    .where(
      and(
        eq(contractChanges.contractId, contractId),
        isNull(contractChanges.deletedAt),
        ne(contractChanges.state, 'approved'),
      ),
    )
    .limit(1);
  return c?.code ?? null;
}

export async function viewInfo(ex: Executor, row: ContractRow): Promise<ContractInfo> {
  const names = await queryRows<{
    rule_name: string | null;
    bank_name: string | null;
    account_no: string | null;
    dept_name: string | null;
    manager_name: string | null;
    maker_name: string | null;
  }>(
    ex,
    sql`select (select name from interest_rules where biz_code = ${row.ruleBizCode}) as rule_name,
               (select b.account_name from bank_accounts b where b.biz_code = ${row.bankBizCode}) as bank_name,
               (select b.account_no from bank_accounts b where b.biz_code = ${row.bankBizCode}) as account_no,
               (select name from depts where biz_code = ${row.deptCode}) as dept_name,
               (select real_name from users where id = ${row.managerId}) as manager_name,
               (select real_name from users where id = ${row.createdBy}) as maker_name`,
  );
  const n = names[0]!;
  return {
    bizCode: row.bizCode,
    version: row.version,
    state: row.state as ContractInfo['state'],
    status: row.status as ContractInfo['status'],
    loanState: row.loanState as ContractInfo['loanState'],
    contractNo: row.contractNo,
    recourse: row.recourse as ContractInfo['recourse'],
    disclosure: row.disclosure as ContractInfo['disclosure'],
    product: row.product as ContractInfo['product'],
    custCode: row.custCode,
    custName: row.custName,
    coreCompCode: row.coreCompCode,
    coreCompName: row.coreCompName,
    platCredBizCode: row.platCredBizCode,
    lineCode: row.lineCode,
    financingRatio: row.financingRatio,
    financingAmount: row.financingAmount,
    marginRatio: row.marginRatio,
    receivablesAmount: row.receivablesAmount,
    currency: row.currency,
    startDate: row.startDate,
    maturityDate: row.maturityDate,
    ruleBizCode: row.ruleBizCode,
    ruleName: n.rule_name,
    bankBizCode: row.bankBizCode,
    bankName: n.bank_name,
    bankAccountNo: n.account_no,
    deptCode: row.deptCode,
    deptName: n.dept_name,
    managerId: row.managerId,
    managerName: n.manager_name,
    remark: row.remark,
    occupiedAmount: row.occupiedAmount,
    loanDate: row.loanDate,
    loanAmount: row.loanAmount,
    loanBizCode: row.loanBizCode,
    openChangeCode: await openChangeOf(ex, row.id),
    submittedAt: row.submittedAt,
    approvedAt: row.approvedAt,
    createdByName: n.maker_name,
    updatedAt: row.updatedAt,
    receivables: await receivablesOf(ex, row.id),
    payers: await payersOf(ex, row.id),
  };
}

type ListInput = z.output<typeof contractListSchema>;

/** The list's sort: the column asked for (newest first unless told), then the tie-breakers. */
function contractSortKeys(q: ListInput): SortKey[] {
  const columns: Record<string, Omit<SortKey, 'dir'>> = {
    bizCode: { expr: contracts.bizCode, type: 'text' },
    contractNo: { expr: contracts.contractNo, type: 'text' },
    custName: { expr: contracts.custName, type: 'text' },
    financingAmount: { expr: contracts.financingAmount, type: 'numeric' },
    startDate: { expr: contracts.startDate, type: 'date' },
    maturityDate: { expr: contracts.maturityDate, type: 'date' },
    updatedAt: { expr: contracts.updatedAt, type: 'timestamptz' },
  };
  const asked = q.orderBy ? columns[q.orderBy] : undefined;
  return [
    ...(asked ? [{ ...asked, dir: q.order === 'asc' ? ('asc' as const) : ('desc' as const) }] : []),
    { expr: contracts.updatedAt, dir: 'desc', type: 'timestamptz' },
    { expr: contracts.id, dir: 'desc', type: 'bigint' },
  ];
}

/**
 * The 逾期 filter: the contracts with an item overdue on `today` as the dashboard finds them
 * (contract/overdue.ts, itemAsOf), so an item whose principal and interest were paid late but whose
 * penalty is still owed counts too (docs/money-rules.md "Figures as of a date"). With a due-date
 * range, only overdue items due in it count.
 */
async function overdueFilter(
  db: Db,
  user: ScopeUser,
  today: string,
  dueFrom: string | undefined,
  dueTo: string | undefined,
): Promise<SQL> {
  const inForce = sql`(select ${contracts.id} as id from ${contracts}
    where ${contracts.deletedAt} is null and ${contracts.status} = 'effective'
      and ${contracts.loanState} = 'loaned' and ${scopeOf(user)})`;
  const ids = new Set(
    (await overdueItems(db, inForce, today))
      .filter((o) => (!dueFrom || o.dueDate >= dueFrom) && (!dueTo || o.dueDate <= dueTo))
      .map((o) => o.contractId),
  );
  return ids.size ? inArray(contracts.id, [...ids]) : sql`false`;
}

export async function listContracts(
  db: Db,
  q: ListInput,
  user: ScopeUser,
  today: string,
  pages: KeysetPages,
): Promise<Page<ContractListRow>> {
  const cond = and(
    live,
    scopeOf(user),
    q.bizCode ? eq(contracts.bizCode, q.bizCode) : undefined,
    q.contractNo ? sql`${contracts.contractNo} ilike ${likePattern(q.contractNo)}` : undefined,
    q.custName ? sql`${contracts.custName} ilike ${likePattern(q.custName)}` : undefined,
    q.state ? eq(contracts.state, q.state) : undefined,
    q.status ? eq(contracts.status, q.status) : undefined,
    q.loanState ? eq(contracts.loanState, q.loanState) : undefined,
    q.startDateFrom ? sql`${contracts.startDate} >= ${q.startDateFrom}` : undefined,
    q.startDateTo ? sql`${contracts.startDate} <= ${q.startDateTo}` : undefined,
    q.maturityFrom ? sql`${contracts.maturityDate} >= ${q.maturityFrom}` : undefined,
    q.maturityTo ? sql`${contracts.maturityDate} <= ${q.maturityTo}` : undefined,
    q.financingAmountStart ? sql`${contracts.financingAmount} >= ${q.financingAmountStart}` : undefined,
    q.financingAmountEnd ? sql`${contracts.financingAmount} <= ${q.financingAmountEnd}` : undefined,
    q.overdue
      ? await overdueFilter(db, user, today, q.itemDueFrom, q.itemDueTo)
      : q.itemDueFrom || q.itemDueTo
        ? sql`${contracts.status} = 'effective' and ${contracts.loanState} = 'loaned' and exists (select 1 from contract_plan_items i
              where i.contract_id = ${contracts.id} and i.superseded_by is null
                and i.principal + i.interest + i.fee > i.principal_paid + i.interest_paid + i.fee_paid
                ${q.itemDueFrom ? sql`and i.due_date >= ${q.itemDueFrom}::date` : sql``}
                ${q.itemDueTo ? sql`and i.due_date <= ${q.itemDueTo}::date` : sql``})`
        : undefined,
  )!;
  const keys = contractSortKeys(q);
  const sorted = keysetOrder(keys);
  // A walk through the pages continues from the neighbouring page's boundary row instead of
  // skipping (n − 1) × pageSize entries (platform/http/list.ts, KeysetPages).
  const shape = JSON.stringify([user.userId, user.dataScope, user.deptId, today, { ...q, pageNum: 0 }]);
  const start = pages.start(shape, q);
  const pageIds = db
    .select({ id: contracts.id })
    .from(contracts)
    .where(start.kind === 'offset' ? cond : and(cond, afterKey(keys, start.key, start.kind === 'before')))
    .orderBy(...keysetOrder(keys, start.kind === 'before'))
    .limit(q.pageSize)
    .offset(start.kind === 'offset' ? start.offset : 0);
  // The page's ids by an index-only scan on the sort's covering index (migrations/0010), then only
  // those rows (page 500 does not read 10,000 wide rows to skip them), with the total from the
  // tally (migrations/0016) where it can answer: one statement, one round trip to the database.
  const totalOf = tallyTotal(q, user) ?? sql`(select count(*)::int from ${contracts} where ${cond})`;
  const rows = await db
    .select({
      bizCode: contracts.bizCode,
      contractNo: contracts.contractNo,
      custName: contracts.custName,
      product: contracts.product,
      financingAmount: contracts.financingAmount,
      startDate: contracts.startDate,
      maturityDate: contracts.maturityDate,
      state: contracts.state,
      status: contracts.status,
      loanState: contracts.loanState,
      // 转让通知 (docs/assignment-notice.md): a debtor of a disclosed contract neither confirmed nor waived.
      // (Qualified by hand: inside the subquery an unqualified "id" would be the receivable's.)
      noticeState: sql<string>`case when contracts.disclosure <> 'disclosed' then 'none'
        when exists (select 1 from contract_receivables cr where cr.contract_id = contracts.id and cr.live
          and not exists (select 1 from assignment_notices an
            where an.contract_id = cr.contract_id and an.debtor_name = cr.debtor_name
              and (an.confirm_date is not null or an.waived_at is not null))) then 'pending'
        else 'confirmed' end`,
      principalOpen: contracts.principalOpen,
      updatedAt: contracts.updatedAt,
      total: sql<number>`${totalOf}`.mapWith(Number),
      key: sql<RowKey>`${keyColumns(keys)}`,
    })
    .from(contracts)
    .where(inArray(contracts.id, pageIds))
    .orderBy(...sorted);
  if (rows.length) pages.served(shape, q.pageNum, rows[0]!.key, rows[rows.length - 1]!.key);
  // A page past the end carries no row to carry the total.
  const total = rows[0]?.total ?? (q.pageNum > 1 ? await totalAlone(db, totalOf) : 0);
  return page(
    rows.map(({ principalOpen, total: _, key: __, ...r }) => ({
      ...r,
      // 在贷本金 counts disbursed principal only: nothing is outstanding before the 放款单 is approved.
      principalOutstanding: r.status === 'none' || r.loanState !== 'loaned' ? '0.00' : fmt(principalOpen),
      state: r.state as ContractListRow['state'],
      status: r.status as ContractListRow['status'],
      loanState: r.loanState as ContractListRow['loanState'],
      noticeState: r.noticeState as ContractListRow['noticeState'],
      product: r.product as ContractListRow['product'],
    })),
    total,
    q,
  );
}

async function totalAlone(db: Db, totalOf: SQL): Promise<number> {
  const [row] = await queryRows<{ n: number }>(db, sql`select ${totalOf} as n`);
  return Number(row?.n ?? 0);
}
