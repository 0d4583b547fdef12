import Decimal from 'decimal.js';
import { and, asc, desc, eq, ilike, isNull, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import {
  CHANGE_TYPE_LABELS,
  type ChangeType,
  type ChangeView,
  type changeListSchema,
  type changeSaveSchema,
  type DocState,
} from '@portal/contract/credit';
import type { Page } from '@portal/contract/api';
import type { Db, Executor, Tx } from '../../platform/db/client';
import { nextCode } from '../../platform/db/codes';
import type { Actor } from '../../platform/db/audit';
import { runCommand } from '../../platform/db/command';
import type { WorkflowRegistry, Written } from '../workflow';
import { updateVersioned } from '../../platform/db/versioned';
import { badInput, conflict, notFound } from '../../platform/errors';
import { countOf, likePattern, offsetOf, orderClause, page } from '../../platform/http/list';
import { deleteDoc, editableDoc } from './flow';
import { available, figures, lockChain, reserve, setFlags, setLimit, type LineRow } from './ledger';
import { credChanges, creditLines, credits } from './schema';
import { formatYuan } from '@portal/contract/format';

type ChangeRow = typeof credChanges.$inferSelect;
type ChangeInput = z.output<typeof changeSaveSchema>;
const WHAT = '额度变更';
const live = isNull(credChanges.deletedAt);
const fmt = (v: string | Decimal) => new Decimal(v).toFixed(2);

async function getChange(ex: Executor, bizCode: string): Promise<ChangeRow> {
  const [row] = await ex
    .select()
    .from(credChanges)
    .where(and(eq(credChanges.bizCode, bizCode), live));
  if (!row) throw notFound(WHAT);
  return row;
}

function toView(r: ChangeRow, c: typeof credits.$inferSelect, line: LineRow | undefined): ChangeView {
  return {
    bizCode: r.bizCode,
    version: r.version,
    state: r.state as DocState,
    credBizCode: c.bizCode,
    custCode: c.custCode,
    custName: c.custName,
    lineCode: line?.bizCode ?? '',
    changeType: r.changeType as ChangeType,
    oldLimit: fmt(r.oldLimit),
    newLimit: r.newLimit === null ? null : fmt(r.newLimit),
    oldEndDate: r.oldEndDate,
    newEndDate: r.newEndDate,
    reason: r.reason,
    line: line ? figures(line) : null,
    updatedAt: r.updatedAt,
  };
}

export async function viewChange(ex: Executor, bizCode: string, credBizCode?: string): Promise<ChangeView> {
  const r = await getChange(ex, bizCode);
  const [c] = await ex.select().from(credits).where(eq(credits.id, r.creditId));
  if (!c || (credBizCode && c.bizCode !== credBizCode)) throw notFound(WHAT);
  const [line] = await ex.select().from(creditLines).where(eq(creditLines.id, r.lineId));
  return toView(r, c, line);
}

export async function listChanges(
  db: Db,
  q: z.output<typeof changeListSchema>,
  /** The caller's data scope (tableScope). */
  scope: SQL,
): Promise<Page<Omit<ChangeView, 'line'>>> {
  const where: SQL[] = [live, scope];
  if (q.bizCode) where.push(eq(credChanges.bizCode, q.bizCode));
  if (q.credBizCode) where.push(eq(credits.bizCode, q.credBizCode));
  if (q.custName) where.push(ilike(credits.custName, likePattern(q.custName)));
  if (q.changeType) where.push(eq(credChanges.changeType, q.changeType));
  if (q.state) where.push(eq(credChanges.state, q.state));
  const cond = and(...where)!;
  const rows = await db
    .select({ r: credChanges, c: credits, l: creditLines })
    .from(credChanges)
    .innerJoin(credits, eq(credits.id, credChanges.creditId))
    .innerJoin(creditLines, eq(creditLines.id, credChanges.lineId))
    .where(cond)
    .orderBy(
      ...orderClause(
        q,
        { bizCode: credChanges.bizCode, custName: credits.custName, updatedAt: credChanges.updatedAt },
        [desc(credChanges.id)],
      ),
    )
    .limit(q.pageSize)
    .offset(offsetOf(q));
  const total = await countOf(
    db,
    sql`from ${credChanges} inner join ${credits} on ${credits.id} = ${credChanges.creditId} where ${cond}`,
  );
  return page(
    rows.map(({ r, c, l }) => {
      const { line: _line, ...v } = toView(r, c, l);
      return v;
    }),
    total,
    q,
  );
}

/**
 * The rules of a change against the line's current figures (at save, and again at approval with
 * the chain locked):
 * - raise: new limit above the current; a debtor sub-limit never above its platform line; a
 *   distribution child's increase must fit in its parent's available (it is reserved there);
 * - lower: new limit below the current and never below occupied + reserved (409);
 * - extend: new end date after the current; a child never beyond its parent's end date;
 * - freeze / unfreeze: the line must not already be so.
 */
function checkChange(
  t: ChangeType,
  line: LineRow,
  parent: LineRow | undefined,
  newLimit: Decimal | null,
  newEnd: string | null,
): void {
  const limit = new Decimal(line.limitAmount);
  if (t === 'raise') {
    if (!newLimit || newLimit.lte(limit)) throw badInput(`提额后额度必须大于当前额度 ${formatYuan(limit)}`);
    if (line.kind === 'debtor' && parent && newLimit.gt(parent.limitAmount))
      throw conflict(`保理子额度不能超过平台额度 ${formatYuan(parent.limitAmount)}`);
    if (line.kind === 'distribution' && parent) {
      const need = newLimit.minus(limit);
      if (available(parent).lt(need))
        throw conflict(
          `可分配额度不足：平台额度 ${parent.bizCode} 可用 ${formatYuan(available(parent))}，本次提额 ${formatYuan(need)}`,
        );
    }
  } else if (t === 'lower') {
    if (!newLimit || newLimit.gte(limit)) throw badInput(`降额后额度必须小于当前额度 ${formatYuan(limit)}`);
    const floor = new Decimal(line.occupiedAmount).plus(line.reservedAmount);
    if (newLimit.lt(floor))
      throw conflict(
        `降额后额度不能低于已占用与已分配之和：已占用 ${formatYuan(line.occupiedAmount)}，已分配 ${formatYuan(line.reservedAmount)}`,
      );
  } else if (t === 'extend') {
    if (!newEnd || newEnd <= line.endDate) throw badInput(`变更后到期日必须晚于当前到期日 ${line.endDate}`);
    if (parent && newEnd > parent.endDate)
      throw conflict(`变更后到期日不能晚于上级额度的到期日 ${parent.endDate}`);
  } else if (t === 'freeze') {
    if (line.frozen) throw conflict('额度已冻结');
  } else if (t === 'unfreeze') {
    if (!line.frozen) throw conflict('额度未冻结');
  }
}

async function parentLine(ex: Executor, line: LineRow): Promise<LineRow | undefined> {
  if (line.parentLineId === null) return undefined;
  const [p] = await ex.select().from(creditLines).where(eq(creditLines.id, line.parentLineId));
  return p;
}

/** Writes the credit change draft (the workflow pipeline submits and answers): answers its code. */
export async function saveChange(
  tx: Tx,
  workflow: WorkflowRegistry,
  input: ChangeInput,
  actor: Actor,
): Promise<Written> {
  const [c] = await tx
    .select()
    .from(credits)
    .where(and(eq(credits.bizCode, input.credBizCode), isNull(credits.deletedAt)));
  if (!c) throw notFound('授信');
  if (c.state !== 'approved') throw conflict('只有审批通过的授信可以变更额度');
  const [line] = await tx
    .select()
    .from(creditLines)
    .where(
      and(
        eq(creditLines.creditId, c.id),
        input.lineCode ? eq(creditLines.bizCode, input.lineCode) : eq(creditLines.kind, 'platform'),
      ),
    );
  if (!line) throw badInput('额度编号不属于该授信');
  const newLimit =
    ['raise', 'lower'].includes(input.changeType) && input.newLimit ? new Decimal(input.newLimit) : null;
  const newEnd = input.changeType === 'extend' ? (input.newEndDate ?? null) : null;
  checkChange(input.changeType, line, await parentLine(tx, line), newLimit, newEnd);
  const values = {
    creditId: c.id,
    lineId: line.id,
    changeType: input.changeType,
    oldLimit: fmt(line.limitAmount),
    newLimit: newLimit ? fmt(newLimit) : null,
    oldEndDate: line.endDate,
    newEndDate: newEnd,
    reason: input.reason,
  };
  let bizCode = input.bizCode;
  if (!bizCode) {
    bizCode = await nextCode(tx, 'cred_chg');
    await tx
      .insert(credChanges)
      .values({ ...values, bizCode, createdBy: actor.userId, updatedBy: actor.userId });
  } else {
    if (input.version === undefined) throw badInput('版本号不能为空');
    const head = await editableDoc(tx, workflow, 'credChange', bizCode);
    await updateVersioned(
      tx,
      credChanges,
      eq(credChanges.id, head.id),
      input.version,
      values,
      actor.userId,
      WHAT,
    );
  }
  return { code: bizCode, detail: values };
}

/** What the approval process shows of a credit change: the limit it asks for (or keeps). */
export async function changeSubmission(ex: Executor, ch: ChangeRow) {
  const [credit] = await ex
    .select({ custName: credits.custName })
    .from(credits)
    .where(eq(credits.id, ch.creditId));
  const changeType = ch.changeType as keyof typeof CHANGE_TYPE_LABELS;
  return {
    subject: `额度变更 ${credit!.custName} ${CHANGE_TYPE_LABELS[changeType]}`,
    amount: fmt(ch.newLimit ?? ch.oldLimit),
  };
}

export { getChange };

export async function deleteChange(tx: Tx, bizCode: string, actor: Actor): Promise<void> {
  await deleteDoc(tx, 'credChange', bizCode, actor);
}

/** onApprove of credChange (inside the approving transaction). */
export async function applyChange(tx: Tx, bizCode: string, actor: Actor, today: string): Promise<void> {
  await runCommand(tx, actor, { entity: 'credChange', action: 'apply', code: bizCode }, async (_tx, w) => {
    const r = await getChange(tx, bizCode);
    const [link] = await tx
      .select({ code: creditLines.bizCode })
      .from(creditLines)
      .where(eq(creditLines.id, r.lineId));
    const chain = await lockChain(tx, link!.code);
    const line = chain[chain.length - 1]!;
    const parent = chain.length > 1 ? chain[chain.length - 2] : undefined;
    const t = r.changeType as ChangeType;
    const newLimit = r.newLimit === null ? null : new Decimal(r.newLimit);
    checkChange(t, line, parent, newLimit, r.newEndDate);
    const doc = { docType: 'credChange', docCode: bizCode, date: today, actor, reason: r.reason };
    if ((t === 'raise' || t === 'lower') && newLimit) {
      const delta = newLimit.minus(line.limitAmount);
      if (line.kind === 'distribution' && parent) {
        // A distribution child's limit is reserved on its parent: raise reserves more first, lower gives back after.
        if (delta.gt(0)) await reserve(tx, parent, delta, doc, 'reserve');
        await setLimit(tx, line, newLimit, doc);
        if (delta.lt(0)) await reserve(tx, parent, delta.neg(), doc, 'unreserve');
      } else {
        await setLimit(tx, line, newLimit, doc);
      }
    } else if (t === 'extend' && r.newEndDate) {
      await setFlags(tx, line, { endDate: r.newEndDate }, 'extend', {
        ...doc,
        reason: `到期日 ${line.endDate} 延至 ${r.newEndDate}；${r.reason}`,
      });
      // Children that shared the old end date (factoring sub-limits, distributions) follow it; locked after their parent.
      const children = await tx
        .select()
        .from(creditLines)
        .where(and(eq(creditLines.parentLineId, line.id), eq(creditLines.endDate, line.endDate)))
        .orderBy(asc(creditLines.id))
        .for('update');
      for (const child of children)
        await setFlags(tx, child, { endDate: r.newEndDate }, 'extend', {
          ...doc,
          reason: `随上级额度 ${line.bizCode} 延期至 ${r.newEndDate}`,
        });
    } else if (t === 'freeze' || t === 'unfreeze') {
      await setFlags(tx, line, { frozen: t === 'freeze' }, t, doc);
    }
    await w.audit({
      detail: { line: line.bizCode, changeType: t, newLimit: r.newLimit, newEndDate: r.newEndDate },
    });
  });
}
