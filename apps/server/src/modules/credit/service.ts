import Decimal from 'decimal.js';
import { and, asc, desc, eq, gte, ilike, inArray, isNull, lte, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type {
  CreditListRow,
  CreditView,
  creditListSchema,
  credFileSaveSchema,
  Cycle,
  DocState,
  FtRow,
  ftSaveSchema,
  GuaranteeMode,
  HistoryRow,
  invoiceVerificationSchema,
  LineKind,
  Movement,
  platformSaveSchema,
  ReceivableRow,
  receivablesSaveSchema,
  UtilisationRow,
} from '@portal/contract/credit';
import type { FileInfo } from '@portal/contract/files';
import type { Page } from '@portal/contract/api';
import type { Db, Executor, Tx } from '../../platform/db/client';
import type { Config } from '../../platform/config';
import type { BusinessClock } from '../../platform/clock';
import { nextCode } from '../../platform/db/codes';
import type { Actor } from '../../platform/db/audit';
import { runCommand } from '../../platform/db/command';
import type { WorkflowRegistry, Written } from '../workflow';
import { updateVersioned } from '../../platform/db/versioned';
import { badInput, conflict, notFound } from '../../platform/errors';
import { countOf, likePattern, offsetOf, orderClause, page } from '../../platform/http/list';
import { requireAdmittedCustomer } from '../company';
import { linkDebtors } from '../debtor';
import { listFiles, setDocumentFiles } from '../files';
import { deleteDoc, editableDoc } from './flow';
import { requireGuaranteeInForce } from './guarantees';
import { checkReceivables, verifyInvoices } from './invoices';
import { createLine, figures, lineOfCreditIn } from './ledger';
import { creditFtItems, creditLedger, creditLines, creditReceivables, credits } from './schema';
import { formatYuan } from '@portal/contract/format';

export interface CreditDeps {
  db: Db;
  config: Config;
  clock: BusinessClock;
  /** The portal's document types (the credit's editable check). */
  workflow: WorkflowRegistry;
}

type CreditRow = typeof credits.$inferSelect;
const live = isNull(credits.deletedAt);
const parentLine = alias(creditLines, 'parent_line');
const fmt = (v: string | Decimal) => new Decimal(v).toFixed(2);
const WHAT = '授信';

// ---------------------------------------------------------------------------------------------
// Reads

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

// ---------------------------------------------------------------------------------------------
// Writes

/** Locks an editable credit and checks the version the client read; bumps it. */
async function editCredit(
  tx: Tx,
  workflow: WorkflowRegistry,
  bizCode: string,
  version: number,
  actor: Actor,
): Promise<CreditRow> {
  const head = await editableDoc(tx, workflow, 'credit', bizCode);
  await updateVersioned(tx, credits, eq(credits.id, head.id), version, {}, actor.userId, WHAT);
  return getCredit(tx, bizCode);
}

function checkFtAgainstLimit(limit: Decimal, items: { debtorName: string; limitAmount: string }[]): void {
  for (const i of items) {
    if (new Decimal(i.limitAmount).gt(limit))
      throw badInput(
        `保理子额度不能超过授信总额度：债务人「${i.debtorName}」子额度 ${formatYuan(i.limitAmount)}，总额度 ${formatYuan(limit)}`,
      );
  }
}

/** Writes the platform credit draft (the workflow pipeline audits, submits and answers). */
export async function savePlatform(
  tx: Tx,
  workflow: WorkflowRegistry,
  input: z.output<typeof platformSaveSchema>,
  actor: Actor,
): Promise<Written> {
  const cust = await requireAdmittedCustomer(tx, input.custCode);
  const values = {
    custCode: input.custCode,
    custName: cust.compName,
    limitAmount: fmt(input.limitAmount),
    currency: input.currency,
    startDate: input.startDate,
    endDate: input.endDate,
    cycle: input.cycle,
    product: input.product,
    guaranteeMode: input.guaranteeMode,
    remark: input.remark ?? null,
  };
  let bizCode = input.bizCode;
  let detail: unknown = values;
  if (!bizCode) {
    bizCode = await nextCode(tx, 'credit');
    await tx.insert(credits).values({ ...values, bizCode, createdBy: actor.userId, updatedBy: actor.userId });
  } else {
    if (input.version === undefined) throw badInput('版本号不能为空');
    const head = await editableDoc(tx, workflow, 'credit', bizCode);
    const before = await getCredit(tx, bizCode);
    await updateVersioned(tx, credits, eq(credits.id, head.id), input.version, values, actor.userId, WHAT);
    detail = {
      before: { limitAmount: before.limitAmount, startDate: before.startDate, endDate: before.endDate },
      after: values,
    };
  }
  const c = await getCredit(tx, bizCode);
  const ft = await tx.select().from(creditFtItems).where(eq(creditFtItems.creditId, c.id));
  checkFtAgainstLimit(new Decimal(c.limitAmount), ft);
  return { code: bizCode, detail };
}

/** What the approval process shows of a credit. */
export const creditSubmission = (c: CreditRow) => ({
  subject: `授信 ${c.custName} ${formatYuan(c.limitAmount)}`,
  amount: fmt(c.limitAmount),
});

export async function saveFt(deps: CreditDeps, input: z.output<typeof ftSaveSchema>, actor: Actor) {
  const cmd = { entity: 'credit', action: 'saveFactoring', code: input.credBizCode };
  return runCommand(deps.db, actor, cmd, async (tx, w) => {
    const c = await editCredit(tx, deps.workflow, input.credBizCode, input.version, actor);
    const names = new Set<string>();
    for (const [n, i] of input.items.entries()) {
      if (names.has(i.debtorName)) throw badInput(`保理授信第${n + 1}行：债务人「${i.debtorName}」重复`);
      names.add(i.debtorName);
    }
    // The debtor is a customer (docs/credit.md "Debtors"): checked when chosen, linked by exact name.
    const debtors = await linkDebtors(
      tx,
      input.items.map((i) => ({ name: i.debtorName, code: i.debtorCode })),
      (n) => `保理授信第${n + 1}行债务人`,
    );
    const linked = new Set<string>();
    for (const [n, code] of debtors.entries()) {
      if (code && linked.has(code))
        throw badInput(`保理授信第${n + 1}行：债务人「${input.items[n]!.debtorName}」重复`);
      if (code) linked.add(code);
    }
    checkFtAgainstLimit(new Decimal(c.limitAmount), input.items);
    await tx.delete(creditFtItems).where(eq(creditFtItems.creditId, c.id));
    if (input.items.length > 0) {
      await tx.insert(creditFtItems).values(
        input.items.map((i, sort) => ({
          creditId: c.id,
          debtorCode: debtors[sort] ?? null,
          debtorName: i.debtorName,
          limitAmount: fmt(i.limitAmount),
          financingRatio: i.financingRatio,
          recourse: i.recourse,
          remark: i.remark ?? null,
          sort,
        })),
      );
    }
    await w.audit({ code: c.bizCode, detail: { items: input.items } });
    return { bizCode: c.bizCode, version: c.version };
  });
}

export async function saveReceivables(
  deps: CreditDeps,
  input: z.output<typeof receivablesSaveSchema>,
  actor: Actor,
) {
  const cmd = { entity: 'credit', action: 'saveReceivables', code: input.credBizCode };
  return runCommand(deps.db, actor, cmd, async (tx, w) => {
    const c = await editCredit(tx, deps.workflow, input.credBizCode, input.version, actor);
    await checkReceivables(tx, input.items, deps.clock.today(), c.id);
    const debtors = await linkDebtors(
      tx,
      input.items.map((i) => ({ name: i.debtorName, code: i.debtorCode })),
      (n) => `应收账款第${n + 1}行债务人`,
    );
    const before = await tx.select().from(creditReceivables).where(eq(creditReceivables.creditId, c.id));
    const keep = new Map(before.map((r) => [`${r.invoiceCode}/${r.invoiceNo}`, r]));
    await tx.delete(creditReceivables).where(eq(creditReceivables.creditId, c.id));
    if (input.items.length > 0) {
      await tx.insert(creditReceivables).values(
        input.items.map((i, sort) => {
          // A verification verdict survives a re-save of the same, unchanged invoice.
          const old = keep.get(`${i.invoiceCode}/${i.invoiceNo}`);
          const same = old && old.invoiceDate === i.invoiceDate && new Decimal(old.amount).eq(i.amount);
          return {
            creditId: c.id,
            invoiceCode: i.invoiceCode,
            invoiceNo: i.invoiceNo,
            invoiceDate: i.invoiceDate,
            amount: fmt(i.amount),
            debtorName: i.debtorName,
            debtorCode: debtors[sort] ?? null,
            dueDate: i.dueDate,
            remark: i.remark ?? null,
            verifyState: same ? old.verifyState : 'unverified',
            verifyMsg: same ? old.verifyMsg : null,
            sort,
          };
        }),
      );
    }
    await w.audit({
      code: c.bizCode,
      detail: {
        count: input.items.length,
        total: fmt(input.items.reduce((s, i) => s.plus(i.amount), new Decimal(0))),
      },
    });
    return { bizCode: c.bizCode, version: c.version };
  });
}

/**
 * Verifies invoices (format, structure, amount, date, duplicates; no external call). With
 * `credBizCode`, the verdicts are recorded on that (editable) credit's receivables.
 */
export async function saveInvoiceVerification(
  deps: CreditDeps,
  input: z.output<typeof invoiceVerificationSchema>,
  actor: Actor,
) {
  if (!input.credBizCode) return { verdicts: await verifyInvoices(deps.db, input.items, deps.clock.today()) };
  const credBizCode = input.credBizCode;
  const cmd = { entity: 'credit', action: 'verifyInvoices', code: credBizCode };
  return runCommand(deps.db, actor, cmd, async (tx, w) => {
    const head = await editableDoc(tx, deps.workflow, 'credit', credBizCode);
    const verdicts = await verifyInvoices(tx, input.items, deps.clock.today(), head.id);
    let marked = 0;
    const done = new Set<string>();
    for (const v of verdicts) {
      // A row repeated in the batch does not overwrite the verdict of its first occurrence.
      if (done.has(`${v.invoiceCode}/${v.invoiceNo}`)) continue;
      done.add(`${v.invoiceCode}/${v.invoiceNo}`);
      const res = await tx
        .update(creditReceivables)
        .set({ verifyState: v.ok ? 'passed' : 'failed', verifyMsg: v.ok ? null : v.errors.join('；') })
        .where(
          and(
            eq(creditReceivables.creditId, head.id),
            eq(creditReceivables.invoiceCode, v.invoiceCode),
            eq(creditReceivables.invoiceNo, v.invoiceNo),
          ),
        )
        .returning({ id: creditReceivables.id });
      marked += res.length;
    }
    await w.audit({
      detail: { checked: verdicts.length, failed: verdicts.filter((v) => !v.ok).length, marked },
    });
    return { verdicts };
  });
}

export async function saveCredFiles(
  deps: CreditDeps,
  input: z.output<typeof credFileSaveSchema>,
  actor: Actor,
) {
  return deps.db.transaction(async (tx) => {
    const c = await editCredit(tx, deps.workflow, input.credBizCode, input.version, actor);
    await setDocumentFiles(tx, {
      docType: 'credit',
      docCode: c.bizCode,
      fileTokens: input.fileTokens,
      actor,
    });
    return { bizCode: c.bizCode, version: c.version };
  });
}

export async function deleteCredit(tx: Tx, bizCode: string, actor: Actor): Promise<void> {
  const head = await deleteDoc(tx, 'credit', bizCode, actor);
  // Free its invoices for other credits: a deleted draft holds no receivables.
  await tx.delete(creditReceivables).where(eq(creditReceivables.creditId, head.id));
}

/**
 * The approval's side effects (workflow onApprove hook, inside the approving transaction):
 * re-checks the record and creates its lines: the platform line (total limit) and one 'debtor'
 * line per factoring sub-limit, child of it.
 */
export async function applyCredit(tx: Tx, bizCode: string, actor: Actor, today: string): Promise<void> {
  const c = await getCredit(tx, bizCode);
  await requireAdmittedCustomer(tx, c.custCode);
  if (c.endDate < today) throw conflict(`授信到期日 ${c.endDate} 早于营业日 ${today}，不能审批通过`);
  await requireGuaranteeInForce(tx, c.id, today);
  const ft = await tx
    .select()
    .from(creditFtItems)
    .where(eq(creditFtItems.creditId, c.id))
    .orderBy(asc(creditFtItems.sort), asc(creditFtItems.id));
  checkFtAgainstLimit(new Decimal(c.limitAmount), ft);
  const doc = { docType: 'credit', docCode: c.bizCode, date: today, actor, reason: '授信审批通过' };
  const platform = await createLine(
    tx,
    {
      kind: 'platform',
      creditId: c.id,
      parent: null,
      sourceDocCode: c.bizCode,
      custCode: c.custCode,
      custName: c.custName,
      product: c.product,
      limitAmount: new Decimal(c.limitAmount),
      startDate: c.startDate,
      endDate: c.endDate,
      cycle: c.cycle as Cycle,
    },
    doc,
  );
  for (const i of ft) {
    await createLine(
      tx,
      {
        kind: 'debtor',
        creditId: c.id,
        parent: platform,
        sourceDocCode: c.bizCode,
        custCode: c.custCode,
        custName: c.custName,
        debtorCode: i.debtorCode,
        debtorName: i.debtorName,
        product: c.product,
        limitAmount: new Decimal(i.limitAmount),
        startDate: c.startDate,
        endDate: c.endDate,
        cycle: c.cycle as Cycle,
      },
      { ...doc, reason: `保理子额度生效（${i.debtorName}）` },
    );
  }
}
