import Decimal from 'decimal.js';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Tx } from '../../platform/db/client';
import type { Actor } from '../../platform/db/audit';
import { runCommand } from '../../platform/db/command';
import { reversedBy } from '../../platform/db/columns';
import { conflict } from '../../platform/errors';
import type { ScopeUser } from '../../platform/auth/data-scope';
import { contracts } from '../contract/schema';
import { lockContract, recordWriteOff, reverseWriteOff, type ContractRow } from '../contract';
import { releaseRepaid } from '../credit';
import { lockIncome, moveAllocated } from '../income';
import { checkClosureDate, closureQuote, postClosure, requireQuoteUnchanged, reverseClosure } from '../paid';
import { postEvent, reverseDocument } from '../voucher';
import { buybacks, buybackSettlements } from './schema';
import {
  checkSettleAmount,
  checkSettleDate,
  findBuyback,
  payingSettlements,
  requireApprovedIncome,
  requireBuybackable,
  requireSettleable,
  type BuybackRecord,
} from './service';

const aux = (c: ContractRow) => ({ custCode: c.custCode, custName: c.custName, contractNo: c.contractNo });

async function contractOf(tx: Tx, b: BuybackRecord): Promise<ContractRow> {
  const [c] = await tx
    .select({ code: contracts.bizCode })
    .from(contracts)
    .where(eq(contracts.id, b.contractId));
  return lockContract(tx, c!.code);
}

async function lockBuyback(tx: Tx, id: number): Promise<BuybackRecord> {
  const [b] = await tx.select().from(buybacks).where(eq(buybacks.id, id)).for('update');
  return b!;
}

/**
 * Approval of a 回购单 (the workflow's onApprove, one transaction). Locks the contract and its plan
 * items, checks again that the contract may be bought back on the date and that the quote is still
 * what was saved, then closes the plan's open items into the seller's buy-back receivable (a
 * closing write-off dated the buy-back date), marks the contract settled (it stops accruing; its
 * items stop counting as overdue) and posts the voucher. No credit moves: the seller still owes the
 * principal, released as 回购款核销 bring it in (docs/buyback.md).
 */
export async function postBuyback(tx: Tx, code: string, actor: Actor, today: string): Promise<void> {
  await runCommand(tx, actor, { entity: 'buyback', action: 'post', code }, async (_tx, w) => {
    const [row] = await tx
      .select()
      .from(buybacks)
      .where(and(eq(buybacks.bizCode, code), isNull(buybacks.deletedAt)));
    if (!row) throw conflict('回购单不存在');
    const contract = await contractOf(tx, row);
    requireBuybackable(contract);
    await checkClosureDate(tx, contract, row.buybackDate, today);
    const q = await closureQuote(tx, contract, row.buybackDate, true);
    requireQuoteUnchanged(row, q, '回购单');
    const paidId = await postClosure(tx, contract, row.buybackDate, q, `回购单 ${code}`, actor);
    await recordWriteOff(tx, contract.id, { released: '0.00', settled: true });
    await tx.update(buybacks).set({ paidId }).where(eq(buybacks.id, row.id));
    await w.audit({
      detail: { amount: q.total, principal: q.principal, interest: q.interest, penaltyAmount: q.penalty },
    });
    await postEvent(
      tx,
      {
        kind: 'buyback',
        docCode: code,
        date: row.buybackDate,
        principal: q.principal,
        interest: q.interest,
        fee: q.fee,
        penalty: q.penalty,
        aux: aux(contract),
      },
      actor,
    );
  });
}

/**
 * 冲红 of an approved 回购单 nothing was paid on (no 回购款核销 pending or approved): the plan's
 * items reopen as they stood (the interest after the date no longer waived), the contract is back
 * in force and its voucher mirrored, dated the business date. Lock order as the approval's:
 * contract, plan items, buy-back.
 */
export async function rushRedBuyback(
  tx: Tx,
  code: string,
  reason: string,
  actor: Actor,
  user: ScopeUser,
  today: string,
): Promise<void> {
  await runCommand(tx, actor, { entity: 'buyback', action: 'rushRed', code }, async (_tx, w) => {
    const found = await findBuyback(tx, code, user);
    const contract = await contractOf(tx, found);
    const b = await lockBuyback(tx, found.id);
    if (b.state !== 'approved') throw conflict('只能冲红已审核的回购单');
    if (b.redState !== 'none') throw conflict('该回购单已冲红');
    const paying = await payingSettlements(tx, b.id);
    if (paying || new Decimal(b.settled).gt(0))
      throw conflict(`回购单已有回购款核销${paying ? ` ${paying}` : ''}，不能冲红`);
    if (today < b.buybackDate) throw conflict('冲红日期不能早于回购日期');
    await reverseClosure(tx, b.paidId!, today, reason, actor);
    await reverseWriteOff(tx, contract.id, { reoccupied: '0.00', reopen: contract.status === 'settled' });
    await w.touch(buybacks, eq(buybacks.id, b.id), reversedBy(reason, actor.userId));
    await w.audit({ detail: { reason, amount: b.amount } });
    await reverseDocument(
      tx,
      { docType: 'buyback', docCode: code },
      {
        docType: 'buybackRed',
        docCode: code,
        date: today,
        summary: `回购冲红 ${contract.contractNo} ${reason}`.trim(),
      },
      actor,
    );
  });
}

/**
 * Of a settlement taking `amount` after `settled`, what repays principal: the buy-back's interest,
 * fee and penalty are paid first (the default allocation order, docs/money-rules.md), then principal.
 */
export function principalPart(
  b: Pick<BuybackRecord, 'interest' | 'fee' | 'penalty'>,
  settled: string,
  amount: string,
): Decimal {
  const other = new Decimal(b.interest).plus(b.fee).plus(b.penalty);
  const before = Decimal.max(0, new Decimal(settled).minus(other));
  const after = Decimal.max(0, new Decimal(settled).plus(amount).minus(other));
  return after.minus(before);
}

/**
 * Approval of a 回购款核销 (onApprove, one transaction). Locks the contract, the buy-back, the
 * incoming (then the credit lines), checks everything again against the figures as they are now,
 * then: the buy-back's settled amount rises (guarded: never above its amount), the incoming's
 * allocated rises, and the principal it repays releases the credit line as a write-off's does
 * (docs/credit.md).
 */
export async function postSettle(tx: Tx, code: string, actor: Actor, today: string): Promise<void> {
  await runCommand(tx, actor, { entity: 'buybackSettle', action: 'post', code }, async (_tx, w) => {
    const [s] = await tx
      .select()
      .from(buybackSettlements)
      .where(and(eq(buybackSettlements.bizCode, code), isNull(buybackSettlements.deletedAt)));
    if (!s) throw conflict('回购款核销不存在');
    const [head] = await tx.select().from(buybacks).where(eq(buybacks.id, s.buybackId));
    const contract = await contractOf(tx, head!);
    const b = await lockBuyback(tx, s.buybackId);
    requireSettleable(b);
    const income = await lockIncome(tx, s.incomeId);
    requireApprovedIncome(income);
    checkSettleDate(s.settleDate, income, b, today);
    checkSettleAmount(s.amount, income, b);

    const principal = principalPart(b, b.settled, s.amount);
    const done = await tx
      .update(buybacks)
      .set({ settled: sql`${buybacks.settled} + ${s.amount}::numeric` })
      .where(
        and(eq(buybacks.id, b.id), sql`${buybacks.settled} + ${s.amount}::numeric <= ${buybacks.amount}`),
      )
      .returning({ id: buybacks.id });
    if (done.length === 0) throw conflict('核销金额超过回购款未收金额');
    await moveAllocated(tx, income.id, new Decimal(s.amount));

    const moved = await releaseRepaid(tx, contract, principal, {
      docType: 'buybackSettle',
      docCode: code,
      date: today,
      actor,
      reason: `回购款核销 ${code} 还本`,
    });
    await recordWriteOff(tx, contract.id, { released: moved.toFixed(2), settled: false });
    await tx
      .update(buybacks)
      .set({ released: sql`${buybacks.released} + ${moved.toFixed(2)}::numeric` })
      .where(eq(buybacks.id, b.id));
    await tx
      .update(buybackSettlements)
      .set({ principal: principal.toFixed(2), released: moved.toFixed(2) })
      .where(eq(buybackSettlements.id, s.id));
    await w.audit({
      detail: { amount: s.amount, principal: principal.toFixed(2), released: moved.toFixed(2) },
    });
    await postEvent(
      tx,
      { kind: 'buybackSettle', docCode: code, date: s.settleDate, amount: s.amount, aux: aux(contract) },
      actor,
    );
  });
}
