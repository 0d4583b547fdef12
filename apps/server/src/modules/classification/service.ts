import { and, eq, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  ASSET_CLASS_LABELS,
  classRank,
  proposeClass,
  type AssetClass,
  type ClassAdjInit,
  type ClassThresholds,
  type classAdjSaveSchema,
} from '@portal/contract/classification';
import type { ScopeUser } from '../../platform/auth/data-scope';
import { advisoryXactLock } from '../../platform/db/advisory';
import type { Actor } from '../../platform/db/audit';
import { runCommand } from '../../platform/db/command';
import type { Written } from '../workflow';
import { queryRows, type Executor, type Tx } from '../../platform/db/client';
import { nextCode } from '../../platform/db/codes';
import { updateVersioned } from '../../platform/db/versioned';
import { badInput, conflict } from '../../platform/errors';
import { findContract, lockContract, type ContractRow } from '../contract';
import { classAdjustments, contractClasses } from './schema';
import { WHAT, asClass, classOf, findAdj } from './queries';

/** The contracts a day-end classifies: in force and disbursed (docs/classification.md "Proposal"). */
const LIVE = sql`c.deleted_at is null and c.status = 'effective' and c.loan_state = 'loaned'`;

interface Hold {
  id: number;
  toClass: AssetClass;
  baseClass: AssetClass;
}

/**
 * Whether an adjustment still stands over a new proposal: until a day-end proposes a class worse
 * than both the adjusted class and the proposal it was approved over (docs/classification.md
 * "Adjustment").
 */
export function holdStands(hold: Hold, proposed: AssetClass): boolean {
  return classRank(proposed) <= Math.max(classRank(hold.toClass), classRank(hold.baseClass));
}

/**
 * The day-end's classification of `date` (called by bizdate's day-end in its transaction): every
 * live contract gets its row of that date from its longest overdue days (`overdueDays`, the
 * day-end's own itemAsOf figures; a contract absent from it is overdue 0 days) by `thresholds`,
 * with an approved adjustment standing over the proposal where it still stands. Idempotent: a
 * second run of the date writes the same rows.
 */
export async function classifyAtDayEnd(
  tx: Tx,
  date: string,
  overdueDays: ReadonlyMap<number, number>,
  thresholds: ClassThresholds,
): Promise<number> {
  const rows = await queryRows<{
    id: number;
    today_adj: number | null;
    prev_adj: number | null;
  }>(
    tx,
    sql`select c.id::int as id,
               (select t.adjustment_id::int from contract_classes t join class_adjustments a on a.id = t.adjustment_id
                 where t.contract_id = c.id and t.business_date = ${date}::date and a.effective_date = ${date}::date) as today_adj,
               (select p.adjustment_id::int from contract_classes p
                 where p.contract_id = c.id and p.business_date < ${date}::date
                 order by p.business_date desc limit 1) as prev_adj
          from contracts c
         where ${LIVE} and (c.loan_date is null or c.loan_date <= ${date}::date)
         order by c.id`,
  );
  const holdIds = [
    ...new Set(rows.map((r) => r.today_adj ?? r.prev_adj).filter((v): v is number => v !== null)),
  ];
  const holds = new Map<number, Hold>();
  if (holdIds.length) {
    const found = await queryRows<{ id: number; to_class: string; base_class: string | null }>(
      tx,
      sql`select id::int as id, to_class, base_class from class_adjustments
           where id in (${sql.join(
             holdIds.map((id) => sql`${id}`),
             sql`, `,
           )})`,
    );
    for (const h of found)
      holds.set(h.id, {
        id: h.id,
        toClass: asClass(h.to_class)!,
        baseClass: asClass(h.base_class) ?? 'normal',
      });
  }
  await tx.execute(sql`delete from contract_classes where business_date = ${date}::date`);
  const values = rows.map((r) => {
    const days = overdueDays.get(r.id) ?? 0;
    const proposed = proposeClass(days, thresholds);
    const holdId = r.today_adj ?? r.prev_adj;
    const hold = holdId === null ? undefined : holds.get(holdId);
    const stands = hold !== undefined && holdStands(hold, proposed);
    return {
      contractId: r.id,
      businessDate: date,
      overdueDays: days,
      proposedClass: proposed,
      assetClass: stands ? hold.toClass : proposed,
      adjustmentId: stands ? hold.id : null,
      source: 'dayEnd',
    };
  });
  // In batches: one statement per thousand contracts, not one per contract.
  for (let i = 0; i < values.length; i += 1000)
    await tx.insert(contractClasses).values(values.slice(i, i + 1000));
  return rows.length;
}

function requireLive(c: ContractRow): void {
  if (c.status !== 'effective' || c.loanState !== 'loaned')
    throw conflict('只有已放款且履约中的合同可以调整五级分类');
}

export async function adjInit(ex: Executor, c: ContractRow, today: string): Promise<ClassAdjInit> {
  requireLive(c);
  const cls = await classOf(ex, c.id, today);
  return {
    contBizCode: c.bizCode,
    contractNo: c.contractNo,
    custName: c.custName,
    overdueDays: cls?.days ?? 0,
    proposedClass: cls?.proposed ?? null,
    fromClass: cls?.current ?? null,
  };
}

export async function saveAdj(
  tx: Tx,
  body: z.output<typeof classAdjSaveSchema>,
  actor: Actor,
  user: ScopeUser,
  today: string,
): Promise<Written> {
  const c = await findContract(tx, body.contBizCode, user);
  requireLive(c);
  const cls = await classOf(tx, c.id, today);
  if (cls?.current === body.toClass)
    throw badInput(`调整后分类与当前分类（${ASSET_CLASS_LABELS[body.toClass]}）相同`);
  const values = {
    contractId: c.id,
    fromClass: cls?.current ?? null,
    toClass: body.toClass,
    reason: body.reason,
  };
  let code: string;
  if (body.adjBizCode) {
    const row = await findAdj(tx, body.adjBizCode, user);
    if (row.contractId !== c.id) throw badInput('分类调整单不能改换合同');
    if (body.version === undefined) throw badInput('版本号不能为空');
    await updateVersioned(
      tx,
      classAdjustments,
      eq(classAdjustments.id, row.id),
      body.version,
      values,
      actor.userId,
      WHAT,
    );
    code = body.adjBizCode;
  } else {
    const [open] = await tx
      .select({ code: classAdjustments.bizCode })
      .from(classAdjustments)
      .where(
        and(
          eq(classAdjustments.contractId, c.id),
          isNull(classAdjustments.deletedAt),
          sql`${classAdjustments.state} <> 'approved'`,
        ),
      );
    if (open) throw conflict(`该合同已有未审核的分类调整单 ${open.code}`);
    code = await nextCode(tx, 'class_adj');
    await tx.insert(classAdjustments).values({
      ...values,
      bizCode: code,
      createdBy: actor.userId,
      updatedBy: actor.userId,
    });
  }
  // The document pipeline writes the audit row (create or update) with this detail.
  return {
    code,
    detail: {
      contBizCode: c.bizCode,
      fromClass: values.fromClass,
      toClass: body.toClass,
      reason: body.reason,
    },
  };
}

/** A unique-index hit of two open adjustments saved at once answers the same 409 as the check. */
export function adjSaveError(err: unknown): never {
  const text =
    err instanceof Error ? `${err.message} ${String((err as { cause?: unknown }).cause ?? '')}` : '';
  if (text.includes('class_adjustments_open_key')) throw conflict('该合同已有未审核的分类调整单');
  throw err;
}

/**
 * Approval (the workflow's onApprove, in the approving transaction): under the contract's lock the
 * contract must still be live; the class goes into force on the business date `today` — the row of
 * that date is rewritten with the adjusted class (or made, with the latest proposal's figures,
 * when that date's day-end has not classified the contract).
 */
export async function postAdj(tx: Tx, code: string, actor: Actor, today: string): Promise<void> {
  await runCommand(tx, actor, { entity: 'contract', action: 'classAdjust' }, async (_tx, w) => {
    const adj = await findAdj(tx, code);
    const [c0] = await queryRows<{ code: string }>(
      tx,
      sql`select biz_code as code from contracts where id = ${adj.contractId}`,
    );
    // A day-end of the same date runs under this lock: the approval waits for it (or it for the
    // approval), so neither overwrites the other's row of the date. Order: instance → this → contract.
    await advisoryXactLock(tx, 'dayEnd', 'run');
    const c = await lockContract(tx, c0!.code);
    requireLive(c);
    const toClass = asClass(adj.toClass)!;
    const cls = await classOf(tx, c.id, today);
    const base = cls?.proposed ?? 'normal';
    // The date's row keeps its proposal (or takes the latest one's figures when the date's day-end
    // has not classified the contract); only the class and its adjustment change.
    await tx.execute(
      sql`insert into contract_classes (contract_id, business_date, overdue_days, proposed_class, asset_class, adjustment_id, source)
        values (${c.id}, ${today}::date, ${cls?.days ?? 0}, ${base}, ${toClass}, ${adj.id}, 'adjustment')
        on conflict (contract_id, business_date)
        do update set asset_class = excluded.asset_class, adjustment_id = excluded.adjustment_id, recorded_at = now()`,
    );
    await tx
      .update(classAdjustments)
      .set({ effectiveDate: today, baseClass: base })
      .where(eq(classAdjustments.id, adj.id));
    await w.audit({
      code: c.bizCode,
      detail: { adjBizCode: adj.bizCode, fromClass: cls?.current ?? null, toClass, effectiveDate: today },
    });
  });
}

export async function deleteAdj(tx: Tx, code: string, actor: Actor): Promise<void> {
  await tx
    .update(classAdjustments)
    .set({ deletedAt: sql`now()`, updatedBy: actor.userId, version: sql`${classAdjustments.version} + 1` })
    .where(and(eq(classAdjustments.bizCode, code), isNull(classAdjustments.deletedAt)));
}
