import { and, asc, eq, ilike, inArray, isNull, ne, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Page } from '@portal/contract/api';
import { ADMIN_CODE } from '@portal/contract/menus';
import {
  ADMIN_ROLE_CODE,
  PERMISSION_MESSAGES as M,
  type DataScope,
  type DictItem,
  type MenuTreeNode,
  type RoleDetail,
  type RoleView,
  type State,
  type UserTreeNode,
  type roleAddSchema,
  type roleCfgSaveSchema,
  type roleListSchema,
  type roleUpdateSchema,
} from '@portal/contract/permission';
import { queryRows, type Db, type Executor } from '../../platform/db/client';
import { nextCode } from '../../platform/db/codes';
import { runCommand } from '../../platform/db/command';
import { badInput, conflict, noPermission, notFound } from '../../platform/errors';
import { countOf, likePattern, offsetOf, orderClause, page } from '../../platform/http/list';
import { depts, menus, roleDepts, roleMenus, roles, userRoles, users } from '../../platform/auth/schema';
import { roleReach } from '../../platform/auth/data-scope';
import { grantBeyond, roleGrant } from '../../platform/auth/grant';
import type { SessionUser } from '../../platform/auth/sessions';
import {
  assertAdminRemains,
  assertGrantable,
  assertNotOwnRole,
  assertRoleWithin,
  isAdmin,
  lockPermissions,
  requireAdmin,
  type Acting,
} from './common';

type RoleRow = typeof roles.$inferSelect;
const WHAT = '角色';
const live = isNull(roles.deletedAt);

const userCountSql = sql<number>`(select count(*)::int from user_roles ur join users u on u.id = ur.user_id
  where ur.role_id = "roles"."id" and u.deleted_at is null)`;

function toView(r: RoleRow, userCount: number, deptCodes: string[]): RoleView {
  return {
    bizCode: r.bizCode,
    name: r.name,
    code: r.code,
    description: r.description,
    state: r.state as State,
    dataScope: r.dataScope as DataScope,
    deptCodes,
    builtIn: r.code === ADMIN_ROLE_CODE,
    userCount: Number(userCount),
    version: r.version,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

export async function listRoles(db: Db, q: z.output<typeof roleListSchema>): Promise<Page<RoleView>> {
  const where: SQL[] = [live];
  if (q.name) where.push(ilike(roles.name, likePattern(q.name)));
  if (q.code) where.push(ilike(roles.code, likePattern(q.code)));
  if (q.state) where.push(eq(roles.state, q.state));
  const cond = and(...where)!;
  const rows = await db
    .select({ r: roles, n: userCountSql })
    .from(roles)
    .where(cond)
    .orderBy(
      ...orderClause(
        q,
        { bizCode: roles.bizCode, name: roles.name, code: roles.code, createdAt: roles.createdAt },
        [asc(roles.id)],
      ),
    )
    .limit(q.pageSize)
    .offset(offsetOf(q));
  const total = await countOf(db, sql`from ${roles} where ${cond}`);
  const chosen = await chosenDepts(
    db,
    rows.map((x) => x.r.id),
  );
  return page(
    rows.map((x) => toView(x.r, x.n, chosen.get(x.r.id) ?? [])),
    total,
    q,
  );
}

/** The organisations of the roles' 自定义 scopes, by role id. */
async function chosenDepts(ex: Executor, roleIds: number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  if (roleIds.length === 0) return out;
  const rows = await ex
    .select({ roleId: roleDepts.roleId, code: depts.bizCode })
    .from(roleDepts)
    .innerJoin(depts, eq(depts.id, roleDepts.deptId))
    .where(inArray(roleDepts.roleId, roleIds))
    .orderBy(asc(depts.bizCode));
  for (const r of rows) out.set(r.roleId, [...(out.get(r.roleId) ?? []), r.code]);
  return out;
}

/**
 * The scope a role add or update asks for, checked against the acting user (no escalation): the
 * chosen organisations' ids for 自定义 (none for the other scopes).
 */
async function askedScope(
  tx: Executor,
  input: { dataScope: DataScope; deptCodes: string[] },
  user: SessionUser,
): Promise<number[]> {
  const codes = input.dataScope === 'custom' ? [...new Set(input.deptCodes)] : [];
  const found =
    codes.length > 0
      ? await tx
          .select({ id: depts.id })
          .from(depts)
          .where(and(inArray(depts.bizCode, codes), isNull(depts.deletedAt)))
      : [];
  if (found.length !== codes.length) throw badInput(M.scopeDeptMissing);
  const ids = found.map((d) => d.id);
  await assertGrantable(tx, user, { reach: roleReach(input.dataScope, ids, user.deptId) });
  return ids;
}

async function setChosenDepts(tx: Executor, roleId: number, deptIds: number[]): Promise<void> {
  await tx.delete(roleDepts).where(eq(roleDepts.roleId, roleId));
  if (deptIds.length > 0) await tx.insert(roleDepts).values(deptIds.map((deptId) => ({ roleId, deptId })));
}

async function findRole(ex: Executor, bizCode: string, forUpdate = false): Promise<RoleRow> {
  const q = ex
    .select()
    .from(roles)
    .where(and(eq(roles.bizCode, bizCode), live))
    .limit(1);
  const [row] = forUpdate ? await q.for('update') : await q;
  if (!row) throw notFound(WHAT);
  return row;
}

async function grantedCodes(ex: Executor, roleId: number): Promise<string[]> {
  const rows = await ex
    .select({ code: roleMenus.menuCode })
    .from(roleMenus)
    .where(eq(roleMenus.roleId, roleId))
    .orderBy(asc(roleMenus.menuCode));
  return rows.map((r) => r.code);
}

export async function getRole(db: Db, bizCode: string): Promise<RoleDetail> {
  const row = await findRole(db, bizCode);
  const [n] = await db.select({ n: userCountSql }).from(roles).where(eq(roles.id, row.id));
  const chosen = (await chosenDepts(db, [row.id])).get(row.id) ?? [];
  return { ...toView(row, n?.n ?? 0, chosen), menuCodes: await grantedCodes(db, row.id) };
}

async function assertCodeFree(tx: Executor, code: string, exceptId?: number): Promise<void> {
  const where = [eq(sql`lower(${roles.code})`, code.toLowerCase()), live];
  if (exceptId !== undefined) where.push(ne(roles.id, exceptId));
  const [dup] = await tx
    .select({ id: roles.id })
    .from(roles)
    .where(and(...where))
    .limit(1);
  if (dup) throw conflict(M.roleCodeTaken);
}

export async function addRole(
  db: Db,
  input: z.output<typeof roleAddSchema>,
  { actor, user }: Acting,
): Promise<{ bizCode: string }> {
  return runCommand(db, actor, { entity: 'role', action: 'add' }, async (tx, w) => {
    await lockPermissions(tx);
    const deptIds = await askedScope(tx, input, user);
    await assertCodeFree(tx, input.code);
    const bizCode = await nextCode(tx, 'role');
    const [made] = await tx
      .insert(roles)
      .values({
        bizCode,
        name: input.name,
        code: input.code,
        description: input.description ?? null,
        state: input.state,
        dataScope: input.dataScope,
        createdBy: actor.userId || null,
        updatedBy: actor.userId || null,
      })
      .returning({ id: roles.id });
    await setChosenDepts(tx, made!.id, deptIds);
    await w.audit({ code: bizCode, detail: input });
    return { bizCode };
  });
}

export async function updateRole(
  db: Db,
  input: z.output<typeof roleUpdateSchema>,
  { actor, user }: Acting,
): Promise<void> {
  const cmd = { entity: 'role', action: 'update', code: input.bizCode, version: input.version, what: WHAT };
  await runCommand(db, actor, cmd, async (tx, w) => {
    await lockPermissions(tx);
    const row = await findRole(tx, input.bizCode, true);
    await assertNotOwnRole(tx, user, row.id);
    await assertRoleWithin(tx, user, row.bizCode);
    const deptIds = await askedScope(tx, input, user);
    const beforeDepts = (await chosenDepts(tx, [row.id])).get(row.id) ?? [];
    if (
      row.code === ADMIN_ROLE_CODE &&
      (input.code !== ADMIN_ROLE_CODE || input.state !== 'enabled' || input.dataScope !== 'all')
    )
      throw conflict(M.adminRoleFixed);
    await assertCodeFree(tx, input.code, row.id);
    await w.update(roles, eq(roles.id, row.id), {
      name: input.name,
      code: input.code,
      description: input.description ?? null,
      state: input.state,
      dataScope: input.dataScope,
    });
    await setChosenDepts(tx, row.id, deptIds);
    await assertAdminRemains(tx);
    const afterDepts = (await chosenDepts(tx, [row.id])).get(row.id) ?? [];
    await w.audit({
      code: row.bizCode,
      detail: {
        before: {
          name: row.name,
          code: row.code,
          description: row.description,
          state: row.state,
          dataScope: row.dataScope,
          deptCodes: beforeDepts,
        },
        after: {
          name: input.name,
          code: input.code,
          description: input.description ?? null,
          state: input.state,
          dataScope: input.dataScope,
          deptCodes: afterDepts,
        },
      },
    });
  });
}

export async function removeRole(db: Db, bizCode: string, { actor, user }: Acting): Promise<void> {
  await runCommand(db, actor, { entity: 'role', action: 'remove', code: bizCode }, async (tx, w) => {
    await lockPermissions(tx);
    const row = await findRole(tx, bizCode, true);
    await assertNotOwnRole(tx, user, row.id);
    await assertRoleWithin(tx, user, row.bizCode);
    if (row.code === ADMIN_ROLE_CODE) throw conflict(M.adminRoleRemove);
    const [n] = await tx.select({ n: userCountSql }).from(roles).where(eq(roles.id, row.id));
    if ((n?.n ?? 0) > 0) throw conflict(`${M.roleInUse}（${n!.n}个用户）`);
    await w.touch(roles, eq(roles.id, row.id), { deletedAt: sql`now()`, updatedBy: actor.userId || null });
    await w.audit({ detail: { name: row.name } });
  });
}

/**
 * Stores the role's menu and button codes. Every code must be in the catalogue; the ancestors of a
 * checked code are granted with it (a button is useless without its screen). Takes effect on each
 * holder's next call: codes are read per call (platform/auth/sessions.ts).
 */
export async function saveRoleConfig(
  db: Db,
  input: z.output<typeof roleCfgSaveSchema>,
  { actor, user }: Acting,
): Promise<{ menuCodes: string[] }> {
  const cmd = { entity: 'role', action: 'cfgSave', code: input.bizCode, version: input.version, what: WHAT };
  return runCommand(db, actor, cmd, async (tx, w) => {
    await lockPermissions(tx);
    const row = await findRole(tx, input.bizCode, true);
    if (row.code === ADMIN_ROLE_CODE) throw conflict(M.adminRoleFixed);
    await assertNotOwnRole(tx, user, row.id);
    await assertRoleWithin(tx, user, row.bizCode);
    const all = await tx.select({ code: menus.code, parent: menus.parentCode }).from(menus);
    const parentOf = new Map(all.map((m) => [m.code, m.parent]));
    const wanted = new Set<string>();
    for (const c of input.menuCodes) {
      if (!parentOf.has(c)) throw badInput(`${M.menuCodeUnknown}：${c}`);
      for (let cur: string | null | undefined = c; cur && !wanted.has(cur); cur = parentOf.get(cur))
        wanted.add(cur);
    }
    await assertGrantable(tx, user, { codes: wanted });
    const before = await grantedCodes(tx, row.id);
    await w.update(roles, eq(roles.id, row.id), {});
    await tx.delete(roleMenus).where(eq(roleMenus.roleId, row.id));
    const codes = [...wanted].sort();
    if (codes.length > 0)
      await tx.insert(roleMenus).values(codes.map((menuCode) => ({ roleId: row.id, menuCode })));
    const beforeSet = new Set(before);
    await w.audit({
      code: row.bizCode,
      detail: {
        added: codes.filter((c) => !beforeSet.has(c)),
        removed: before.filter((c) => !wanted.has(c)),
      },
    });
    return { menuCodes: codes };
  });
}

/** The catalogue as seeded into the menu table: menus with their buttons under them. */
export async function menuTree(db: Db): Promise<MenuTreeNode[]> {
  const rows = await db.select().from(menus).orderBy(asc(menus.sort), asc(menus.code));
  const nodes = new Map<string, MenuTreeNode>();
  for (const r of rows)
    nodes.set(r.code, { code: r.code, title: r.title, kind: r.kind as 'menu' | 'button' });
  const roots: MenuTreeNode[] = [];
  for (const r of rows) {
    const node = nodes.get(r.code)!;
    const parent = r.parentCode ? nodes.get(r.parentCode) : undefined;
    if (parent) (parent.children ??= []).push(node);
    else roots.push(node);
  }
  return roots;
}

export async function roleDict(db: Db): Promise<DictItem[]> {
  const rows = await db
    .select({ code: roles.bizCode, label: roles.name })
    .from(roles)
    .where(and(live, eq(roles.state, 'enabled')))
    .orderBy(asc(roles.id));
  return rows;
}

/** Organisations with their live, enabled users as leaves: for choosing people. */
export async function userTree(db: Db): Promise<UserTreeNode[]> {
  const ds = await db
    .select({ id: depts.id, code: depts.bizCode, name: depts.name, parentId: depts.parentId })
    .from(depts)
    .where(isNull(depts.deletedAt))
    .orderBy(asc(depts.sort), asc(depts.id));
  const us = await db
    .select({ code: users.userCode, name: users.realName, userName: users.userName, deptId: users.deptId })
    .from(users)
    .where(and(isNull(users.deletedAt), eq(users.state, 'enabled')))
    .orderBy(asc(users.id));
  const byId = new Map<number, UserTreeNode>();
  for (const d of ds)
    byId.set(d.id, { key: `dept:${d.code}`, type: 'dept', code: d.code, title: d.name, children: [] });
  const roots: UserTreeNode[] = [];
  for (const d of ds) {
    const node = byId.get(d.id)!;
    const parent = d.parentId !== null ? byId.get(d.parentId) : undefined;
    if (parent) parent.children!.push(node);
    else roots.push(node);
  }
  for (const u of us) {
    const leaf: UserTreeNode = {
      key: `user:${u.code}`,
      type: 'user',
      code: u.code,
      title: `${u.name}（${u.userName}）`,
    };
    const parent = u.deptId !== null ? byId.get(u.deptId) : undefined;
    if (parent) parent.children!.push(leaf);
    else roots.push(leaf);
  }
  return roots;
}

/**
 * Live roles by bizCode; a missing one answers 400 naming the field. The admin role needs an admin,
 * and a role newly given (not in `kept`, the roles the user already holds) must be no wider than
 * the acting user: its codes theirs, its data scope no wider (no escalation: SECURITY.md).
 */
export async function resolveRoles(
  tx: Executor,
  codes: string[],
  acting: Acting,
  kept: readonly string[] = [],
): Promise<RoleRow[]> {
  const unique = [...new Set(codes)];
  if (unique.length === 0) return [];
  const rows = await tx
    .select()
    .from(roles)
    .where(and(inArray(roles.bizCode, unique), live));
  if (rows.length !== unique.length) throw badInput(M.roleMissing);
  const adminRoleIds = await adminRoleIdSet(tx);
  if (rows.some((r) => adminRoleIds.has(r.id)))
    requireAdmin(acting.user, '只有超级管理员可以分配超级管理员角色');
  if (!isAdmin(acting.user)) {
    for (const r of rows.filter((x) => !kept.includes(x.bizCode))) {
      const grant = await roleGrant(tx, r.bizCode, acting.user);
      if (grant && (await grantBeyond(tx, acting.user, grant)))
        throw noPermission(`${M.roleBeyondOwn}：${r.name}`);
    }
  }
  return rows;
}

/** Roles that grant `admin`. */
export async function adminRoleIdSet(ex: Executor): Promise<Set<number>> {
  const rows = await queryRows<{ id: number }>(
    ex,
    sql`select role_id as id from role_menus where menu_code = ${ADMIN_CODE}`,
  );
  return new Set(rows.map((r) => Number(r.id)));
}

export async function rolesOfUsers(ex: Executor, userIds: number[]): Promise<Map<number, DictItem[]>> {
  const out = new Map<number, DictItem[]>();
  if (userIds.length === 0) return out;
  const rows = await ex
    .select({ userId: userRoles.userId, code: roles.bizCode, label: roles.name })
    .from(userRoles)
    .innerJoin(roles, and(eq(roles.id, userRoles.roleId), live))
    .where(inArray(userRoles.userId, userIds))
    .orderBy(asc(roles.id));
  for (const r of rows) {
    const list = out.get(r.userId) ?? [];
    list.push({ code: r.code, label: r.label });
    out.set(r.userId, list);
  }
  return out;
}
