import Decimal from 'decimal.js';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { PaidRedRow, PaidRedView, paidRedListSchema } from '@portal/contract/accounts';
import type { Page } from '@portal/contract/api';
import type { Db, Executor, Tx } from '../../platform/db/client';
import { nextCode } from '../../platform/db/codes';
import type { Actor } from '../../platform/db/audit';
import { conflict, notFound } from '../../platform/errors';
import { countOf, likePattern, offsetOf, orderClause, page } from '../../platform/http/list';
import type { ScopeUser } from '../../platform/auth/data-scope';
import { contracts } from '../contract/schema';
import { scopeOf } from '../contract';
import { saveDraft, type WorkflowRegistry } from '../workflow';
import { redRefusal } from './posting';
import { findPaid, viewPaid } from './service';
import { paidReds, paids } from './schema';
import { formatYuan } from '@portal/contract/format';

export const PAID_RED = '来款核销冲红';
const live = isNull(paidReds.deletedAt);

/**
 * rushRed: a paid-red entry for an approved write-off, submitted for approval at once (SPEC has
 * no save call for it). One live entry per write-off (a unique index backs this).
 */
export async function rushRed(
  tx: Tx,
  workflow: WorkflowRegistry,
  paidCode: string,
  reason: string,
  actor: Actor,
  user: ScopeUser,
  today: string,
): Promise<string> {
  const found = await findPaid(tx, paidCode, user);
  const [paid] = await tx.select().from(paids).where(eq(paids.id, found.id)).for('update');
  const refusal = await redRefusal(tx, paid!);
  if (refusal) throw conflict(refusal);
  const [existing] = await tx
    .select({ code: paidReds.bizCode })
    .from(paidReds)
    .where(and(eq(paidReds.paidId, paid!.id), live));
  if (existing) throw conflict(`该核销已有冲红单据 ${existing.code}`);
  if (today < paid!.paidDate) throw conflict('冲红日期不能早于核销日期');
  const { code } = await saveDraft(tx, workflow, {
    type: 'paidRed',
    actor,
    write: async () => {
      const code = await nextCode(tx, 'paid_red');
      await tx.insert(paidReds).values({
        bizCode: code,
        paidId: paid!.id,
        redDate: today,
        reason,
        createdBy: actor.userId,
        updatedBy: actor.userId,
      });
      return { code, detail: { paid: paidCode, reason } };
    },
    submission: async () => ({
      subject: `冲红来款核销 ${paidCode}（核销 ${formatYuan(paid!.amount)}）`,
      amount: paid!.amount,
    }),
  });
  return code;
}

const rowColumns = {
  paidRedBizCode: paidReds.bizCode,
  paidBizCode: paids.bizCode,
  contBizCode: contracts.bizCode,
  contractNo: contracts.contractNo,
  custName: contracts.custName,
  redDate: paidReds.redDate,
  amount: paids.amount,
  reason: paidReds.reason,
  state: paidReds.state,
  updatedAt: paidReds.updatedAt,
};

const joined = (cond: ReturnType<typeof and>) =>
  sql`from ${paidReds} inner join ${paids} on ${paids.id} = ${paidReds.paidId}
      inner join ${contracts} on ${contracts.id} = ${paids.contractId} where ${cond}`;

export async function listReds(
  db: Db,
  q: z.output<typeof paidRedListSchema>,
  user: ScopeUser,
): Promise<Page<PaidRedRow>> {
  const cond = and(
    live,
    scopeOf(user),
    // A closure is reversed with its 回购单 or 核销坏账, shown there (docs/buyback.md).
    sql`${paids.kind} not in ('buyback', 'badDebt')`,
    q.paidRedBizCode ? eq(paidReds.bizCode, q.paidRedBizCode) : undefined,
    q.paidBizCode ? eq(paids.bizCode, q.paidBizCode) : undefined,
    q.contractNo ? sql`${contracts.contractNo} ilike ${likePattern(q.contractNo)}` : undefined,
    q.state ? eq(paidReds.state, q.state) : undefined,
  );
  const rows = await db
    .select(rowColumns)
    .from(paidReds)
    .innerJoin(paids, eq(paids.id, paidReds.paidId))
    .innerJoin(contracts, eq(contracts.id, paids.contractId))
    .where(cond)
    .orderBy(
      ...orderClause(q, { redDate: paidReds.redDate, amount: paids.amount, updatedAt: paidReds.updatedAt }, [
        sql`${paidReds.updatedAt} desc`,
        sql`${paidReds.id} desc`,
      ]),
    )
    .limit(q.pageSize)
    .offset(offsetOf(q));
  const total = await countOf(db, joined(cond));
  return page(
    rows.map((r) => ({
      ...r,
      amount: new Decimal(r.amount).neg().toFixed(2),
      state: r.state as PaidRedRow['state'],
    })),
    total,
    q,
  );
}

export async function findRed(ex: Executor, code: string, user?: ScopeUser) {
  const [row] = await ex
    .select({ red: paidReds, paidCode: paids.bizCode })
    .from(paidReds)
    .innerJoin(paids, eq(paids.id, paidReds.paidId))
    .innerJoin(contracts, eq(contracts.id, paids.contractId))
    .where(and(eq(paidReds.bizCode, code), live, user ? scopeOf(user) : undefined));
  if (!row) throw notFound(PAID_RED);
  return row;
}

export async function viewRed(ex: Executor, code: string, user: ScopeUser): Promise<PaidRedView> {
  const { red, paidCode } = await findRed(ex, code, user);
  const paid = await viewPaid(ex, paidCode, user);
  return {
    paidRedBizCode: red.bizCode,
    paidBizCode: paid.paidBizCode,
    contBizCode: paid.contBizCode,
    contractNo: paid.contractNo,
    custName: paid.custName,
    redDate: red.redDate,
    amount: new Decimal(paid.amount).neg().toFixed(2),
    reason: red.reason,
    state: red.state as PaidRedRow['state'],
    updatedAt: red.updatedAt,
    lines: paid.lines.map((l) => ({ ...l, amount: new Decimal(l.amount).neg().toFixed(2) })),
    paid,
  };
}

export async function deleteRed(tx: Tx, code: string, actor: Actor): Promise<void> {
  await tx
    .update(paidReds)
    .set({ deletedAt: sql`now()`, updatedBy: actor.userId, version: sql`${paidReds.version} + 1` })
    .where(and(eq(paidReds.bizCode, code), live));
}
