import Decimal from 'decimal.js';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { PaidLineView } from '@portal/contract/accounts';
import { formatYuan } from '@portal/contract/format';
import type { Executor, Tx } from '../../platform/db/client';
import { nextCode } from '../../platform/db/codes';
import type { Actor } from '../../platform/db/audit';
import { badInput, conflict } from '../../platform/errors';
import type { contracts } from '../contract/schema';
import { reversePlanSettlement, settlePlanItems } from '../contract';
import { syncContractDebtors } from '../debtor';
import { describeLines, settlementLines, type Line, type Waiver } from './allocation';
import { contractRule, lastPostingDate, paymentsOf, planItems } from '../contract';
import { paidLines, paidReds, paids, paidWaivers } from './schema';
import { linesOf } from './service';

type ContractRow = typeof contracts.$inferSelect;

/** What closes a plan without an incoming: a 回购单 or a 核销坏账 (docs/accounting.md "Bad-debt write-off"). */
export type ClosureKind = 'buyback' | 'badDebt';
const CLOSURE_NAMES: Record<ClosureKind, { posted: string; red: string }> = {
  buyback: { posted: '回购结转', red: '回购冲红' },
  badDebt: { posted: '核销坏账', red: '核销坏账冲红' },
};

/**
 * The closing write-off of a buy-back (docs/buyback.md): the plan's open items closed on the
 * buy-back date into the seller's buy-back receivable; a 核销坏账's closes them the same way, written
 * off (kind `badDebt`). It is a write-off of kind `buyback` with no
 * incoming, so every reader of the plan (itemAsOf, the ledger as of a date, overdue, the dashboard,
 * 对账) sees the items paid on that date; its amount is the early-settlement quote of the write-off
 * (settlementLines), never a second formula.
 */
export interface ClosureQuote {
  lines: Line[];
  waivers: Waiver[];
  principal: string;
  interest: string;
  fee: string;
  penalty: string;
  total: string;
  interestWaived: string;
  feeWaived: string;
  described: PaidLineView[];
}

/** A quote's parts and total as a document stores them (回购单, 核销坏账: platform/db/columns.ts quoteParts). */
export const quoteValues = (q: ClosureQuote) => ({
  principal: q.principal,
  interest: q.interest,
  fee: q.fee,
  penalty: q.penalty,
  amount: q.total,
});

/** The buy-back amount of `contract` on `date`, line by line (items locked when `lock`). */
export async function closureQuote(
  ex: Executor,
  contract: ContractRow,
  date: string,
  lock = false,
): Promise<ClosureQuote> {
  const items = await planItems(ex, contract.id, lock);
  const s = settlementLines(items, await paymentsOf(ex, items), date, contractRule(contract));
  const part = (c: Line['component']) =>
    s.lines
      .filter((l) => l.component === c)
      .reduce((t, l) => t.plus(l.amount), new Decimal(0))
      .toFixed(2);
  return {
    lines: s.lines,
    waivers: s.waivers,
    principal: part('PRINCIPAL'),
    interest: part('INTEREST'),
    fee: part('FEE'),
    penalty: part('PENALTY'),
    total: new Decimal(s.total).toFixed(2),
    interestWaived: s.interestWaived,
    feeWaived: s.feeWaived,
    described: describeLines(s.lines, items),
  };
}

/**
 * A buy-back's date (a bad-debt write-off's, `field` 核销日期): not after the business date, not
 * before the disbursement or the latest posting.
 */
export async function checkClosureDate(
  ex: Executor,
  contract: ContractRow,
  date: string,
  today: string,
  field = '回购日期',
): Promise<void> {
  if (date > today) throw badInput(`${field}不能晚于营业日 ${today}`);
  if (date < contract.startDate) throw badInput(`${field}不能早于合同起始日 ${contract.startDate}`);
  if (contract.loanDate && date < contract.loanDate)
    throw badInput(`${field}不能早于放款日 ${contract.loanDate}`);
  const last = await lastPostingDate(ex, contract.id);
  if (last && date < last) throw badInput(`${field}不能早于该合同最近一次核销或冲红日期 ${last}`);
}

/**
 * Posts the closure in the caller's transaction (the contract and its items locked by the caller):
 * the plan items paid and the interest after the date waived, as a settlement's, and the
 * write-off row approved at once (its approval is the buy-back's). Answers its id.
 */
export async function postClosure(
  tx: Tx,
  contract: ContractRow,
  date: string,
  q: ClosureQuote,
  remark: string,
  actor: Actor,
  kind: ClosureKind = 'buyback',
): Promise<number> {
  await settlePlanItems(tx, q.lines, q.waivers);
  const code = await nextCode(tx, 'paid');
  const [row] = await tx
    .insert(paids)
    .values({
      bizCode: code,
      incomeId: null,
      contractId: contract.id,
      paidDate: date,
      kind,
      amount: q.total,
      principal: q.principal,
      settledContract: true,
      remark,
      state: 'approved',
      approvedAt: sql`now()`,
      approvedBy: actor.userId,
      postingSeq: sql`nextval('paid_posting_seq')`,
      createdBy: actor.userId,
      updatedBy: actor.userId,
    })
    .returning({ id: paids.id });
  const id = row!.id;
  await tx
    .insert(paidLines)
    .values(
      q.lines.map((l) => ({ paidId: id, planItemId: l.itemId, component: l.component, amount: l.amount })),
    );
  if (q.waivers.length)
    await tx.insert(paidWaivers).values(
      q.waivers.map((w) => ({
        paidId: id,
        planItemId: w.itemId,
        component: w.component,
        amount: w.amount,
      })),
    );
  // The receivable is the seller's now (or written off): its debtors' lines are free
  // (docs/credit.md "Debtor lines").
  await syncContractDebtors(tx, contract.id, 'none', {
    docType: 'paid',
    docCode: code,
    date,
    actor,
    reason: `${CLOSURE_NAMES[kind].posted} ${code} 结清合同`,
  });
  return id;
}

/**
 * The 冲红 of a closure: the items' paid amounts and waived interest restored, and an approved red
 * entry dated `date`, so the ledger as of a date before it still reads the items closed then
 * (docs/ledger.md "As posted on a date").
 */
export async function reverseClosure(
  tx: Tx,
  paidId: number,
  date: string,
  reason: string,
  actor: Actor,
  kind: ClosureKind = 'buyback',
): Promise<void> {
  const [p] = await tx.select().from(paids).where(eq(paids.id, paidId)).for('update');
  if (!p || p.kind !== kind || p.red) throw conflict(`${CLOSURE_NAMES[kind].posted}记录不一致，不能冲红`);
  const lines = (await tx.select().from(paidLines).where(eq(paidLines.paidId, paidId))).map((r) => ({
    itemId: r.planItemId,
    component: r.component as Line['component'],
    amount: r.amount,
  }));
  const waivers = (await tx.select().from(paidWaivers).where(eq(paidWaivers.paidId, paidId))).map((r) => ({
    itemId: r.planItemId,
    component: r.component as Waiver['component'],
    amount: r.amount,
  }));
  await reversePlanSettlement(tx, lines, waivers);
  await tx.insert(paidReds).values({
    bizCode: await nextCode(tx, 'paid_red'),
    paidId,
    redDate: date,
    reason,
    state: 'approved',
    approvedAt: sql`now()`,
    approvedBy: actor.userId,
    createdBy: actor.userId,
    updatedBy: actor.userId,
  });
  await tx.update(paids).set({ red: true }).where(eq(paids.id, paidId));
  // The contract runs again: its receivables hold the debtors' lines (409 when the room was taken).
  await syncContractDebtors(tx, p.contractId, 'receivables', {
    docType: 'paidRed',
    docCode: p.bizCode,
    date,
    actor,
    reason: `${CLOSURE_NAMES[kind].red} ${p.bizCode} 合同恢复履约`,
  });
}

/**
 * Refuses (409) the approval of a document that fixed a closing quote at save (回购单, 核销坏账)
 * when the plan has changed since: each part that moved, saved → now (docs/buyback.md).
 */
export function requireQuoteUnchanged(
  saved: { principal: string; interest: string; fee: string; penalty: string },
  q: ClosureQuote,
  docName: string,
): void {
  const changed = (
    [
      ['本金', saved.principal, q.principal],
      ['利息', saved.interest, q.interest],
      ['费用', saved.fee, q.fee],
      ['罚息', saved.penalty, q.penalty],
    ] as const
  ).filter(([, was, now]) => !new Decimal(was).eq(now));
  if (changed.length)
    throw conflict(
      `${docName}保存后还款计划已变化（${changed
        .map(([what, was, now]) => `${what} ${formatYuan(was)} → ${formatYuan(now)}`)
        .join('，')}），请重新保存${docName}`,
    );
}

/** The lines a closure closed, with their periods (the 回购单's lines after approval). */
export async function closureLines(ex: Executor, paidId: number): Promise<PaidLineView[]> {
  return (await linesOf(ex, paidId)).map((l) => ({ ...l, component: l.component as Line['component'] }));
}

/** The code of a live closure (for messages). */
export async function closureCode(ex: Executor, paidId: number): Promise<string | null> {
  const [p] = await ex
    .select({ code: paids.bizCode })
    .from(paids)
    .where(and(eq(paids.id, paidId), isNull(paids.deletedAt)));
  return p?.code ?? null;
}
