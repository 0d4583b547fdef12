import { and, asc, eq, isNull, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { DeptNode, orgAddSchema, orgUpdateSchema } from '@portal/contract/crm';
import type { Db, Executor } from '../../platform/db/client';
import { nextCode } from '../../platform/db/codes';
import type { Actor } from '../../platform/db/audit';
import { runCommand } from '../../platform/db/command';
import { badInput, conflict, notFound } from '../../platform/errors';
import { lockCustomer, requireCustomer } from '../company';
import { compDepts, compUsers } from './schema';
import { liveUser, liveDept, lockCompTree } from './common';

/** 组织架构: a customer's department tree. */

export async function deptTree(db: Db, compCode: string): Promise<DeptNode[]> {
  await requireCustomer(db, compCode);
  const rows = await db
    .select({
      d: compDepts,
      // Qualified by hand: inside the subquery a bare "dept_code" (what ${compDepts.deptCode} renders)
      // binds to u.dept_code, so every department counted all users that have a department.
      userCount: sql<number>`(select count(*)::int from comp_users u where u.dept_code = "comp_depts"."dept_code" and u.comp_code = "comp_depts"."comp_code" and u.deleted_at is null)`,
    })
    .from(compDepts)
    .where(and(eq(compDepts.compCode, compCode), liveDept))
    .orderBy(asc(compDepts.sort), asc(compDepts.id));
  const nodes = new Map<string, DeptNode>(
    rows.map(({ d, userCount }) => [
      d.deptCode,
      {
        deptCode: d.deptCode,
        compCode: d.compCode,
        parentDeptCode: d.parentDeptCode,
        deptName: d.deptName,
        sort: d.sort,
        userCount: Number(userCount),
        version: d.version,
        children: [],
      },
    ]),
  );
  const roots: DeptNode[] = [];
  for (const n of nodes.values()) {
    const parent = n.parentDeptCode ? nodes.get(n.parentDeptCode) : undefined;
    if (parent) parent.children.push(n);
    else roots.push(n);
  }
  return roots;
}

async function checkParentDept(tx: Executor, compCode: string, parent: string | undefined, self?: string) {
  if (!parent) return;
  if (parent === self) throw badInput('上级部门不能是本部门');
  const [p] = await tx
    .select({ compCode: compDepts.compCode })
    .from(compDepts)
    .where(and(eq(compDepts.deptCode, parent), liveDept))
    .limit(1);
  if (!p || p.compCode !== compCode) throw badInput('上级部门不存在或不属于本企业');
  if (!self) return;
  let at: string | null = parent;
  for (let depth = 0; at && depth < 200; depth++) {
    if (at === self) throw badInput('上级部门不能是本部门的下级部门');
    const [up]: { up: string | null }[] = await tx
      .select({ up: compDepts.parentDeptCode })
      .from(compDepts)
      .where(and(eq(compDepts.deptCode, at), liveDept))
      .limit(1);
    at = up?.up ?? null;
  }
}

async function ensureDeptNameFree(
  tx: Executor,
  compCode: string,
  parent: string | undefined,
  name: string,
  self?: string,
) {
  const where = [
    liveDept,
    eq(compDepts.compCode, compCode),
    parent ? eq(compDepts.parentDeptCode, parent) : isNull(compDepts.parentDeptCode),
    eq(compDepts.deptName, name),
  ];
  if (self) where.push(ne(compDepts.deptCode, self));
  const [dup] = await tx
    .select({ id: compDepts.id })
    .from(compDepts)
    .where(and(...where))
    .limit(1);
  if (dup) throw conflict(`同一上级下已存在部门「${name}」`);
}

export async function addDept(
  db: Db,
  input: z.output<typeof orgAddSchema>,
  actor: Actor,
): Promise<{ deptCode: string }> {
  const cmd = { entity: 'compDept', action: 'create', code: input.compCode };
  return runCommand(db, actor, cmd, async (tx, w) => {
    await lockCustomer(tx, input.compCode);
    await lockCompTree(tx, input.compCode);
    await checkParentDept(tx, input.compCode, input.parentDeptCode);
    await ensureDeptNameFree(tx, input.compCode, input.parentDeptCode, input.deptName);
    const deptCode = await nextCode(tx, 'comp_dept');
    await tx.insert(compDepts).values({
      deptCode,
      compCode: input.compCode,
      parentDeptCode: input.parentDeptCode ?? null,
      deptName: input.deptName,
      sort: input.sort,
      createdBy: actor.userId,
      updatedBy: actor.userId,
    });
    await w.audit({
      detail: { deptCode, deptName: input.deptName, parentDeptCode: input.parentDeptCode ?? null },
    });
    return { deptCode };
  });
}

export async function updateDept(
  db: Db,
  input: z.output<typeof orgUpdateSchema>,
  actor: Actor,
): Promise<{ deptCode: string }> {
  const cmd = { entity: 'compDept', action: 'update', version: input.version, what: '部门' };
  return runCommand(db, actor, cmd, async (tx, w) => {
    const where = and(eq(compDepts.deptCode, input.deptCode), liveDept)!;
    const [peek] = await tx.select().from(compDepts).where(where).limit(1);
    if (!peek) throw notFound('部门');
    await lockCompTree(tx, peek.compCode);
    await checkParentDept(tx, peek.compCode, input.parentDeptCode, input.deptCode);
    await ensureDeptNameFree(tx, peek.compCode, input.parentDeptCode, input.deptName, input.deptCode);
    const values = {
      parentDeptCode: input.parentDeptCode ?? null,
      deptName: input.deptName,
      sort: input.sort,
    };
    await w.update(compDepts, where, values);
    await w.audit({
      code: peek.compCode,
      detail: {
        deptCode: input.deptCode,
        before: { parentDeptCode: peek.parentDeptCode, deptName: peek.deptName, sort: peek.sort },
        after: values,
      },
    });
    return { deptCode: input.deptCode };
  });
}

export async function deleteDept(db: Db, deptCode: string, actor: Actor): Promise<void> {
  await runCommand(db, actor, { entity: 'compDept', action: 'delete' }, async (tx, w) => {
    const where = and(eq(compDepts.deptCode, deptCode), liveDept)!;
    const [peek] = await tx.select().from(compDepts).where(where).limit(1);
    if (!peek) throw notFound('部门');
    await lockCompTree(tx, peek.compCode);
    const [child] = await tx
      .select({ name: compDepts.deptName })
      .from(compDepts)
      .where(and(eq(compDepts.parentDeptCode, deptCode), liveDept))
      .limit(1);
    if (child) throw conflict(`该部门下还有下级部门「${child.name}」，不能删除`);
    // Users are locked too: a user moved into the department meanwhile waits for us.
    const [user] = await tx
      .select({ name: compUsers.userName })
      .from(compUsers)
      .where(and(eq(compUsers.deptCode, deptCode), liveUser))
      .limit(1)
      .for('update');
    if (user) throw conflict(`该部门下还有企业用户「${user.name}」，不能删除`);
    await w.touch(compDepts, eq(compDepts.id, peek.id), { deletedAt: sql`now()` });
    await w.audit({ code: peek.compCode, detail: { deptCode, deptName: peek.deptName } });
  });
}
