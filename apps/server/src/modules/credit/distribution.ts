import Decimal from 'decimal.js';
import { and, asc, desc, eq, ilike, isNull, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type {
  Cycle,
  DistView,
  DocState,
  distFileSaveSchema,
  distListSchema,
  distSaveSchema,
} from '@portal/contract/credit';
import type { FileInfo } from '@portal/contract/files';
import type { Page } from '@portal/contract/api';
import type { Db, Executor, Tx } from '../../platform/db/client';
import { nextCode } from '../../platform/db/codes';
import type { Actor } from '../../platform/db/audit';
import type { WorkflowRegistry, Written } from '../workflow';
import { updateVersioned } from '../../platform/db/versioned';
import { badInput, conflict, notFound } from '../../platform/errors';
import { countOf, likePattern, offsetOf, orderClause, page } from '../../platform/http/list';
import { getCustomer, requireActiveCustomer, requireAdmittedCustomer } from '../company';
import { listFiles, setDocumentFiles } from '../files';
import { deleteDoc, editableDoc } from './flow';
import { available, createLine, figures, lockChain, reserve, type LineRow } from './ledger';
import { credDistributionItems, credDistributions, creditLines, credits } from './schema';
import type { CreditDeps } from './service';
import { formatYuan } from '@portal/contract/format';

type DistRow = typeof credDistributions.$inferSelect;
type DistInput = z.output<typeof distSaveSchema>;
const WHAT = '额度分配';
const live = isNull(credDistributions.deletedAt);
const fmt = (v: string | Decimal) => new Decimal(v).toFixed(2);

async function getDist(ex: Executor, bizCode: string): Promise<DistRow> {
  const [row] = await ex
    .select()
    .from(credDistributions)
    .where(and(eq(credDistributions.bizCode, bizCode), live));
  if (!row) throw notFound(WHAT);
  return row;
}

export async function viewDistribution(
  ex: Executor,
  bizCode: string,
  credBizCode?: string,
): Promise<DistView> {
  const d = await getDist(ex, bizCode);
  const [c] = await ex.select().from(credits).where(eq(credits.id, d.creditId));
  if (!c || (credBizCode && c.bizCode !== credBizCode)) throw notFound(WHAT);
  const [parent] = await ex.select().from(creditLines).where(eq(creditLines.id, d.parentLineId));
  const items = await ex
    .select({ i: credDistributionItems, lineCode: creditLines.bizCode })
    .from(credDistributionItems)
    .leftJoin(creditLines, eq(creditLines.id, credDistributionItems.lineId))
    .where(eq(credDistributionItems.distId, d.id))
    .orderBy(asc(credDistributionItems.sort), asc(credDistributionItems.id));
  return {
    bizCode: d.bizCode,
    version: d.version,
    state: d.state as DocState,
    credBizCode: c.bizCode,
    custCode: c.custCode,
    custName: c.custName,
    parentLineCode: parent?.bizCode ?? '',
    totalAmount: fmt(d.totalAmount),
    remark: d.remark,
    items: items.map(({ i, lineCode }) => ({
      id: i.id,
      targetType: i.targetType as 'member' | 'product',
      custCode: i.custCode ?? undefined,
      custName: i.custName ?? undefined,
      product: (i.product ?? undefined) as DistView['items'][number]['product'],
      amount: fmt(i.amount),
      remark: i.remark ?? undefined,
      lineCode,
    })),
    parent: parent ? figures(parent) : null,
    updatedAt: d.updatedAt,
  };
}

export async function listDistributions(
  db: Db,
  q: z.output<typeof distListSchema>,
  /** The caller's data scope (tableScope). */
  scope: SQL,
): Promise<Page<Omit<DistView, 'items' | 'parent'>>> {
  const where: SQL[] = [live, scope];
  if (q.bizCode) where.push(eq(credDistributions.bizCode, q.bizCode));
  if (q.credBizCode) where.push(eq(credits.bizCode, q.credBizCode));
  if (q.custName) where.push(ilike(credits.custName, likePattern(q.custName)));
  if (q.state) where.push(eq(credDistributions.state, q.state));
  const cond = and(...where)!;
  const rows = await db
    .select({ d: credDistributions, c: credits, parentCode: creditLines.bizCode })
    .from(credDistributions)
    .innerJoin(credits, eq(credits.id, credDistributions.creditId))
    .innerJoin(creditLines, eq(creditLines.id, credDistributions.parentLineId))
    .where(cond)
    .orderBy(
      ...orderClause(
        q,
        {
          bizCode: credDistributions.bizCode,
          custName: credits.custName,
          totalAmount: credDistributions.totalAmount,
          updatedAt: credDistributions.updatedAt,
        },
        [desc(credDistributions.id)],
      ),
    )
    .limit(q.pageSize)
    .offset(offsetOf(q));
  const total = await countOf(
    db,
    sql`from ${credDistributions} inner join ${credits} on ${credits.id} = ${credDistributions.creditId} where ${cond}`,
  );
  return page(
    rows.map(({ d, c, parentCode }) => ({
      bizCode: d.bizCode,
      version: d.version,
      state: d.state as DocState,
      credBizCode: c.bizCode,
      custCode: c.custCode,
      custName: c.custName,
      parentLineCode: parentCode,
      totalAmount: fmt(d.totalAmount),
      remark: d.remark,
      updatedAt: d.updatedAt,
    })),
    total,
    q,
  );
}

/** The approved credit and its platform line (the parent every distribution splits). */
async function parentOf(ex: Executor, credBizCode: string) {
  const [c] = await ex
    .select()
    .from(credits)
    .where(and(eq(credits.bizCode, credBizCode), isNull(credits.deletedAt)));
  if (!c) throw notFound('授信');
  if (c.state !== 'approved') throw conflict('只有审批通过的授信可以分配额度');
  const [line] = await ex
    .select()
    .from(creditLines)
    .where(and(eq(creditLines.creditId, c.id), eq(creditLines.kind, 'platform')));
  if (!line) throw conflict('授信没有平台额度');
  return { credit: c, line };
}

/** Members must be enabled customers of the credit customer's group (parent, child or sibling). */
async function checkItems(
  ex: Executor,
  custCode: string,
  items: DistInput['items'],
): Promise<DistInput['items']> {
  const owner = await getCustomer(ex, custCode);
  const out: DistInput['items'] = [];
  const seen = new Set<string>();
  for (const [n, i] of items.entries()) {
    if (i.targetType === 'member') {
      const m = await requireActiveCustomer(ex, i.custCode!, {
        label: `分配明细第${n + 1}行成员客户`,
        admitted: true,
      });
      const sameGroup =
        m.compCode === custCode ||
        m.parentCompCode === custCode ||
        (owner?.parentCompCode != null &&
          (m.parentCompCode === owner.parentCompCode || m.compCode === owner.parentCompCode));
      if (!sameGroup) throw badInput(`分配明细第${n + 1}行：成员客户「${m.compName}」不属于该客户的集团`);
      const key = `m:${m.compCode}`;
      if (seen.has(key)) throw badInput(`分配明细第${n + 1}行：成员客户重复`);
      seen.add(key);
      out.push({ ...i, custName: m.compName, product: undefined });
    } else {
      const key = `p:${i.product!}`;
      if (seen.has(key)) throw badInput(`分配明细第${n + 1}行：产品重复`);
      seen.add(key);
      out.push({ ...i, custCode: undefined, custName: undefined });
    }
  }
  return out;
}

function sumOf(items: { amount: string }[]): Decimal {
  return items.reduce((s, i) => s.plus(i.amount), new Decimal(0));
}

function checkSum(line: LineRow, total: Decimal): void {
  const avail = available(line);
  if (total.gt(avail))
    throw conflict(
      `分配额度合计 ${formatYuan(total)} 超过平台额度 ${line.bizCode} 的可分配额度 ${formatYuan(avail)}`,
    );
}

/** Writes the distribution draft (the workflow pipeline submits and answers): answers its code. */
export async function saveDistribution(
  tx: Tx,
  workflow: WorkflowRegistry,
  input: DistInput,
  actor: Actor,
): Promise<Written> {
  const { credit, line } = await parentOf(tx, input.credBizCode);
  const items = await checkItems(tx, credit.custCode, input.items);
  const total = sumOf(items);
  checkSum(line, total);
  let bizCode = input.bizCode;
  let distId: number;
  if (!bizCode) {
    bizCode = await nextCode(tx, 'cred_dist');
    const [row] = await tx
      .insert(credDistributions)
      .values({
        bizCode,
        creditId: credit.id,
        parentLineId: line.id,
        totalAmount: fmt(total),
        remark: input.remark ?? null,
        createdBy: actor.userId,
        updatedBy: actor.userId,
      })
      .returning({ id: credDistributions.id });
    distId = row!.id;
  } else {
    if (input.version === undefined) throw badInput('版本号不能为空');
    const head = await editableDoc(tx, workflow, 'credDistribution', bizCode);
    const d = await getDist(tx, bizCode);
    if (d.creditId !== credit.id) throw badInput('授信编号与原额度分配不一致');
    await updateVersioned(
      tx,
      credDistributions,
      eq(credDistributions.id, head.id),
      input.version,
      { totalAmount: fmt(total), remark: input.remark ?? null },
      actor.userId,
      WHAT,
    );
    distId = head.id;
    await tx.delete(credDistributionItems).where(eq(credDistributionItems.distId, distId));
  }
  await tx.insert(credDistributionItems).values(
    items.map((i, sort) => ({
      distId,
      targetType: i.targetType,
      custCode: i.custCode ?? null,
      custName: i.custName ?? null,
      product: i.product ?? null,
      amount: fmt(i.amount),
      remark: i.remark ?? null,
      sort,
    })),
  );
  return { code: bizCode, detail: { items, total: fmt(total) } };
}

/** What the approval process shows of a distribution. */
export async function distSubmission(ex: Executor, d: DistRow) {
  const [credit] = await ex
    .select({ custName: credits.custName })
    .from(credits)
    .where(eq(credits.id, d.creditId));
  return { subject: `额度分配 ${credit!.custName} ${formatYuan(d.totalAmount)}`, amount: fmt(d.totalAmount) };
}

export { getDist };

export async function deleteDistribution(tx: Tx, bizCode: string, actor: Actor): Promise<void> {
  await deleteDoc(tx, 'credDistribution', bizCode, actor);
}

/** onApprove of credDistribution (inside the approving transaction). */
export async function applyDistribution(tx: Tx, bizCode: string, actor: Actor, today: string): Promise<void> {
  {
    const d = await getDist(tx, bizCode);
    const [parentLink] = await tx.select().from(creditLines).where(eq(creditLines.id, d.parentLineId));
    const chain = await lockChain(tx, parentLink!.bizCode);
    const parent = chain[chain.length - 1]!;
    if (parent.state !== 'active') throw conflict(`平台额度 ${parent.bizCode} 已关闭，不能分配`);
    if (parent.frozen) throw conflict(`平台额度 ${parent.bizCode} 已冻结，不能分配`);
    if (parent.endDate < today) throw conflict(`平台额度 ${parent.bizCode} 已到期，不能分配`);
    const items = await tx
      .select()
      .from(credDistributionItems)
      .where(eq(credDistributionItems.distId, d.id))
      .orderBy(asc(credDistributionItems.sort), asc(credDistributionItems.id));
    for (const i of items) {
      if (i.targetType === 'member' && i.custCode) await requireAdmittedCustomer(tx, i.custCode, '成员客户');
    }
    const total = sumOf(items);
    checkSum(parent, total);
    const doc = {
      docType: 'credDistribution',
      docCode: bizCode,
      date: today,
      actor,
      reason: '额度分配审批通过',
    };
    const reserved = await reserve(tx, parent, total, doc, 'reserve');
    for (const i of items) {
      const child = await createLine(
        tx,
        {
          kind: 'distribution',
          creditId: d.creditId,
          parent: reserved,
          sourceDocCode: bizCode,
          custCode: i.custCode ?? parent.custCode,
          custName: i.custName ?? parent.custName,
          product: i.product ?? parent.product,
          limitAmount: new Decimal(i.amount),
          startDate: parent.startDate,
          endDate: parent.endDate,
          cycle: parent.cycle as Cycle,
        },
        { ...doc, reason: '分配额度生效' },
      );
      await tx
        .update(credDistributionItems)
        .set({ lineId: child.id })
        .where(eq(credDistributionItems.id, i.id));
    }
  }
}

export async function distFiles(ex: Executor, bizCode: string): Promise<FileInfo[]> {
  const d = await getDist(ex, bizCode);
  return listFiles(ex, 'credDistribution', d.bizCode);
}

export async function saveDistFiles(
  deps: CreditDeps,
  input: z.output<typeof distFileSaveSchema>,
  actor: Actor,
) {
  return deps.db.transaction(async (tx) => {
    const head = await editableDoc(tx, deps.workflow, 'credDistribution', input.distBizCode);
    await updateVersioned(
      tx,
      credDistributions,
      eq(credDistributions.id, head.id),
      input.version,
      {},
      actor.userId,
      WHAT,
    );
    await setDocumentFiles(tx, {
      docType: 'credDistribution',
      docCode: head.bizCode,
      fileTokens: input.fileTokens,
      actor,
    });
    return { bizCode: head.bizCode, version: head.version + 1 };
  });
}
