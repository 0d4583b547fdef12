import { and, asc, eq, inArray, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Page } from '@portal/contract/api';
import { generatePassword } from '@portal/contract/password';
import {
  PERMISSION_MESSAGES as M,
  type DictItem,
  type State,
  type TemporaryPassword,
  type UserView,
  type passwordResetSchema,
  type userAddSchema,
  type userListSchema,
  type userStatusSchema,
  type userUpdateSchema,
} from '@portal/contract/permission';
import type { Db, Executor } from '../../platform/db/client';
import { nextCode } from '../../platform/db/codes';
import { runCommand } from '../../platform/db/command';
import { badInput, conflict, notFound } from '../../platform/errors';
import { countOf, likePattern, offsetOf, orderClause, page } from '../../platform/http/list';
import { dataScopeCondition, deptSubtree } from '../../platform/auth/data-scope';
import { hashPassword, type HashCost } from '../../platform/auth/password-hash';
import { revokeUserSessions } from '../../platform/auth/sessions';
import { depts, userRoles, users } from '../../platform/auth/schema';
import { assertAdminRemains, assertUserWithin, lockPermissions, requireAdmin, type Acting } from './common';
import { resolveRoles, rolesOfUsers } from './roles';
import { findDept } from './orgs';

type UserRow = typeof users.$inferSelect;
const WHAT = '用户';
const live = isNull(users.deletedAt);

/** A user manager sees (and acts on) the users inside their data scope. */
const scopeOf = (a: Acting) => dataScopeCondition(a.user, { ownerUser: users.id, ownerDept: users.deptId });

async function toViews(ex: Executor, rows: UserRow[]): Promise<UserView[]> {
  const deptIds = [...new Set(rows.map((r) => r.deptId).filter((d): d is number => d !== null))];
  const ds =
    deptIds.length > 0
      ? await ex
          .select({ id: depts.id, code: depts.bizCode, name: depts.name })
          .from(depts)
          .where(inArray(depts.id, deptIds))
      : [];
  const deptMap = new Map(ds.map((d) => [d.id, d]));
  const roleMap = await rolesOfUsers(
    ex,
    rows.map((r) => r.id),
  );
  return rows.map((r) => {
    const d = r.deptId !== null ? deptMap.get(r.deptId) : undefined;
    return {
      userCode: r.userCode,
      userName: r.userName,
      realName: r.realName,
      phone: r.phone,
      email: r.email,
      deptCode: d?.code ?? null,
      deptName: d?.name ?? null,
      roles: roleMap.get(r.id) ?? [],
      state: r.state as State,
      mustChangePassword: r.mustChangePassword,
      version: r.version,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
    };
  });
}

export async function listUsers(
  db: Db,
  q: z.output<typeof userListSchema>,
  acting: Acting,
): Promise<Page<UserView>> {
  const where: SQL[] = [live, scopeOf(acting)];
  if (q.deptCode) {
    const d = await findDept(db, q.deptCode);
    if (!d) return page([], 0, q);
    where.push(sql`${users.deptId} in ${deptSubtree(d.id)}`);
  }
  if (q.name) {
    const pat = likePattern(q.name);
    where.push(or(sql`${users.userName} ilike ${pat}`, sql`${users.realName} ilike ${pat}`)!);
  }
  if (q.state) where.push(eq(users.state, q.state));
  if (q.roleCode)
    where.push(
      sql`exists (select 1 from user_roles ur join roles r on r.id = ur.role_id
        where ur.user_id = ${users.id} and r.biz_code = ${q.roleCode})`,
    );
  const cond = and(...where)!;
  const rows = await db
    .select()
    .from(users)
    .where(cond)
    .orderBy(
      ...orderClause(
        q,
        {
          userCode: users.userCode,
          userName: users.userName,
          realName: users.realName,
          createdAt: users.createdAt,
        },
        [asc(users.id)],
      ),
    )
    .limit(q.pageSize)
    .offset(offsetOf(q));
  const total = await countOf(db, sql`from ${users} where ${cond}`);
  return page(await toViews(db, rows), total, q);
}

async function findUser(ex: Executor, userCode: string, acting: Acting, forUpdate = false): Promise<UserRow> {
  const q = ex
    .select()
    .from(users)
    .where(and(eq(users.userCode, userCode), live, scopeOf(acting)))
    .limit(1);
  const [row] = forUpdate ? await q.for('update') : await q;
  if (!row) throw notFound(WHAT);
  return row;
}

export async function getUser(db: Db, userCode: string, acting: Acting): Promise<UserView> {
  return (await toViews(db, [await findUser(db, userCode, acting)]))[0]!;
}

async function assertNameFree(tx: Executor, userName: string, exceptId?: number): Promise<void> {
  const where = [eq(sql`lower(${users.userName})`, userName.toLowerCase()), live];
  if (exceptId !== undefined) where.push(ne(users.id, exceptId));
  const [dup] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(...where))
    .limit(1);
  if (dup) throw conflict(M.userNameTaken);
}

async function requireDept(tx: Executor, code: string): Promise<number> {
  const d = await findDept(tx, code);
  if (!d) throw badInput(M.orgMissing);
  return d.id;
}

async function setRoles(tx: Executor, userId: number, roleIds: number[]): Promise<void> {
  await tx.delete(userRoles).where(eq(userRoles.userId, userId));
  if (roleIds.length > 0) await tx.insert(userRoles).values(roleIds.map((roleId) => ({ userId, roleId })));
}

/** A new user gets a random temporary password, answered once, to be changed at first login. */
export async function addUser(
  db: Db,
  cost: HashCost,
  input: z.output<typeof userAddSchema>,
  acting: Acting,
): Promise<TemporaryPassword> {
  const password = generatePassword();
  const hash = await hashPassword(password, cost);
  const { actor } = acting;
  return runCommand(db, actor, { entity: 'user', action: 'add' }, async (tx, w) => {
    await lockPermissions(tx);
    await assertNameFree(tx, input.userName);
    const deptId = await requireDept(tx, input.deptCode);
    const rs = await resolveRoles(tx, input.roleCodes, acting);
    const userCode = await nextCode(tx, 'user');
    const [row] = await tx
      .insert(users)
      .values({
        userCode,
        userName: input.userName,
        realName: input.realName,
        phone: input.phone ?? null,
        email: input.email ?? null,
        deptId,
        state: input.state,
        passwordHash: hash,
        mustChangePassword: true,
        createdBy: actor.userId || null,
        updatedBy: actor.userId || null,
      })
      .returning({ id: users.id });
    await setRoles(
      tx,
      row!.id,
      rs.map((r) => r.id),
    );
    await assertUserWithin(tx, acting.user, userCode);
    await w.audit({ code: userCode, detail: { ...input, roleCodes: rs.map((r) => r.bizCode) } });
    return { userCode, password };
  });
}

export async function updateUser(
  db: Db,
  input: z.output<typeof userUpdateSchema>,
  acting: Acting,
): Promise<void> {
  const { actor, user } = acting;
  const cmd = { entity: 'user', action: 'update', code: input.userCode, version: input.version, what: WHAT };
  await runCommand(db, actor, cmd, async (tx, w) => {
    await lockPermissions(tx);
    const row = await findUser(tx, input.userCode, acting, true);
    if (row.id === user.userId && input.state === 'disabled') throw conflict(M.selfDisable);
    await assertNameFree(tx, input.userName, row.id);
    const deptId = await requireDept(tx, input.deptCode);
    const beforeRoles = (await rolesOfUsers(tx, [row.id])).get(row.id) ?? [];
    const kept = beforeRoles.map((r) => r.code);
    const sameRoles = [...kept].sort().join() === [...new Set(input.roleCodes)].sort().join();
    // A user manager who is not an administrator cannot widen (or change) their own roles.
    if (row.id === user.userId && !sameRoles) requireAdmin(user, '不能修改自己的角色');
    const rs = await resolveRoles(tx, input.roleCodes, acting, kept);
    await w.update(users, eq(users.id, row.id), {
      userName: input.userName,
      realName: input.realName,
      phone: input.phone ?? null,
      email: input.email ?? null,
      deptId,
      state: input.state,
    });
    await setRoles(
      tx,
      row.id,
      rs.map((r) => r.id),
    );
    if (input.state === 'disabled') await revokeUserSessions(tx, row.id);
    await assertAdminRemains(tx);
    await assertUserWithin(tx, user, row.userCode);
    await w.audit({
      code: row.userCode,
      detail: {
        before: {
          userName: row.userName,
          realName: row.realName,
          phone: row.phone,
          email: row.email,
          deptId: row.deptId,
          state: row.state,
          roleCodes: beforeRoles.map((r) => r.code),
        },
        after: {
          userName: input.userName,
          realName: input.realName,
          phone: input.phone ?? null,
          email: input.email ?? null,
          deptId,
          state: input.state,
          roleCodes: rs.map((r) => r.bizCode),
        },
      },
    });
  });
}

/** Enable or disable; disabling ends the user's sessions at once. */
export async function setUserStatus(
  db: Db,
  input: z.output<typeof userStatusSchema>,
  acting: Acting,
): Promise<void> {
  const { actor, user } = acting;
  const cmd = {
    entity: 'user',
    action: input.state === 'disabled' ? 'disable' : 'enable',
    version: input.version,
    what: WHAT,
  };
  await runCommand(db, actor, cmd, async (tx, w) => {
    await lockPermissions(tx);
    const row = await findUser(tx, input.userCode, acting, true);
    await assertUserWithin(tx, user, row.userCode);
    if (row.id === user.userId && input.state === 'disabled') throw conflict(M.selfDisable);
    await w.update(users, eq(users.id, row.id), { state: input.state });
    if (input.state === 'disabled') await revokeUserSessions(tx, row.id);
    await assertAdminRemains(tx);
    await w.audit({
      code: row.userCode,
      detail: { before: { state: row.state }, after: { state: input.state } },
    });
  });
}

/** Soft removal: the row, its roles and its history stay; the name becomes free; sessions end. */
export async function removeUser(db: Db, userCode: string, acting: Acting): Promise<void> {
  const { actor, user } = acting;
  await runCommand(db, actor, { entity: 'user', action: 'remove', code: userCode }, async (tx, w) => {
    await lockPermissions(tx);
    const row = await findUser(tx, userCode, acting, true);
    await assertUserWithin(tx, user, row.userCode);
    if (row.id === user.userId) throw conflict(M.selfRemove);
    await w.touch(users, eq(users.id, row.id), { deletedAt: sql`now()`, updatedBy: actor.userId || null });
    await revokeUserSessions(tx, row.id);
    await assertAdminRemains(tx);
    await w.audit({ code: row.userCode, detail: { userName: row.userName, realName: row.realName } });
  });
}

/** A random temporary password, answered once; the user must change it at next login. */
export async function resetPassword(
  db: Db,
  cost: HashCost,
  input: z.output<typeof passwordResetSchema>,
  acting: Acting,
): Promise<TemporaryPassword> {
  const { actor, user } = acting;
  const password = generatePassword();
  const hash = await hashPassword(password, cost);
  return runCommand(db, actor, { entity: 'user', action: 'resetPassword' }, async (tx, w) => {
    await lockPermissions(tx);
    const row = await findUser(tx, input.userCode, acting, true);
    if (row.id === user.userId) throw conflict(M.selfReset);
    await assertUserWithin(tx, user, row.userCode);
    await w.touch(users, eq(users.id, row.id), {
      passwordHash: hash,
      mustChangePassword: true,
      updatedBy: actor.userId || null,
    });
    await revokeUserSessions(tx, row.id);
    await w.audit({ code: row.userCode });
    return { userCode: row.userCode, password };
  });
}

/** Live, enabled users: `{ code: userCode, label: realName }`. */
export async function userDict(db: Db): Promise<DictItem[]> {
  return db
    .select({ code: users.userCode, label: users.realName })
    .from(users)
    .where(and(live, eq(users.state, 'enabled')))
    .orderBy(asc(users.id));
}
