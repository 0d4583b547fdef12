import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  PERMISSION_MESSAGES as M,
  type OrgNode,
  type OrgView,
  type State,
  type orgAddSchema,
  type orgUpdateSchema,
} from '@portal/contract/permission';
import type { Db, Executor } from '../../platform/db/client';
import { nextCode } from '../../platform/db/codes';
import { runCommand } from '../../platform/db/command';
import { badInput, conflict, notFound } from '../../platform/errors';
import { deptSubtreeIds } from '../../platform/auth/data-scope';
import { depts } from '../../platform/auth/schema';
import { lockPermissions, type Acting } from './common';

type DeptRow = typeof depts.$inferSelect;
const WHAT = '组织';
const live = isNull(depts.deletedAt);

const userCountSql = sql<number>`(select count(*)::int from users u where u.dept_id = "depts"."id" and u.deleted_at is null)`;

async function allDepts(ex: Executor): Promise<{ d: DeptRow; n: number }[]> {
  return ex
    .select({ d: depts, n: userCountSql })
    .from(depts)
    .where(live)
    .orderBy(asc(depts.sort), asc(depts.id));
}

function toView(d: DeptRow, n: number, byId: Map<number, DeptRow>): OrgView {
  const parent = d.parentId !== null ? byId.get(d.parentId) : undefined;
  return {
    deptBizCode: d.bizCode,
    name: d.name,
    parentCode: parent?.bizCode ?? null,
    parentName: parent?.name ?? null,
    sort: d.sort,
    leader: d.leader,
    phone: d.phone,
    state: d.state as State,
    userCount: Number(n),
    version: d.version,
  };
}

/** The organisation tree, siblings by order then age. */
export async function orgTree(db: Db): Promise<OrgNode[]> {
  const rows = await allDepts(db);
  const byId = new Map(rows.map((r) => [r.d.id, r.d]));
  const nodes = new Map<number, OrgNode>();
  for (const r of rows) nodes.set(r.d.id, { ...toView(r.d, r.n, byId), children: [] });
  const roots: OrgNode[] = [];
  for (const r of rows) {
    const node = nodes.get(r.d.id)!;
    const parent = r.d.parentId !== null ? nodes.get(r.d.parentId) : undefined;
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

/** A live organisation by code, or undefined. */
export async function findDept(
  ex: Executor,
  bizCode: string,
  forUpdate = false,
): Promise<DeptRow | undefined> {
  const q = ex
    .select()
    .from(depts)
    .where(and(eq(depts.bizCode, bizCode), live))
    .limit(1);
  const [row] = forUpdate ? await q.for('update') : await q;
  return row;
}

export async function getOrg(db: Db, bizCode: string): Promise<OrgView> {
  const row = await findDept(db, bizCode);
  if (!row) throw notFound(WHAT);
  const [n] = await db.select({ n: userCountSql }).from(depts).where(eq(depts.id, row.id));
  const parent = row.parentId !== null ? await db.select().from(depts).where(eq(depts.id, row.parentId)) : [];
  const byId = new Map(parent.map((p) => [p.id, p]));
  return toView(row, n?.n ?? 0, byId);
}

async function parentId(tx: Executor, parentCode: string | undefined): Promise<number | null> {
  if (!parentCode) return null;
  const p = await findDept(tx, parentCode);
  if (!p) throw badInput(M.orgParentMissing);
  return p.id;
}

export async function addOrg(
  db: Db,
  input: z.output<typeof orgAddSchema>,
  { actor }: Acting,
): Promise<{ deptBizCode: string }> {
  return runCommand(db, actor, { entity: 'dept', action: 'add' }, async (tx, w) => {
    await lockPermissions(tx);
    const pid = await parentId(tx, input.parentCode);
    const bizCode = await nextCode(tx, 'dept');
    await tx.insert(depts).values({
      bizCode,
      ...orgValues(input, pid),
      createdBy: actor.userId || null,
      updatedBy: actor.userId || null,
    });
    await w.audit({ code: bizCode, detail: input });
    return { deptBizCode: bizCode };
  });
}

/** The columns an organisation's form sets. */
function orgValues(input: z.output<typeof orgAddSchema>, pid: number | null) {
  return {
    name: input.name,
    parentId: pid,
    sort: input.sort,
    leader: input.leader ?? null,
    phone: input.phone ?? null,
    state: input.state,
  };
}

/** Moving a node under itself or under one of its descendants would make a cycle: 409. */
export async function updateOrg(
  db: Db,
  input: z.output<typeof orgUpdateSchema>,
  { actor }: Acting,
): Promise<void> {
  const cmd = { entity: 'dept', action: 'update', version: input.version, what: WHAT };
  await runCommand(db, actor, cmd, async (tx, w) => {
    await lockPermissions(tx);
    const row = await findDept(tx, input.deptBizCode, true);
    if (!row) throw notFound(WHAT);
    const pid = await parentId(tx, input.parentCode);
    if (pid !== null && (await deptSubtreeIds(tx, row.id)).includes(pid)) throw conflict(M.orgCycle);
    // The columns set are the audit row's `after`: a change of any of them shows before and after.
    const after = orgValues(input, pid);
    await w.update(depts, eq(depts.id, row.id), after);
    await w.audit({
      code: row.bizCode,
      detail: {
        before: {
          name: row.name,
          parentId: row.parentId,
          sort: row.sort,
          leader: row.leader,
          phone: row.phone,
          state: row.state,
        },
        after,
      },
    });
  });
}

/** Soft removal of an empty organisation: one with live children or users answers 409. */
export async function removeOrg(db: Db, bizCode: string, { actor }: Acting): Promise<void> {
  await runCommand(db, actor, { entity: 'dept', action: 'remove', code: bizCode }, async (tx, w) => {
    await lockPermissions(tx);
    const row = await findDept(tx, bizCode, true);
    if (!row) throw notFound(WHAT);
    const [child] = await tx
      .select({ id: depts.id })
      .from(depts)
      .where(and(eq(depts.parentId, row.id), live))
      .limit(1);
    if (child) throw conflict(M.orgHasChildren);
    const [n] = await tx.select({ n: userCountSql }).from(depts).where(eq(depts.id, row.id));
    if ((n?.n ?? 0) > 0) throw conflict(`${M.orgHasUsers}（${n!.n}个）`);
    await w.touch(depts, eq(depts.id, row.id), { deletedAt: sql`now()`, updatedBy: actor.userId || null });
    await w.audit({ detail: { name: row.name } });
  });
}
