import Decimal from 'decimal.js';
import { and, asc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  disbursementFigures,
  UPFRONT_KINDS,
  UPFRONT_LABELS,
  type LoanFigures,
  type LoanInit,
  type LoanPlanPreview,
  type UpfrontDue,
  type UpfrontKind,
  type loanSaveSchema,
} from '@portal/contract/loan';
import { normalizeSerial } from '@portal/contract/fields';
import { formatMoney, formatYuan } from '@portal/contract/format';
import { interestRuleCalc } from '@portal/contract/plan/rule';
import { disbursedPlan, type DisbursedPlan } from '@portal/contract/plan/schedule';
import { PlanInputError } from '@portal/contract/plan/money';
import type { Executor, Tx } from '../../platform/db/client';
import { nextCode } from '../../platform/db/codes';
import type { Actor } from '../../platform/db/audit';
import { runCommand } from '../../platform/db/command';
import { updateVersioned } from '../../platform/db/versioned';
import { badInput, conflict, notFound } from '../../platform/errors';
import type { ScopeUser } from '../../platform/auth/data-scope';
import { defaultAccount, requireBankAccount } from '../bank';
import { contractChanges, contractDues, contractPlanItems, contracts } from '../contract/schema';
import { findContract, lockContract, requireEffective, type ContractRow } from '../contract';
import { activeItems, applyDisbursement, planViews, reverseDisbursement } from '../contract';
import { paids } from '../paid/schema';
import { requireNoticesSettled } from '../assignment';
import { removeDraft, saveDraft, type WorkflowRegistry, type Written } from '../workflow';
import { postEvent, reverseDocument } from '../voucher';
import { loanLines, loanReds, loans } from './schema';
import { findLoan, live, liveRed, money, WHAT, type LoanRecord } from './queries';

export type { LoanRecord } from './queries';

const DISBURSE = '放款';

/** A bank serial as compared (docs/money-lifecycle.md): the contract's normalizeSerial. */
export const serialKey = normalizeSerial;

/** The contract's up-front items (保证金, 前置利息, 手续费), locked when asked. */
async function upfrontDues(
  ex: Executor | Tx,
  contractId: number,
  lock = false,
): Promise<{ dues: UpfrontDue[]; agreedInterest: boolean }> {
  const q = ex
    .select()
    .from(contractDues)
    .where(and(eq(contractDues.contractId, contractId), inArray(contractDues.kind, [...UPFRONT_KINDS])))
    .orderBy(asc(contractDues.sort), asc(contractDues.id));
  const rows = await (lock ? q.for('update') : q);
  const dues = rows.map((d) => ({
    dueId: d.id,
    kind: d.kind as UpfrontKind,
    amount: d.amount,
    received: d.receivedAmount,
  }));
  // A 前置利息 the maker changed with a reason is the contract's agreed figure, not the rule's.
  const agreedInterest = rows.some((d) => d.kind === 'upfrontInterest' && !!d.reason);
  return { dues, agreedInterest };
}

function requireNotLoaned(c: ContractRow): void {
  if (c.loanState === 'loaned') throw conflict('合同已放款，不能重复放款');
}

/** The value date's bounds: on or after the contract start, before maturity, not after the business date. */
function checkValueDate(c: ContractRow, valueDate: string, today: string): void {
  if (valueDate > today) throw badInput(`放款日不能晚于营业日 ${today}`);
  if (valueDate < c.startDate) throw badInput(`放款日不能早于合同起始日 ${c.startDate}`);
  if (valueDate >= c.maturityDate) throw badInput(`放款日必须早于合同到期日 ${c.maturityDate}`);
}

/**
 * What a disbursement on `valueDate` makes of the contract (docs/money-lifecycle.md "Interest
 * starts on the value date"): the plan as it stands, the plan approval keeps (the signed due dates,
 * the first period from the value date) and the amounts line by line, 前置利息 charged from the
 * value date when the rule takes interest up front. The dues are locked when asked (approval).
 */
async function disbursementOn(
  ex: Executor | Tx,
  c: ContractRow,
  valueDate: string,
  lockDues = false,
): Promise<{ current: Awaited<ReturnType<typeof activeItems>>; plan: DisbursedPlan; figures: LoanFigures }> {
  const current = await activeItems(ex, c.id);
  if (current.length === 0 || !c.ruleSnapshot) throw conflict('合同还款计划不存在，不能放款');
  const rule = interestRuleCalc.parse(c.ruleSnapshot);
  let plan: DisbursedPlan;
  try {
    plan = disbursedPlan({
      principal: c.financingAmount,
      rule,
      valueDate,
      items: current.map((i) => ({
        period: i.period,
        startDate: i.startDate,
        dueDate: i.dueDate,
        days: i.days,
        principal: i.principal,
        interest: i.interest,
        fee: i.fee,
        total: money(new Decimal(i.principal).plus(i.interest).plus(i.fee)),
      })),
    });
  } catch (err) {
    if (err instanceof PlanInputError) throw badInput(err.message);
    throw err;
  }
  const { dues, agreedInterest } = await upfrontDues(ex, c.id, lockDues);
  const front = rule.interestCollection === 'FRONT' && !agreedInterest ? plan.upfrontInterest : undefined;
  return { current, plan, figures: disbursementFigures(c.financingAmount, dues, front) };
}

/** The prefilled value date: the business date when it may be one, else the contract's start. */
async function defaultValueDate(ex: Executor, c: ContractRow, today: string): Promise<string> {
  const [first] = await activeItems(ex, c.id);
  const latest = first && first.dueDate < c.maturityDate ? first.dueDate : c.maturityDate;
  return today < latest && today >= c.startDate ? today : c.startDate;
}

/** isLoan / initBase: a new 放款单 prefilled from the contract. */
export async function loanInit(ex: Executor, c: ContractRow, today: string): Promise<LoanInit> {
  requireEffective(c, DISBURSE);
  requireNotLoaned(c);
  const valueDate = await defaultValueDate(ex, c, today);
  const { figures } = await disbursementOn(ex, c, valueDate);
  const pay = await defaultAccount(ex, 'self', null, 'pay');
  const payee = await defaultAccount(ex, 'customer', c.custCode, 'collect');
  return {
    ...figures,
    contBizCode: c.bizCode,
    contractNo: c.contractNo,
    custCode: c.custCode,
    custName: c.custName,
    startDate: c.startDate,
    maturityDate: c.maturityDate,
    valueDate,
    payBankBizCode: pay?.bizCode ?? null,
    payeeBankBizCode: payee?.bizCode ?? null,
  };
}

export async function saveLoan(
  tx: Tx,
  body: z.output<typeof loanSaveSchema>,
  actor: Actor,
  user: ScopeUser,
  today: string,
): Promise<Written> {
  const c = await findContract(tx, body.contBizCode, user);
  requireEffective(c, DISBURSE);
  requireNotLoaned(c);
  checkValueDate(c, body.valueDate, today);
  await requireBankAccount(tx, body.payBankBizCode, { label: '付款账户', ownerType: 'self' });
  await requireBankAccount(tx, body.payeeBankBizCode, {
    label: '收款账户',
    ownerType: 'customer',
    ownerCode: c.custCode,
  });
  // The plan's refusal (a value date on or after the first due date) now, not at approval.
  const { figures } = await disbursementOn(tx, c, body.valueDate);
  const key = serialKey(body.serialNo);
  if (!key) throw badInput('银行流水号不能为空');
  const [dup] = await tx
    .select({ code: loans.bizCode })
    .from(loans)
    .where(
      and(
        live,
        eq(loans.redState, 'none'),
        eq(loans.payBankBizCode, body.payBankBizCode),
        eq(loans.serialKey, key),
        body.loanBizCode ? sql`${loans.bizCode} <> ${body.loanBizCode}` : undefined,
      ),
    );
  if (dup) throw conflict(`银行流水号「${body.serialNo}」在该付款账户已被放款单 ${dup.code} 使用`);
  const values = {
    contractId: c.id,
    valueDate: body.valueDate,
    payBankBizCode: body.payBankBizCode,
    payeeBankBizCode: body.payeeBankBizCode,
    serialNo: body.serialNo,
    serialKey: key,
    financingAmount: figures.financingAmount,
    deductedAmount: figures.deductedTotal,
    returnedAmount: figures.returnedTotal,
    netAmount: figures.netAmount,
    remark: body.remark ?? null,
  };
  let id: number;
  let code: string;
  if (body.loanBizCode) {
    const row = await findLoan(tx, body.loanBizCode, user);
    if (row.contractId !== c.id) throw badInput('放款单不能改换合同');
    if (body.version === undefined) throw badInput('版本号不能为空');
    await updateVersioned(tx, loans, eq(loans.id, row.id), body.version, values, actor.userId, WHAT);
    await tx.delete(loanLines).where(eq(loanLines.loanId, row.id));
    id = row.id;
    code = row.bizCode;
  } else {
    code = await nextCode(tx, 'loan');
    const [row] = await tx
      .insert(loans)
      .values({ ...values, bizCode: code, createdBy: actor.userId, updatedBy: actor.userId })
      .returning({ id: loans.id });
    id = row!.id;
  }
  if (figures.lines.length)
    await tx.insert(loanLines).values(
      figures.lines.map((l, i) => ({
        loanId: id,
        dueId: l.dueId,
        kind: l.kind,
        amount: l.amount,
        dueAmount: l.dueAmount,
        prepaid: l.prepaid,
        deducted: l.deducted,
        returned: l.returned,
        sort: i,
      })),
    );
  return {
    code,
    detail: { contBizCode: c.bizCode, valueDate: body.valueDate, netAmount: figures.netAmount },
  };
}

/**
 * The submission of a 放款单 (its subject and amount for the process): refused while a debtor of a
 * disclosed contract is neither confirmed nor waived (docs/assignment-notice.md); approval asks again.
 */
export async function loanSubmission(tx: Tx, row: LoanRecord): Promise<{ subject: string; amount: string }> {
  const [c] = await tx.select().from(contracts).where(eq(contracts.id, row.contractId));
  await requireNoticesSettled(tx, c!);
  return {
    subject: `放款单 ${row.bizCode} 实付 ${formatMoney(row.netAmount)}元`,
    amount: row.financingAmount,
  };
}

async function contractOf(tx: Tx, loan: LoanRecord): Promise<ContractRow> {
  const [c] = await tx
    .select({ code: contracts.bizCode })
    .from(contracts)
    .where(eq(contracts.id, loan.contractId));
  return lockContract(tx, c!.code);
}

/**
 * Approval (the workflow's onApprove, in the approving transaction): re-checks everything under
 * the contract's lock, collects each open up-front item by deduction and returns what was prepaid
 * above it (guarded: the item and its prepaid part must still be what the document says), starts
 * the first period on the value date (the due dates stay) and marks the contract 已放款. Two disbursements of one contract approved at once: the second waits on the
 * contract row and then finds it loaned (409); the partial unique index backs it.
 */
export async function postLoan(tx: Tx, code: string, actor: Actor, today: string): Promise<void> {
  await runCommand(tx, actor, { entity: 'contract', action: 'loan' }, async (_tx, w) => {
    const loan = await findLoan(tx, code);
    const c = await contractOf(tx, loan);
    requireEffective(c, DISBURSE);
    requireNotLoaned(c);
    // A disclosed contract: every debtor confirmed or waived, read under the contract's lock, which
    // every confirmation, waiver and withdrawal takes first (docs/assignment-notice.md).
    await requireNoticesSettled(tx, c);
    checkValueDate(c, loan.valueDate, today);
    if (!new Decimal(loan.financingAmount).eq(c.financingAmount))
      throw conflict(`合同融资金额已变更为 ${formatMoney(c.financingAmount)}元，请重新保存放款单`);
    const lines = await tx.select().from(loanLines).where(eq(loanLines.loanId, loan.id));
    const { current, plan, figures: now } = await disbursementOn(tx, c, loan.valueDate, true);
    if (current.some((i) => !new Decimal(i.principalPaid).plus(i.interestPaid).plus(i.feePaid).isZero()))
      throw conflict('合同已有核销记录，不能放款');

    for (const d of now.lines) {
      const saved = lines.find((l) => l.dueId === d.dueId);
      const same = (a: string, b: string) => new Decimal(a).eq(b);
      if (
        !saved ||
        !same(saved.prepaid, d.prepaid) ||
        !same(saved.dueAmount, d.dueAmount) ||
        !same(saved.amount, d.amount)
      )
        throw conflict(
          `${UPFRONT_LABELS[d.kind]}的收取情况已变化（应收 ${formatMoney(d.amount)}元，已收 ${formatMoney(d.prepaid)}元），请重新保存放款单`,
        );
    }
    if (lines.length !== now.lines.length) throw conflict('合同的前期款项已变化，请重新保存放款单');
    await applyDisbursement(
      tx,
      c.id,
      {
        loanBizCode: loan.bizCode,
        valueDate: loan.valueDate,
        netAmount: loan.netAmount,
        deductions: lines,
        plan: plan.changed ? plan.items : null,
      },
      actor,
    );
    await tx.update(loans).set({ rebased: plan.changed }).where(eq(loans.id, loan.id));
    await w.audit({
      code: c.bizCode,
      detail: {
        loanBizCode: loan.bizCode,
        valueDate: loan.valueDate,
        netAmount: loan.netAmount,
        deducted: loan.deductedAmount,
        returned: loan.returnedAmount,
        rebased: plan.changed,
      },
    });
    // Its voucher, in this transaction (docs/accounting.md "Journals").
    const deducted = (kind: string) =>
      lines
        .filter((l) => l.kind === kind)
        .reduce((t, l) => t.plus(l.deducted), new Decimal(0))
        .toFixed(2);
    await postEvent(
      tx,
      {
        kind: 'disbursement',
        docCode: loan.bizCode,
        date: loan.valueDate,
        financing: loan.financingAmount,
        net: loan.netAmount,
        deducted: {
          margin: deducted('margin'),
          upfrontInterest: deducted('upfrontInterest'),
          // Every deducted item but 保证金 and 前置利息 is fee income (docs/accounting.md).
          upfrontFee: lines
            .reduce((t, l) => t.plus(l.deducted), new Decimal(0))
            .minus(deducted('margin'))
            .minus(deducted('upfrontInterest'))
            .toFixed(2),
        },
        // Only 前置利息 can be prepaid above this disbursement's figure.
        returnedInterest: loan.returnedAmount,
        aux: { custCode: c.custCode, custName: c.custName, contractNo: c.contractNo },
      },
      actor,
    );
  });
}

/**
 * Why an approved disbursement cannot be reversed now, or null: only while nothing on the
 * contract has been written off (no write-off document in any state but deleted or reversed, no
 * component paid) and no change was approved after it (docs/money-lifecycle.md "冲红"). Asked when
 * the reversal is requested and again, under the locks, when its entry is approved.
 */
async function reversalRefusal(tx: Tx, loan: LoanRecord, c: ContractRow): Promise<string | null> {
  if (loan.state !== 'approved') return '放款单未审核通过，不能冲红';
  if (loan.redState !== 'none') return '放款单已冲红，不能重复冲红';
  if (c.loanBizCode !== loan.bizCode) return '该放款单不是合同当前的放款，不能冲红';
  const [written] = await tx
    .select({ code: paids.bizCode })
    .from(paids)
    .where(and(eq(paids.contractId, c.id), isNull(paids.deletedAt), eq(paids.red, false)))
    .limit(1);
  if (written) return `合同已有来款核销 ${written.code}，不能冲红放款单`;
  const items = await tx
    .select()
    .from(contractPlanItems)
    .where(and(eq(contractPlanItems.contractId, c.id), isNull(contractPlanItems.supersededBy)))
    .for('update');
  if (items.some((i) => !new Decimal(i.principalPaid).plus(i.interestPaid).plus(i.feePaid).isZero()))
    return '合同已有核销记录，不能冲红放款单';
  const [changed] = await tx
    .select({ code: contractChanges.bizCode })
    .from(contractChanges)
    .where(
      and(
        eq(contractChanges.contractId, c.id),
        eq(contractChanges.state, 'approved'),
        isNull(contractChanges.deletedAt),
        gt(contractChanges.approvedAt, loan.approvedAt!),
      ),
    )
    .limit(1);
  return changed ? `放款后合同已变更（${changed.code}），不能冲红放款单` : null;
}

/**
 * rushRed: asks for the 冲红 of an approved disbursement. A 放款单冲红 entry with its reason is
 * made and submitted for approval at once, as a write-off's red entry is; nothing moves until a
 * checker approves it (postLoanRed). One live entry per 放款单 (a unique index backs this).
 */
export async function requestLoanRed(
  tx: Tx,
  workflow: WorkflowRegistry,
  code: string,
  reason: string,
  actor: Actor,
  user: ScopeUser,
): Promise<string> {
  const first = await findLoan(tx, code, user);
  // Lock order of the reversal: contract → the 放款单 (docs/money-lifecycle.md).
  const c = await contractOf(tx, first);
  const [loan] = await tx.select().from(loans).where(eq(loans.id, first.id)).for('update');
  const refusal = await reversalRefusal(tx, loan!, c);
  if (refusal) throw conflict(refusal);
  const [existing] = await tx
    .select({ code: loanReds.bizCode, state: loanReds.state })
    .from(loanReds)
    .where(and(eq(loanReds.loanId, loan!.id), liveRed));
  if (existing?.state === 'rejected') {
    // A rejected request is replaced by the new one (it has no save of its own to be resubmitted).
    const gone = existing.code;
    await removeDraft(tx, workflow, {
      type: 'loanRed',
      code: gone,
      actor,
      remove: () => deleteLoanRed(tx, gone, actor),
    });
  } else if (existing) throw conflict(`该放款单已有冲红单据 ${existing.code}`);
  const { code: redCode } = await saveDraft(tx, workflow, {
    type: 'loanRed',
    actor,
    write: async () => {
      const redCode = await nextCode(tx, 'loan_red');
      await tx.insert(loanReds).values({
        bizCode: redCode,
        loanId: loan!.id,
        reason,
        createdBy: actor.userId,
        updatedBy: actor.userId,
      });
      return { code: redCode, detail: { loanBizCode: loan!.bizCode, contBizCode: c.bizCode, reason } };
    },
    // Names the 放款单 it reverses, and is routed by that 放款单's amount (its financing), so the
    // reversal needs the approvals the disbursement needed.
    submission: async () => ({
      subject: `冲红放款单 ${loan!.bizCode}（融资 ${formatYuan(loan!.financingAmount)}，实付 ${formatYuan(loan!.netAmount)}）`,
      amount: loan!.financingAmount,
    }),
  });
  return redCode;
}

/**
 * Approval of a 放款单冲红 entry (the workflow's onApprove, in the approving transaction): the
 * checks again under the contract's lock, then the reversal, which restores the dues, the plan
 * and the contract exactly as before the disbursement.
 */
export async function postLoanRed(tx: Tx, redCode: string, actor: Actor, today: string): Promise<void> {
  const [red] = await tx
    .select()
    .from(loanReds)
    .where(and(eq(loanReds.bizCode, redCode), liveRed));
  if (!red) throw notFound('放款单冲红');
  const [first] = await tx.select().from(loans).where(eq(loans.id, red.loanId));
  const c = await contractOf(tx, first!);
  const [loan] = await tx.select().from(loans).where(eq(loans.id, red.loanId)).for('update');
  const refusal = await reversalRefusal(tx, loan!, c);
  if (refusal) throw conflict(refusal);
  await reverseLoan(tx, loan!, c, red, actor);
  // The mirror of the disbursement's voucher, dated the business date (docs/accounting.md "Red reversal").
  await reverseDocument(
    tx,
    { docType: 'loan', docCode: loan!.bizCode },
    {
      docType: 'loanRed',
      docCode: red.bizCode,
      date: today,
      summary: `放款单冲红 ${c.contractNo} ${red.reason}`,
    },
    actor,
  );
}

/** The reversal itself (postLoanRed has checked it may happen, under the locks). */
async function reverseLoan(
  tx: Tx,
  loan: LoanRecord,
  c: ContractRow,
  red: typeof loanReds.$inferSelect,
  actor: Actor,
): Promise<void> {
  await runCommand(tx, actor, { entity: 'loan', action: 'rushRed', code: loan.bizCode }, async (_tx, w) => {
    const reason = red.reason;

    const lines = await tx.select().from(loanLines).where(eq(loanLines.loanId, loan.id));
    await reverseDisbursement(
      tx,
      c.id,
      { loanBizCode: loan.bizCode, rebased: loan.rebased, deductions: lines },
      actor,
    );
    // The loan is locked (postLoanRed): its version moves on with the reversal.
    await w.touch(loans, eq(loans.id, loan.id), {
      redState: 'reversed',
      redReason: reason,
      redAt: sql`now()`,
      // Who asked for it; the entry records who approved it.
      redBy: red.createdBy,
    });
    await w.audit({
      detail: { contBizCode: c.bizCode, loanRedBizCode: red.bizCode, reason, netAmount: loan.netAmount },
    });
  });
}

/** The plan approval would keep for a value date beside the plan as it stands, and the amounts. */
export async function planPreview(
  ex: Executor,
  c: ContractRow,
  valueDate: string,
  today: string,
): Promise<LoanPlanPreview> {
  const { current, plan, figures } = await disbursementOn(ex, c, valueDate);
  const interest = (xs: readonly { interest: string }[]) =>
    money(xs.reduce((s, x) => s.plus(x.interest), new Decimal(0)));
  return {
    valueDate,
    rebased: plan.changed,
    current: await planViews(ex, c, today, current),
    after: plan.items,
    totalInterestBefore: interest(current),
    totalInterestAfter: interest(plan.items),
    figures,
  };
}

export async function deleteLoan(tx: Tx, row: LoanRecord, actor: Actor): Promise<void> {
  await tx
    .update(loans)
    .set({ deletedAt: sql`now()`, updatedBy: actor.userId, version: sql`${loans.version} + 1` })
    .where(eq(loans.id, row.id));
}

/** Soft-deletes a 放款单冲红 entry the pipeline has checked deletable (removeDraft audits it). */
export async function deleteLoanRed(tx: Tx, code: string, actor: Actor): Promise<void> {
  await tx
    .update(loanReds)
    .set({ deletedAt: sql`now()`, updatedBy: actor.userId, version: sql`${loanReds.version} + 1` })
    .where(and(eq(loanReds.bizCode, code), liveRed));
}
