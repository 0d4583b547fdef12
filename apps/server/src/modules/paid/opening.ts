import Decimal from 'decimal.js';
import { eq, sql } from 'drizzle-orm';
import type { Tx } from '../../platform/db/client';
import { nextCode } from '../../platform/db/codes';
import { release } from '../credit';
import { settlePlanItems, type OpeningRepayment } from '../contract';
import { paidLines, paids } from './schema';

/**
 * What one plan item had been repaid before a 期初导入 (docs/money-lifecycle.md "Opening
 * balances"): an approved write-off of kind 'opening', with no incoming behind it, dated
 * `paidDate`, its lines settled on the plan item, and the principal given back to the contract's
 * line as a write-off gives it (nothing on a one-off line). It posts no voucher (the 期初 voucher
 * carries the net) and is never approved or reversed here. In the caller's transaction, after the
 * caller locked the contract. Answers the credit released.
 */
export async function recordOpeningRepayment(
  tx: Tx,
  p: OpeningRepayment,
): Promise<{ code: string; released: string }> {
  const total = p.lines.reduce((s, x) => s.plus(x.amount), new Decimal(0));
  const principal = p.lines.find((x) => x.component === 'PRINCIPAL')?.amount ?? '0.00';
  const code = await nextCode(tx, 'paid');
  const who = p.actor.userId || null;
  const [paid] = await tx
    .insert(paids)
    .values({
      bizCode: code,
      incomeId: null,
      contractId: p.contract.id,
      paidDate: p.paidDate,
      kind: 'opening',
      amount: total.toFixed(2),
      principal,
      remark: `期初导入 第${p.period}期已还`,
      state: 'approved',
      submittedAt: sql`now()`,
      submittedBy: who,
      approvedAt: sql`now()`,
      approvedBy: who,
      postingSeq: sql`nextval('paid_posting_seq')`,
      createdBy: who,
      updatedBy: who,
    })
    .returning({ id: paids.id });
  await tx.insert(paidLines).values(
    p.lines.map((x) => ({
      paidId: paid!.id,
      planItemId: x.itemId,
      component: x.component,
      amount: x.amount,
    })),
  );
  await settlePlanItems(tx, p.lines, []);
  let released = '0.00';
  if (new Decimal(principal).gt(0)) {
    const r = await release(tx, {
      lineCode: p.contract.lineCode,
      amount: principal,
      docType: 'paid',
      docCode: code,
      date: p.today,
      actor: p.actor,
      reason: `期初导入 ${p.contract.contractNo} 已还本金`,
    });
    released = r.moved;
    await tx.update(paids).set({ released }).where(eq(paids.id, paid!.id));
  }
  return { code, released };
}
