import Decimal from 'decimal.js';
import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { Component } from '@portal/contract/accounts';
import type { PlanResult } from '@portal/contract/plan/schedule';
import type { Tx } from '../../platform/db/client';
import { prebuilt } from '../../platform/db/prebuilt';
import { writeLater } from '../../platform/db/command';
import type { Actor } from '../../platform/db/audit';
import { conflict } from '../../platform/errors';
import { insertItems } from './plan';
import { contractDues, contractPlanItems, contracts } from './schema';

type PlanItemRow = typeof contractPlanItems.$inferSelect;

/**
 * What the money documents of other modules (a disbursement, a write-off, their reversals) change
 * on a contract, its plan and its dues: contract owns these tables, so the writes are here and the
 * other modules call them (docs/architecture.md "Modules"). Each runs in the caller's transaction,
 * after the caller has locked the contract (and, for a write-off, its plan items): these take no
 * lock of their own beyond the rows they update, so the lock order stays the caller's
 * (docs/money-lifecycle.md).
 */

/** One up-front due a disbursement collects by deduction (its 放款单 line). */
export interface UpfrontDeduction {
  dueId: number;
  /** What the disbursement deducts. */
  deducted: string;
  /** What had been received on the due when the 放款单 was saved. */
  prepaid: string;
  /** What the due amounts to on the disbursement (前置利息 from its value date, docs/money-lifecycle.md). */
  amount: string;
  /** The due's amount before it (restored by the reversal). */
  dueAmount: string;
  /** Received above `amount`, paid back with the net. */
  returned: string;
}

export interface Disbursement {
  loanBizCode: string;
  valueDate: string;
  netAmount: string;
  deductions: readonly UpfrontDeduction[];
  /** The plan with its first period from the value date, or null when the current plan stands. */
  plan: PlanResult['items'] | null;
}

/**
 * An approved disbursement on the contract: each due takes the 放款单's amount and each deduction
 * is received on it, what was received above the amount returned (guarded: the due's amount and
 * received amount must still be what the 放款单 saw, else 409), the plan replaced by the
 * disbursement's (the old items superseded by the 放款单), and the contract marked 已放款.
 */
export async function applyDisbursement(
  tx: Tx,
  contractId: number,
  d: Disbursement,
  actor: Actor,
): Promise<void> {
  for (const l of d.deductions) {
    if (new Decimal(l.deducted).isZero() && new Decimal(l.amount).eq(l.dueAmount)) continue;
    const done = await tx
      .update(contractDues)
      .set({
        amount: l.amount,
        receivedAmount: sql`${contractDues.receivedAmount} + ${l.deducted}::numeric - ${l.returned}::numeric`,
        deductedAmount: sql`${contractDues.deductedAmount} + ${l.deducted}::numeric`,
      })
      .where(
        and(
          eq(contractDues.id, l.dueId),
          sql`${contractDues.receivedAmount} = ${l.prepaid}::numeric`,
          sql`${contractDues.amount} = ${l.dueAmount}::numeric`,
        ),
      )
      .returning({ id: contractDues.id });
    if (done.length === 0) throw conflict('前期款收取情况已变化，请重新保存放款单');
  }
  if (d.plan) {
    await tx
      .update(contractPlanItems)
      .set({ supersededBy: d.loanBizCode })
      .where(and(eq(contractPlanItems.contractId, contractId), isNull(contractPlanItems.supersededBy)));
    await insertItems(tx, contractId, d.plan);
  }
  await tx
    .update(contracts)
    .set({
      loanState: 'loaned',
      loanDate: d.valueDate,
      loanAmount: d.netAmount,
      loanBizCode: d.loanBizCode,
      version: sql`${contracts.version} + 1`,
      updatedAt: sql`now()`,
      updatedBy: actor.userId,
    })
    .where(eq(contracts.id, contractId));
}

/**
 * The red reversal of a disbursement, exactly undoing applyDisbursement: the disbursement's plan
 * dropped and the items it superseded restored (when it replaced them), each due back to its
 * amount and received amount before it (409 when the due no longer holds them), and the contract
 * back to 未放款.
 */
export async function reverseDisbursement(
  tx: Tx,
  contractId: number,
  d: { loanBizCode: string; rebased: boolean; deductions: readonly Omit<UpfrontDeduction, 'prepaid'>[] },
  actor: Actor,
): Promise<void> {
  if (d.rebased) {
    await tx
      .delete(contractPlanItems)
      .where(and(eq(contractPlanItems.contractId, contractId), isNull(contractPlanItems.supersededBy)));
    await tx
      .update(contractPlanItems)
      .set({ supersededBy: null })
      .where(
        and(eq(contractPlanItems.contractId, contractId), eq(contractPlanItems.supersededBy, d.loanBizCode)),
      );
  }
  for (const l of d.deductions) {
    if (new Decimal(l.deducted).isZero() && new Decimal(l.amount).eq(l.dueAmount)) continue;
    const done = await tx
      .update(contractDues)
      .set({
        amount: l.dueAmount,
        receivedAmount: sql`${contractDues.receivedAmount} - ${l.deducted}::numeric + ${l.returned}::numeric`,
        deductedAmount: sql`${contractDues.deductedAmount} - ${l.deducted}::numeric`,
      })
      .where(
        and(
          eq(contractDues.id, l.dueId),
          sql`${contractDues.deductedAmount} >= ${l.deducted}::numeric`,
          sql`${contractDues.amount} = ${l.amount}::numeric`,
        ),
      )
      .returning({ id: contractDues.id });
    if (done.length === 0) throw conflict('前期款扣收记录不一致，不能冲红');
  }
  await tx
    .update(contracts)
    .set({
      loanState: 'none',
      loanDate: null,
      loanAmount: null,
      loanBizCode: null,
      version: sql`${contracts.version} + 1`,
      updatedAt: sql`now()`,
      updatedBy: actor.userId,
    })
    .where(eq(contracts.id, contractId));
}

/** What a write-off pays on one component of one plan item. */
export interface PlanPayment {
  itemId: number;
  component: Component;
  amount: string;
}

/** What an early settlement waives of one item's scheduled interest or fee. */
export interface PlanWaiver {
  itemId: number;
  component: 'INTEREST' | 'FEE';
  amount: string;
}

const COLUMN = {
  PRINCIPAL: {
    paid: contractPlanItems.principalPaid,
    due: contractPlanItems.principal,
    key: 'principalPaid',
  },
  INTEREST: { paid: contractPlanItems.interestPaid, due: contractPlanItems.interest, key: 'interestPaid' },
  FEE: { paid: contractPlanItems.feePaid, due: contractPlanItems.fee, key: 'feePaid' },
  PENALTY: { paid: contractPlanItems.penaltyPaid, due: null, key: 'penaltyPaid' },
} as const;

/** movePaid's guarded update of each component, built once (platform/db/prebuilt.ts). */
function paidMoved(component: keyof typeof COLUMN) {
  const c = COLUMN[component];
  return prebuilt(`plan_item_paid_${component.toLowerCase()}`, (ex) => {
    const d = sql.placeholder('d');
    return ex
      .update(contractPlanItems)
      .set({ [c.key]: sql`${c.paid} + ${d}::numeric` })
      .where(
        and(
          eq(contractPlanItems.id, sql.placeholder('id')),
          sql`${c.paid} + ${d}::numeric >= 0`,
          c.due ? sql`${c.paid} + ${d}::numeric <= ${c.due}` : undefined,
        ),
      )
      .returning();
  });
}
const PAID_MOVED = {
  PRINCIPAL: paidMoved('PRINCIPAL'),
  INTEREST: paidMoved('INTEREST'),
  FEE: paidMoved('FEE'),
  PENALTY: paidMoved('PENALTY'),
};

/**
 * Adds `sign × amount` to an item's paid component, bounded in the WHERE clause (0 ≤ paid ≤ due;
 * the table's CHECKs stand behind it): 409 when it would cross a bound.
 */
async function movePaid(tx: Tx, line: PlanPayment, sign: 1 | -1): Promise<PlanItemRow> {
  const d = new Decimal(line.amount).times(sign).toFixed(2);
  const res = await PAID_MOVED[line.component](tx, { id: line.itemId, d });
  if (!res[0]) throw conflict(sign > 0 ? '核销金额超过待还金额' : '冲红金额超过已还金额');
  return res[0];
}

/** Lowers (sign 1) or restores (sign −1) the scheduled interest/fee an early settlement waives. */
async function moveWaiver(tx: Tx, w: PlanWaiver, sign: 1 | -1): Promise<PlanItemRow> {
  const c = COLUMN[w.component];
  const d = new Decimal(w.amount).times(-sign).toFixed(2);
  const res = await tx
    .update(contractPlanItems)
    .set(
      w.component === 'INTEREST'
        ? { interest: sql`${c.due} + ${d}::numeric` }
        : { fee: sql`${c.due} + ${d}::numeric` },
    )
    .where(and(eq(contractPlanItems.id, w.itemId), sql`${c.due} + ${d}::numeric >= ${c.paid}`))
    .returning();
  if (!res[0]) throw conflict('提前结清减免金额与还款计划不符');
  return res[0];
}

/**
 * A write-off posted on the plan: each payment added to its item's paid component, then each
 * waiver taken off the scheduled interest/fee, in the order given (409 past a bound). Answers the
 * items it changed as they now are (the last row of each), so the caller need not read them again.
 */
export async function settlePlanItems(
  tx: Tx,
  payments: readonly PlanPayment[],
  waivers: readonly PlanWaiver[],
): Promise<PlanItemRow[]> {
  const after = new Map<number, PlanItemRow>();
  for (const line of payments) {
    const row = await movePaid(tx, line, 1);
    after.set(row.id, row);
  }
  for (const w of waivers) {
    const row = await moveWaiver(tx, w, 1);
    after.set(row.id, row);
  }
  return [...after.values()];
}

/**
 * settlePlanItems's payments (a write-off without waivers) as one guarded update another statement
 * runs (the approval's voucher insert, voucher's Alongside: a statement less, bench/README.md
 * "Fourteenth pass"): each item's components move together, each moved one within its bounds as
 * movePaid's. `settled(rows)` answers the items `locked` (the caller's rows, locked by it) as they
 * now are, or 409 as movePaid when an item did not move. A line a component of an item at most
 * once (checkLines refuses a repeat).
 */
export function planPaymentsMove(
  locked: readonly PlanItemRow[],
  payments: readonly PlanPayment[],
): { statement: SQL; settled(rows: unknown[] | undefined): PlanItemRow[] } {
  const byItem = new Map<number, Record<Component, Decimal>>();
  for (const p of payments) {
    const d = byItem.get(p.itemId) ?? {
      PRINCIPAL: new Decimal(0),
      INTEREST: new Decimal(0),
      FEE: new Decimal(0),
      PENALTY: new Decimal(0),
    };
    d[p.component] = d[p.component].plus(p.amount);
    byItem.set(p.itemId, d);
  }
  const json = JSON.stringify(
    [...byItem].map(([id, d]) => ({
      id,
      p: d.PRINCIPAL.toFixed(2),
      i: d.INTEREST.toFixed(2),
      f: d.FEE.toFixed(2),
      n: d.PENALTY.toFixed(2),
    })),
  );
  const statement = sql`update contract_plan_items it
       set principal_paid = it.principal_paid + v.p, interest_paid = it.interest_paid + v.i,
           fee_paid = it.fee_paid + v.f, penalty_paid = it.penalty_paid + v.n
      from jsonb_to_recordset(${json}::jsonb) as v(id bigint, p numeric, i numeric, f numeric, n numeric)
     where it.id = v.id
       and (v.p = 0 or it.principal_paid + v.p between 0 and it.principal)
       and (v.i = 0 or it.interest_paid + v.i between 0 and it.interest)
       and (v.f = 0 or it.fee_paid + v.f between 0 and it.fee)
       and (v.n = 0 or it.penalty_paid + v.n >= 0)
    returning it.id, it.principal_paid::text as p, it.interest_paid::text as i, it.fee_paid::text as f,
              it.penalty_paid::text as n`;
  return {
    statement,
    settled(rows) {
      const moved = new Map(
        ((rows ?? []) as { id: number | string; p: string; i: string; f: string; n: string }[]).map((r) => [
          Number(r.id),
          r,
        ]),
      );
      if (moved.size !== byItem.size) throw conflict('核销金额超过待还金额');
      return locked
        .filter((i) => moved.has(i.id))
        .map((i) => {
          const r = moved.get(i.id)!;
          return { ...i, principalPaid: r.p, interestPaid: r.i, feePaid: r.f, penaltyPaid: r.n };
        });
    },
  };
}

/** The red reversal of settlePlanItems: the payments taken back, the waived amounts restored. */
export async function reversePlanSettlement(
  tx: Tx,
  payments: readonly PlanPayment[],
  waivers: readonly PlanWaiver[],
): Promise<void> {
  for (const line of payments) await movePaid(tx, line, -1);
  for (const w of waivers) await moveWaiver(tx, w, -1);
}

/**
 * A write-off posted on the contract row: the credit it released comes off what the contract
 * occupies, and the contract is 已结清 when the write-off left nothing open (已核销 when a 核销坏账
 * closed it).
 */
export async function recordWriteOff(
  tx: Tx,
  contractId: number,
  w: { released: string; settled: boolean | 'writtenOff' },
  /**
   * The document being approved (laterOwner), when nothing in the transaction reads the contract's
   * row again: if the contract keeps its status, the update waits for the statement that ends that
   * approval (writeLater: its update of the document's state), a statement less (bench/README.md
   * "Fourteenth pass").
   */
  later?: string,
): Promise<void> {
  // 'writtenOff': closed by a 核销坏账 (docs/accounting.md "Bad-debt write-off").
  const status = w.settled ? (w.settled === true ? 'settled' : 'writtenOff') : 'unchanged';
  if (later !== undefined && status === 'unchanged')
    return writeLater(
      tx,
      later,
      (gate) => sql`update contracts set occupied_amount = occupied_amount - ${w.released}::numeric
                     where id = ${contractId} and ${gate}`,
    );
  await WRITE_OFF_RECORDED[status](tx, { id: contractId, released: w.released });
}

/** recordWriteOff's update for each outcome, built once (platform/db/prebuilt.ts). */
/** `unchanged`: the write-off left something open, and the contract keeps its status. */
function writeOffRecorded(status: 'unchanged' | 'settled' | 'writtenOff') {
  return prebuilt(`contract_write_off_${status}`, (ex) =>
    ex
      .update(contracts)
      .set({
        occupiedAmount: sql`${contracts.occupiedAmount} - ${sql.placeholder('released')}::numeric`,
        ...(status === 'unchanged' ? {} : { status }),
      })
      .where(eq(contracts.id, sql.placeholder('id'))),
  );
}
const WRITE_OFF_RECORDED = {
  unchanged: writeOffRecorded('unchanged'),
  settled: writeOffRecorded('settled'),
  writtenOff: writeOffRecorded('writtenOff'),
};

/**
 * The red reversal of recordWriteOff: the credit occupied again goes back on the contract, and a
 * settled contract is back in force (`reopen`).
 */
export async function reverseWriteOff(
  tx: Tx,
  contractId: number,
  w: { reoccupied: string; reopen: boolean },
): Promise<void> {
  await tx
    .update(contracts)
    .set({
      occupiedAmount: sql`${contracts.occupiedAmount} + ${w.reoccupied}::numeric`,
      ...(w.reopen ? { status: 'effective' } : {}),
    })
    .where(eq(contracts.id, contractId));
}
