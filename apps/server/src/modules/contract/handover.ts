import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type {
  HandoverListRow,
  HandoverView,
  handoverListSchema,
  handoverSaveSchema,
} from '@portal/contract/contract';
import type { Page } from '@portal/contract/api';
import type { Db, Executor, Tx } from '../../platform/db/client';
import { nextCode } from '../../platform/db/codes';
import type { Actor } from '../../platform/db/audit';
import { updateVersioned } from '../../platform/db/versioned';
import { badInput, notFound } from '../../platform/errors';
import { countOf, likePattern, offsetOf, orderClause, page } from '../../platform/http/list';
import type { ScopeUser } from '../../platform/auth/data-scope';
import { findContract, receivablesOf, scopeOf, type ContractRow } from './queries';
import { contracts, handoverItems, handovers } from './schema';

type Row = typeof handovers.$inferSelect;
const WHAT = '资料交接单';
const live = isNull(handovers.deletedAt);

/** A new sheet for a contract, prefilled with the originals a factoring file usually holds. */
export async function handoverInit(ex: Executor, row: ContractRow, today: string) {
  const invoices = (await receivablesOf(ex, row.id)).length;
  return {
    contBizCode: row.bizCode,
    contractNo: row.contractNo,
    custName: row.custName,
    handoverDate: today,
    items: [
      { docName: '保理合同', kind: 'original' as const, copies: 2 },
      { docName: '应收账款转让通知书', kind: 'original' as const, copies: 1 },
      { docName: '增值税发票', kind: 'copy' as const, copies: Math.max(1, invoices) },
      { docName: '基础贸易合同', kind: 'copy' as const, copies: 1 },
      { docName: '营业执照', kind: 'copy' as const, copies: 1 },
    ],
  };
}

async function replaceItems(tx: Tx, handoverId: number, items: z.output<typeof handoverSaveSchema>['items']) {
  await tx.delete(handoverItems).where(eq(handoverItems.handoverId, handoverId));
  await tx.insert(handoverItems).values(
    items.map((it, i) => ({
      handoverId,
      docName: it.docName,
      kind: it.kind,
      copies: it.copies,
      pages: it.pages ?? null,
      remark: it.remark ?? null,
      sort: i,
    })),
  );
}

export async function saveHandover(
  tx: Tx,
  body: z.output<typeof handoverSaveSchema>,
  actor: Actor,
  user: ScopeUser,
  today: string,
): Promise<{ code: string; row: ContractRow }> {
  const row = await findContract(tx, body.contBizCode, user);
  if (body.handoverDate > today) throw badInput(`交接日期不能晚于营业日 ${today}`);
  const values = {
    departmentCode: body.departmentCode ?? null,
    companyCode: body.companyCode ?? null,
    handoverName: body.handoverName,
    receiverName: body.receiverName,
    handoverDate: body.handoverDate,
    remark: body.remark ?? null,
  };
  let id: number;
  let code: string;
  if (body.bizCode) {
    const [h] = await tx
      .select()
      .from(handovers)
      .where(and(eq(handovers.bizCode, body.bizCode), live));
    if (!h || h.contractId !== row.id) throw notFound(WHAT);
    if (body.version === undefined) throw badInput('版本号不能为空');
    await updateVersioned(tx, handovers, eq(handovers.id, h.id), body.version, values, actor.userId, WHAT);
    id = h.id;
    code = h.bizCode;
  } else {
    code = await nextCode(tx, 'handover');
    const [h] = await tx
      .insert(handovers)
      .values({
        ...values,
        bizCode: code,
        contractId: row.id,
        createdBy: actor.userId,
        updatedBy: actor.userId,
      })
      .returning({ id: handovers.id });
    id = h!.id;
  }
  await replaceItems(tx, id, body.items);
  return { code, row };
}

export async function findHandover(
  ex: Executor,
  code: string,
  user?: ScopeUser,
): Promise<{ h: Row; contract: ContractRow }> {
  const [h] = await ex
    .select()
    .from(handovers)
    .where(and(eq(handovers.bizCode, code), live));
  if (!h) throw notFound(WHAT);
  const [row] = await ex
    .select()
    .from(contracts)
    .where(and(eq(contracts.id, h.contractId), user ? scopeOf(user) : undefined));
  if (!row) throw notFound(WHAT);
  return { h, contract: row };
}

export async function viewHandover(
  ex: Executor,
  code: string,
  user: ScopeUser,
  filter: { departmentCode?: string | undefined; companyCode?: string | undefined },
): Promise<HandoverView> {
  const { h, contract } = await findHandover(ex, code, user);
  // The optional codes narrow the lookup (a sheet opened from a department's or company's list).
  if (filter.departmentCode && filter.departmentCode !== h.departmentCode) throw notFound(WHAT);
  if (filter.companyCode && filter.companyCode !== h.companyCode) throw notFound(WHAT);
  const items = await ex
    .select()
    .from(handoverItems)
    .where(eq(handoverItems.handoverId, h.id))
    .orderBy(asc(handoverItems.sort), asc(handoverItems.id));
  return {
    bizCode: h.bizCode,
    version: h.version,
    state: h.state as HandoverView['state'],
    contBizCode: contract.bizCode,
    contractNo: contract.contractNo,
    custName: contract.custName,
    departmentCode: h.departmentCode,
    companyCode: h.companyCode,
    handoverName: h.handoverName,
    receiverName: h.receiverName,
    handoverDate: h.handoverDate,
    remark: h.remark,
    items: items.map((i) => ({
      docName: i.docName,
      kind: i.kind as 'original' | 'copy',
      copies: i.copies,
      pages: i.pages ?? undefined,
      remark: i.remark ?? undefined,
    })),
    updatedAt: h.updatedAt,
  };
}

export async function listHandovers(
  db: Db,
  q: z.output<typeof handoverListSchema>,
  user: ScopeUser,
): Promise<Page<HandoverListRow>> {
  const cond = and(
    live,
    scopeOf(user),
    q.bizCode ? eq(handovers.bizCode, q.bizCode) : undefined,
    q.contBizCode ? eq(contracts.bizCode, q.contBizCode) : undefined,
    q.contractNo ? sql`${contracts.contractNo} ilike ${likePattern(q.contractNo)}` : undefined,
    q.state ? eq(handovers.state, q.state) : undefined,
  )!;
  const rows = await db
    .select({
      bizCode: handovers.bizCode,
      contBizCode: contracts.bizCode,
      contractNo: contracts.contractNo,
      custName: contracts.custName,
      handoverDate: handovers.handoverDate,
      receiverName: handovers.receiverName,
      state: handovers.state,
      updatedAt: handovers.updatedAt,
    })
    .from(handovers)
    .innerJoin(contracts, eq(contracts.id, handovers.contractId))
    .where(cond)
    .orderBy(
      ...orderClause(
        q,
        { bizCode: handovers.bizCode, handoverDate: handovers.handoverDate, updatedAt: handovers.updatedAt },
        [sql`${handovers.updatedAt} desc`, sql`${handovers.id} desc`],
      ),
    )
    .limit(q.pageSize)
    .offset(offsetOf(q));
  const total = await countOf(
    db,
    sql`from ${handovers} inner join ${contracts} on ${contracts.id} = ${handovers.contractId} where ${cond}`,
  );
  return page(
    rows.map((r) => ({ ...r, state: r.state as HandoverListRow['state'] })),
    total,
    q,
  );
}

export async function deleteHandover(tx: Tx, h: Row, actor: Actor): Promise<void> {
  await tx
    .update(handovers)
    .set({ deletedAt: sql`now()`, updatedBy: actor.userId, version: sql`${handovers.version} + 1` })
    .where(eq(handovers.id, h.id));
}
