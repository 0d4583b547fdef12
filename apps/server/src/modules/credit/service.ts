import Decimal from 'decimal.js';
import { and, asc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type {
  credFileSaveSchema,
  Cycle,
  ftSaveSchema,
  invoiceVerificationSchema,
  platformSaveSchema,
  receivablesSaveSchema,
} from '@portal/contract/credit';
import type { Db, Tx } from '../../platform/db/client';
import type { Config } from '../../platform/config';
import type { BusinessClock } from '../../platform/clock';
import { nextCode } from '../../platform/db/codes';
import type { Actor } from '../../platform/db/audit';
import { runCommand } from '../../platform/db/command';
import type { WorkflowRegistry, Written } from '../workflow';
import { updateVersioned } from '../../platform/db/versioned';
import { badInput, conflict } from '../../platform/errors';
import { requireAdmittedCustomer } from '../company';
import { linkDebtors } from '../debtor';
import { setDocumentFiles } from '../files';
import { deleteDoc, editableDoc } from './flow';
import { requireGuaranteeInForce } from './guarantees';
import { checkReceivables, verifyInvoices } from './invoices';
import { createLine } from './ledger';
import { creditFtItems, creditReceivables, credits } from './schema';
import { formatYuan } from '@portal/contract/format';
import { type CreditRow, WHAT, fmt, getCredit } from './queries';

export interface CreditDeps {
  db: Db;
  config: Config;
  clock: BusinessClock;
  /** The portal's document types (the credit's editable check). */
  workflow: WorkflowRegistry;
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
