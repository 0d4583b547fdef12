import Decimal from 'decimal.js';
import { and, asc, desc, eq, gte, ilike, inArray, isNull, lte, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type {
  CreditListRow,
  CreditView,
  creditListSchema,
  Cycle,
  DocState,
  FtRow,
  GuaranteeMode,
  HistoryRow,
  LineKind,
  Movement,
  ReceivableRow,
  UtilisationRow,
} from '@portal/contract/credit';
import type { FileInfo } from '@portal/contract/files';
import type { Page } from '@portal/contract/api';
import type { Db, Executor } from '../../platform/db/client';
import { notFound } from '../../platform/errors';
import { countOf, likePattern, offsetOf, orderClause, page } from '../../platform/http/list';
import { listFiles } from '../files';
import { figures, lineOfCreditIn } from './ledger';
import { creditFtItems, creditLedger, creditLines, creditReceivables, credits } from './schema';

/*
 * The 授信's reads (docs/architecture.md "Modules"): the credit by code, its views, list, history,
 * files and utilisation. The writes stay in service.ts.
 */

export type CreditRow = typeof credits.$inferSelect;
const live = isNull(credits.deletedAt);
const parentLine = alias(creditLines, 'parent_line');
export const fmt = (v: string | Decimal) => new Decimal(v).toFixed(2);
export const WHAT = '授信';

async function platformLineOf(ex: Executor, creditId: number) {
  const [line] = await ex
    .select()
    .from(creditLines)
    .where(and(eq(creditLines.creditId, creditId), eq(creditLines.kind, 'platform')));
  return line;
}

function toView(r: CreditRow, line: typeof creditLines.$inferSelect | undefined): CreditView {
  return {
    bizCode: r.bizCode,
    version: r.version,
    state: r.state as DocState,
    custCode: r.custCode,
    custName: r.custName,
    // Once approved the ledger's line is the figure (an approved 提额 raises it); before, the request.
    limitAmount: fmt(line ? line.limitAmount : r.limitAmount),
    currency: r.currency,
    startDate: r.startDate,
    endDate: r.endDate,
    cycle: r.cycle as Cycle,
    product: r.product,
    guaranteeMode: r.guaranteeMode as GuaranteeMode,
    remark: r.remark,
    createdByName: null,
    submittedAt: r.submittedAt,
    approvedAt: r.approvedAt,
    updatedAt: r.updatedAt,
    line: line ? figures(line) : null,
  };
}

export async function getCredit(ex: Executor, bizCode: string): Promise<CreditRow> {
  const [row] = await ex
    .select()
    .from(credits)
    .where(and(eq(credits.bizCode, bizCode), live));
  if (!row) throw notFound(WHAT);
  return row;
}

export async function viewPlatform(ex: Executor, bizCode: string): Promise<CreditView> {
  const row = await getCredit(ex, bizCode);
  return toView(row, await platformLineOf(ex, row.id));
}

export async function listCredits(
  db: Db,
  q: z.output<typeof creditListSchema>,
  /** The caller's data scope (tableScope). */
  scope: SQL,
): Promise<Page<CreditListRow>> {
  const where: SQL[] = [live, scope];
  if (q.bizCode) where.push(eq(credits.bizCode, q.bizCode));
  if (q.custCode) where.push(eq(credits.custCode, q.custCode));
  if (q.custName) where.push(ilike(credits.custName, likePattern(q.custName)));
  if (q.state) where.push(eq(credits.state, q.state));
  if (q.cycle) where.push(eq(credits.cycle, q.cycle));
  if (q.endDateStart) where.push(gte(credits.endDate, q.endDateStart));
  if (q.endDateEnd) where.push(lte(credits.endDate, q.endDateEnd));
  if (q.limitAmountStart) where.push(gte(credits.limitAmount, q.limitAmountStart));
  if (q.limitAmountEnd) where.push(lte(credits.limitAmount, q.limitAmountEnd));
  const cond = and(...where)!;
  const rows = await db
    .select({ c: credits, l: creditLines })
    .from(credits)
    .leftJoin(creditLines, and(eq(creditLines.creditId, credits.id), eq(creditLines.kind, 'platform')))
    .where(cond)
    .orderBy(
      ...orderClause(
        q,
        {
          bizCode: credits.bizCode,
          custName: credits.custName,
          limitAmount: credits.limitAmount,
          startDate: credits.startDate,
          endDate: credits.endDate,
          updatedAt: credits.updatedAt,
        },
        [desc(credits.id)],
      ),
    )
    .limit(q.pageSize)
    .offset(offsetOf(q));
  const total = await countOf(db, sql`from ${credits} where ${cond}`);
  return page(
    rows.map(({ c, l }) => {
      const { line, ...v } = toView(c, l ?? undefined);
      return {
        ...v,
        limitAmount: line ? line.limitAmount : v.limitAmount,
        endDate: line ? line.endDate : v.endDate,
        occupiedAmount: line?.occupiedAmount ?? null,
        availableAmount: line?.availableAmount ?? null,
        frozen: line?.frozen ?? null,
      };
    }),
    total,
    q,
  );
}

export async function viewFt(ex: Executor, bizCode: string): Promise<FtRow[]> {
  const c = await getCredit(ex, bizCode);
  const rows = await ex
    .select()
    .from(creditFtItems)
    .where(eq(creditFtItems.creditId, c.id))
    .orderBy(asc(creditFtItems.sort), asc(creditFtItems.id));
  const lines = await ex
    .select()
    .from(creditLines)
    .where(and(eq(creditLines.creditId, c.id), eq(creditLines.kind, 'debtor')));
  const platform = await platformLineOf(ex, c.id);
  return rows.map((r) => {
    const line = lines.find((l) => l.debtorName === r.debtorName);
    return {
      id: r.id,
      debtorCode: r.debtorCode ?? undefined,
      debtorName: r.debtorName,
      limitAmount: fmt(r.limitAmount),
      financingRatio: new Decimal(r.financingRatio).toFixed(4),
      recourse: r.recourse as FtRow['recourse'],
      remark: r.remark ?? undefined,
      line: line ? figures(line, platform?.bizCode ?? null) : null,
    };
  });
}

export async function viewReceivables(ex: Executor, bizCode: string): Promise<ReceivableRow[]> {
  const c = await getCredit(ex, bizCode);
  const rows = await ex
    .select()
    .from(creditReceivables)
    .where(eq(creditReceivables.creditId, c.id))
    .orderBy(asc(creditReceivables.sort), asc(creditReceivables.id));
  return rows.map((r) => ({
    id: r.id,
    invoiceCode: r.invoiceCode,
    invoiceNo: r.invoiceNo,
    invoiceDate: r.invoiceDate,
    amount: fmt(r.amount),
    debtorName: r.debtorName,
    debtorCode: r.debtorCode ?? undefined,
    dueDate: r.dueDate,
    remark: r.remark ?? undefined,
    verifyState: r.verifyState as ReceivableRow['verifyState'],
    verifyMsg: r.verifyMsg,
  }));
}

/** Every movement of every line of the credit (its platform, factoring and distribution lines), oldest first. */
export async function creditHistory(ex: Executor, bizCode: string): Promise<HistoryRow[]> {
  const c = await getCredit(ex, bizCode);
  const rows = await ex
    .select({ e: creditLedger, lineCode: creditLines.bizCode, kind: creditLines.kind })
    .from(creditLedger)
    .innerJoin(creditLines, eq(creditLines.id, creditLedger.lineId))
    .where(eq(creditLines.creditId, c.id))
    .orderBy(asc(creditLedger.id));
  return rows.map(({ e, lineCode, kind }) => ({
    id: e.id,
    lineCode,
    lineKind: kind as LineKind,
    movement: e.movement as Movement,
    amount: fmt(e.amount),
    limitAfter: fmt(e.limitAfter),
    occupiedAfter: fmt(e.occupiedAfter),
    reservedAfter: fmt(e.reservedAfter),
    docType: e.docType,
    docCode: e.docCode,
    reason: e.reason,
    bizDate: e.bizDate,
    actorName: e.actorName,
    at: e.at,
  }));
}

export async function credFiles(ex: Executor, bizCode: string): Promise<FileInfo[]> {
  const c = await getCredit(ex, bizCode);
  return listFiles(ex, 'credit', c.bizCode);
}

/** A customer's files: its CRM files and those of its credits. */
/** A customer's files and those of its credits inside the caller's data scope (`scope`). */
export async function custFiles(ex: Executor, custCode: string, scope: SQL): Promise<FileInfo[]> {
  const own = await listFiles(ex, 'company', custCode);
  const docs = await ex
    .select({ bizCode: credits.bizCode })
    .from(credits)
    .where(and(eq(credits.custCode, custCode), live, scope))
    .orderBy(asc(credits.id));
  const out = [...own];
  for (const d of docs) out.push(...(await listFiles(ex, 'credit', d.bizCode)));
  return out;
}

/**
 * Utilisation per customer over its platform and distribution lines (debtor lines are inside
 * their platform line's figures): limit = Σ (limit − reserved) (what was carved out for a
 * distribution child counts on the child), occupied = Σ occupied, frozen = what a frozen line
 * (or whose parent is frozen) still had available, available = limit − occupied − frozen.
 */
export async function utilisation(
  ex: Executor,
  q: { custCode?: string | undefined; custName?: string | undefined },
  /** The caller's data scope over the lines' credits, aliased `scoped_credit` (aliasScope). */
  creditScope: SQL,
): Promise<UtilisationRow[]> {
  const where: SQL[] = [
    lineOfCreditIn(creditScope),
    eq(creditLines.state, 'active'),
    inArray(creditLines.kind, ['platform', 'distribution']),
  ];
  if (q.custCode) where.push(eq(creditLines.custCode, q.custCode));
  if (q.custName) where.push(ilike(creditLines.custName, likePattern(q.custName)));
  const rows = await ex
    .select({ l: creditLines, parentFrozen: parentLine.frozen })
    .from(creditLines)
    .leftJoin(parentLine, eq(parentLine.id, creditLines.parentLineId))
    .where(and(...where))
    .orderBy(asc(creditLines.custCode), asc(creditLines.id));
  const by = new Map<
    string,
    { name: string; limit: Decimal; occupied: Decimal; reserved: Decimal; frozen: Decimal }
  >();
  for (const { l, parentFrozen } of rows) {
    const acc = by.get(l.custCode) ?? {
      name: l.custName,
      limit: new Decimal(0),
      occupied: new Decimal(0),
      reserved: new Decimal(0),
      frozen: new Decimal(0),
    };
    const own = new Decimal(l.limitAmount).minus(l.reservedAmount);
    acc.limit = acc.limit.plus(own);
    acc.occupied = acc.occupied.plus(l.occupiedAmount);
    acc.reserved = acc.reserved.plus(l.reservedAmount);
    if (l.frozen || parentFrozen) acc.frozen = acc.frozen.plus(own.minus(l.occupiedAmount));
    by.set(l.custCode, acc);
  }
  return [...by.entries()].map(([custCode, a]) => ({
    custCode,
    custName: a.name,
    limitAmount: fmt(a.limit),
    occupiedAmount: fmt(a.occupied),
    reservedAmount: fmt(a.reserved),
    frozenAmount: fmt(a.frozen),
    availableAmount: fmt(a.limit.minus(a.occupied).minus(a.frozen)),
  }));
}
