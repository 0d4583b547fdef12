import Decimal from 'decimal.js';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Page } from '@portal/contract/api';
import {
  type LoanFigures,
  type LoanRedView,
  type LoanRow,
  type LoanView,
  type UpfrontKind,
  type loanListSchema,
} from '@portal/contract/loan';
import type { Db, Executor } from '../../platform/db/client';
import { queryRows } from '../../platform/db/client';
import { notFound } from '../../platform/errors';
import { countOf, likePattern, offsetOf, orderClause, page } from '../../platform/http/list';
import type { ScopeUser } from '../../platform/auth/data-scope';
import { contracts } from '../contract/schema';
import { scopeOf } from '../contract';
import { loanLines, loanReds, loans } from './schema';

/* The 放款单's reads (docs/architecture.md "Modules"): one by code, the list, the views. */

export type LoanRecord = typeof loans.$inferSelect;
export const WHAT = '放款单';
export const live = isNull(loans.deletedAt);
export const liveRed = isNull(loanReds.deletedAt);
export const money = (v: Decimal.Value) => new Decimal(v).toFixed(2);

export async function findLoan(ex: Executor, code: string, user?: ScopeUser): Promise<LoanRecord> {
  const [row] = await ex
    .select({ l: loans })
    .from(loans)
    .innerJoin(contracts, eq(contracts.id, loans.contractId))
    .where(and(eq(loans.bizCode, code), live, user ? scopeOf(user) : undefined));
  if (!row) throw notFound(WHAT);
  return row.l;
}

const rowColumns = {
  loanBizCode: loans.bizCode,
  contBizCode: contracts.bizCode,
  contractNo: contracts.contractNo,
  custName: contracts.custName,
  valueDate: loans.valueDate,
  financingAmount: loans.financingAmount,
  deductedAmount: loans.deductedAmount,
  returnedAmount: loans.returnedAmount,
  netAmount: loans.netAmount,
  serialNo: loans.serialNo,
  state: loans.state,
  redState: loans.redState,
  redReason: loans.redReason,
  redBizCode: sql<string | null>`(select r.biz_code from loan_reds r
    where r.loan_id = ${loans.id} and r.deleted_at is null)`,
  redDocState: sql<string | null>`(select r.state from loan_reds r
    where r.loan_id = ${loans.id} and r.deleted_at is null)`,
  updatedAt: loans.updatedAt,
};
type RawRow = Omit<LoanRow, 'state' | 'redState' | 'redDocState'> & {
  state: string;
  redState: string;
  redDocState: string | null;
};
const toRow = (r: RawRow): LoanRow => ({
  ...r,
  state: r.state as LoanRow['state'],
  redState: r.redState as LoanRow['redState'],
  redDocState: r.redDocState as LoanRow['redDocState'],
});

export async function listLoans(
  db: Db,
  q: z.output<typeof loanListSchema>,
  user: ScopeUser,
): Promise<Page<LoanRow>> {
  const cond = and(
    live,
    scopeOf(user),
    q.loanBizCode ? eq(loans.bizCode, q.loanBizCode) : undefined,
    q.contBizCode ? eq(contracts.bizCode, q.contBizCode) : undefined,
    q.contractNo ? sql`${contracts.contractNo} ilike ${likePattern(q.contractNo)}` : undefined,
    q.custName ? sql`${contracts.custName} ilike ${likePattern(q.custName)}` : undefined,
    q.state ? eq(loans.state, q.state) : undefined,
    q.redState ? eq(loans.redState, q.redState) : undefined,
    q.valueDateFrom ? sql`${loans.valueDate} >= ${q.valueDateFrom}` : undefined,
    q.valueDateTo ? sql`${loans.valueDate} <= ${q.valueDateTo}` : undefined,
  )!;
  const rows = await db
    .select(rowColumns)
    .from(loans)
    .innerJoin(contracts, eq(contracts.id, loans.contractId))
    .where(cond)
    .orderBy(
      ...orderClause(
        q,
        { valueDate: loans.valueDate, netAmount: loans.netAmount, updatedAt: loans.updatedAt },
        [sql`${loans.updatedAt} desc`, sql`${loans.id} desc`],
      ),
    )
    .limit(q.pageSize)
    .offset(offsetOf(q));
  const total = await countOf(
    db,
    sql`from ${loans} inner join ${contracts} on ${contracts.id} = ${loans.contractId} where ${cond}`,
  );
  return page(rows.map(toRow), total, q);
}

export async function viewLoan(ex: Executor, code: string, user: ScopeUser): Promise<LoanView> {
  const [r] = await ex
    .select({
      ...rowColumns,
      id: loans.id,
      version: loans.version,
      custCode: contracts.custCode,
      startDate: contracts.startDate,
      maturityDate: contracts.maturityDate,
      payBankBizCode: loans.payBankBizCode,
      payeeBankBizCode: loans.payeeBankBizCode,
      remark: loans.remark,
      createdBy: loans.createdBy,
    })
    .from(loans)
    .innerJoin(contracts, eq(contracts.id, loans.contractId))
    .where(and(eq(loans.bizCode, code), live, scopeOf(user)));
  if (!r) throw notFound(WHAT);
  const { id, createdBy, ...rest } = r;
  const names = await queryRows<{
    pay_name: string | null;
    pay_no: string | null;
    payee_name: string | null;
    payee_no: string | null;
    maker: string | null;
  }>(
    ex,
    sql`select (select account_name from bank_accounts where biz_code = ${r.payBankBizCode}) as pay_name,
               (select account_no from bank_accounts where biz_code = ${r.payBankBizCode}) as pay_no,
               (select account_name from bank_accounts where biz_code = ${r.payeeBankBizCode}) as payee_name,
               (select account_no from bank_accounts where biz_code = ${r.payeeBankBizCode}) as payee_no,
               (select real_name from users where id = ${createdBy}) as maker`,
  );
  const n = names[0]!;
  const lines = await ex
    .select()
    .from(loanLines)
    .where(eq(loanLines.loanId, id))
    .orderBy(asc(loanLines.sort));
  const figures: LoanFigures = {
    financingAmount: r.financingAmount,
    lines: lines.map((l) => ({
      dueId: l.dueId,
      kind: l.kind as UpfrontKind,
      amount: l.amount,
      dueAmount: l.dueAmount,
      prepaid: l.prepaid,
      deducted: l.deducted,
      returned: l.returned,
    })),
    deductedTotal: r.deductedAmount,
    returnedTotal: r.returnedAmount,
    prepaidTotal: money(lines.reduce((s, l) => s.plus(l.prepaid), new Decimal(0))),
    netAmount: r.netAmount,
  };
  return {
    ...toRow(rest),
    ...figures,
    version: rest.version,
    custCode: rest.custCode,
    startDate: rest.startDate,
    maturityDate: rest.maturityDate,
    payBankBizCode: rest.payBankBizCode,
    payBankName: n.pay_name,
    payAccountNo: n.pay_no,
    payeeBankBizCode: rest.payeeBankBizCode,
    payeeBankName: n.payee_name,
    payeeAccountNo: n.payee_no,
    remark: rest.remark,
    createdByName: n.maker,
  };
}

/** A 放款单冲红 entry with the 放款单 it reverses (the checker's screen). */
export async function viewLoanRed(ex: Executor, code: string, user: ScopeUser): Promise<LoanRedView> {
  const [r] = await ex
    .select({ red: loanReds, loanCode: loans.bizCode })
    .from(loanReds)
    .innerJoin(loans, eq(loans.id, loanReds.loanId))
    .innerJoin(contracts, eq(contracts.id, loans.contractId))
    .where(and(eq(loanReds.bizCode, code), liveRed, scopeOf(user)));
  if (!r) throw notFound('放款单冲红');
  const [maker] = await queryRows<{ name: string | null }>(
    ex,
    sql`select real_name as name from users where id = ${r.red.createdBy}`,
  );
  return {
    loanRedBizCode: r.red.bizCode,
    loanBizCode: r.loanCode,
    reason: r.red.reason,
    state: r.red.state as LoanRedView['state'],
    createdByName: maker?.name ?? null,
    updatedAt: r.red.updatedAt,
    loan: await viewLoan(ex, r.loanCode, user),
  };
}
