import Decimal from 'decimal.js';
import { and, eq, isNull } from 'drizzle-orm';
import type { Tx } from '../../platform/db/client';
import type { Actor } from '../../platform/db/audit';
import { runCommand } from '../../platform/db/command';
import { reversedBy } from '../../platform/db/columns';
import { conflict } from '../../platform/errors';
import type { ScopeUser } from '../../platform/auth/data-scope';
import { contracts } from '../contract/schema';
import { lockContract, recordWriteOff, reverseWriteOff, type ContractRow } from '../contract';
import { release, reoccupy } from '../credit';
import { closureQuote, postClosure, requireQuoteUnchanged, reverseClosure } from '../paid';
import { postEvent, reverseDocument } from '../voucher';
import { badDebts } from './schema';
import { findBadDebt, reserveSplit, writeOffQuote, type BadDebtRecord } from './service';

async function contractOf(tx: Tx, b: BadDebtRecord): Promise<ContractRow> {
  const [c] = await tx
    .select({ code: contracts.bizCode })
    .from(contracts)
    .where(eq(contracts.id, b.contractId));
  return lockContract(tx, c!.code);
}

/**
 * Approval of a 核销坏账 (the workflow's onApprove, one transaction; docs/accounting.md "Bad-debt
 * write-off"). The workflow has locked the document; this locks the contract, then its plan items, checks again that the contract may be written
 * off on the date (in force, 损失, the month open) and that the amount is still what was saved, then:
 * the plan's open items are closed by a closing write-off of kind `badDebt` dated the write-off
 * date; the seller's credit line releases what the contract holds (as a settled contract's, docs/
 * credit.md) and the debtors' lines are freed; the contract becomes 已核销; the voucher posts
 * 坏账准备 (what is held on the date, up to the principal) and 信用减值损失 (the rest) against
 * 应收保理款.
 */
export async function postBadDebt(tx: Tx, code: string, actor: Actor, today: string): Promise<void> {
  await runCommand(tx, actor, { entity: 'badDebt', action: 'post', code }, async (_tx, w) => {
    const [row] = await tx
      .select()
      .from(badDebts)
      .where(and(eq(badDebts.bizCode, code), isNull(badDebts.deletedAt)));
    if (!row) throw conflict('核销坏账单不存在');
    const contract = await contractOf(tx, row);
    await writeOffQuote(tx, contract, row.writeOffDate, today);
    const q = await closureQuote(tx, contract, row.writeOffDate, true);
    requireQuoteUnchanged(row, q, '核销坏账单');
    const paidId = await postClosure(tx, contract, row.writeOffDate, q, `核销坏账 ${code}`, actor, 'badDebt');
    let released = new Decimal(0);
    if (new Decimal(contract.occupiedAmount).gt(0)) {
      const r = await release(tx, {
        lineCode: contract.lineCode,
        amount: contract.occupiedAmount,
        docType: 'badDebt',
        docCode: code,
        date: today,
        actor,
        reason: `核销坏账 ${code} 合同终结`,
      });
      released = new Decimal(r.moved);
    }
    await recordWriteOff(tx, contract.id, { released: released.toFixed(2), settled: 'writtenOff' });
    const split = await reserveSplit(tx, contract, row.writeOffDate, q.principal);
    await tx
      .update(badDebts)
      .set({
        paidId,
        reserveUsed: split.reserveUsed,
        lossCharged: split.lossCharged,
        released: released.toFixed(2),
      })
      .where(eq(badDebts.id, row.id));
    await w.audit({
      detail: {
        amount: q.total,
        principal: q.principal,
        reserveUsed: split.reserveUsed,
        lossCharged: split.lossCharged,
        released: released.toFixed(2),
      },
    });
    await postEvent(
      tx,
      {
        kind: 'badDebt',
        docCode: code,
        date: row.writeOffDate,
        principal: q.principal,
        reserveUsed: split.reserveUsed,
        lossCharged: split.lossCharged,
        aux: { custCode: contract.custCode, custName: contract.custName, contractNo: contract.contractNo },
      },
      actor,
    );
  });
}

/**
 * 冲红 of an approved 核销坏账: the plan's items reopen as they stood, the credit released is
 * occupied again (409 when another contract took the room), the contract is back in force and the
 * voucher mirrored, dated the business date. Nothing else can have moved the contract meanwhile: a
 * written-off contract takes no document (docs/accounting.md "Bad-debt write-off"). Lock order as
 * the approval's: the write-off, the contract, its plan items, the credit lines.
 */
export async function rushRedBadDebt(
  tx: Tx,
  code: string,
  reason: string,
  actor: Actor,
  user: ScopeUser,
  today: string,
): Promise<void> {
  await runCommand(tx, actor, { entity: 'badDebt', action: 'rushRed', code }, async (_tx, w) => {
    const found = await findBadDebt(tx, code, user);
    const [b] = await tx.select().from(badDebts).where(eq(badDebts.id, found.id)).for('update');
    const contract = await contractOf(tx, found);
    if (b!.state !== 'approved') throw conflict('只能冲红已审核的核销坏账单');
    if (b!.redState !== 'none') throw conflict('该核销坏账单已冲红');
    if (contract.status !== 'writtenOff') throw conflict('合同已不是已核销状态，不能冲红');
    if (today < b!.writeOffDate) throw conflict('冲红日期不能早于核销日期');
    await reverseClosure(tx, b!.paidId!, today, reason, actor, 'badDebt');
    let reoccupied = new Decimal(0);
    if (new Decimal(b!.released).gt(0)) {
      const r = await reoccupy(tx, {
        lineCode: contract.lineCode,
        amount: b!.released,
        docType: 'badDebtRed',
        docCode: code,
        date: today,
        actor,
        reason: `核销坏账冲红 ${code} 恢复占用`,
      });
      reoccupied = new Decimal(r.moved);
    }
    await reverseWriteOff(tx, contract.id, { reoccupied: reoccupied.toFixed(2), reopen: true });
    await w.touch(badDebts, eq(badDebts.id, b!.id), reversedBy(reason, actor.userId));
    await w.audit({ detail: { reason, amount: b!.amount, reoccupied: reoccupied.toFixed(2) } });
    await reverseDocument(
      tx,
      { docType: 'badDebt', docCode: code },
      {
        docType: 'badDebtRed',
        docCode: code,
        date: today,
        summary: `核销坏账冲红 ${contract.contractNo} ${reason}`.trim(),
      },
      actor,
    );
  });
}
