import { and, asc, desc, eq, ilike, inArray, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Page } from '@portal/contract/api';
import type {
  BankUserList,
  CompRoleRow,
  CompUserRow,
  DeptNode,
  employeeListSchema,
  employeeSaveSchema,
  frimListSchema,
  orgAddSchema,
  orgUpdateSchema,
  RegState,
  roleListSchema,
  roleSaveSchema,
  UserState,
} from '@portal/contract/crm';
import type { Db, Executor } from '../../platform/db/client';
import { nextCode } from '../../platform/db/codes';
import { writeAudit, type Actor } from '../../platform/db/audit';
import { updateVersioned } from '../../platform/db/versioned';
import { badInput, conflict, notFound, STALE_VERSION_MSG } from '../../platform/errors';
import { countOf, likePattern, offsetOf, orderClause, page } from '../../platform/http/list';
import { advisoryXactLock } from '../../platform/db/advisory';
import { getBankAccount } from '../bank/service';
import { lockCustomer, requireCustomer } from '../company/service';
import { companies } from '../company/schema';
import {
  compBankAccountUsers,
  compDepts,
  compRelations,
  compRoles,
  compUserRoles,
  compUsers,
} from './schema';

type UserRow = typeof compUsers.$inferSelect;
const liveUser = isNull(compUsers.deletedAt);
const liveDept = isNull(compDepts.deletedAt);
const liveRole = isNull(compRoles.deletedAt);
const USER = '企业用户';

/**
 * Company usage check (registered by the module): a customer with live enterprise users,
 * departments, enterprise roles or relations (as core or related enterprise) cannot be deleted.
 */
export async function crmCompanyUsage(ex: Executor, compCode: string): Promise<string | null> {
  const count = async (table: typeof compUsers | typeof compDepts | typeof compRoles) => {
    const [r] = await ex
      .select({ n: sql<number>`count(*)::int` })
      .from(table)
      .where(and(eq(table.compCode, compCode), isNull(table.deletedAt)));
    return Number(r?.n ?? 0);
  };
  const users = await count(compUsers);
  const depts = await count(compDepts);
  const roles = await count(compRoles);
  const [rel] = await ex
    .select({ n: sql<number>`count(*)::int` })
    .from(compRelations)
    .where(
      and(
        or(eq(compRelations.coreCompCode, compCode), eq(compRelations.relCompCode, compCode)),
        isNull(compRelations.deletedAt),
      ),
    );
  const rels = Number(rel?.n ?? 0);
  const reasons = [
    users > 0 ? `存在${users}名企业用户` : '',
    depts > 0 ? `存在${depts}个部门` : '',
    roles > 0 ? `存在${roles}个企业角色` : '',
    rels > 0 ? `存在${rels}条企业关系` : '',
  ].filter(Boolean);
  return reasons.length ? reasons.join('；') : null;
}

/**
 * Modules that give enterprise users access (admission, 准入) register a check here: a user
 * holding such access cannot be disabled. A check answers why, or null.
 */
export type UserDisableCheck = (ex: Executor, userCode: string) => Promise<string | null>;
const disableChecks: UserDisableCheck[] = [];
export function registerUserDisableCheck(check: UserDisableCheck): void {
  if (!disableChecks.includes(check)) disableChecks.push(check);
}

// ---------------------------------------------------------------- users

async function toUserRows(ex: Executor, rows: UserRow[]): Promise<CompUserRow[]> {
  if (rows.length === 0) return [];
  const userCodes = rows.map((r) => r.userCode);
  const deptCodes = [...new Set(rows.map((r) => r.deptCode).filter((c): c is string => !!c))];
  const compCodes = [...new Set(rows.map((r) => r.compCode))];
  const [depts, comps, roles] = await Promise.all([
    deptCodes.length
      ? ex
          .select({ code: compDepts.deptCode, name: compDepts.deptName })
          .from(compDepts)
          .where(inArray(compDepts.deptCode, deptCodes))
      : Promise.resolve([]),
    ex
      .select({ code: companies.compCode, name: companies.compName })
      .from(companies)
      .where(inArray(companies.compCode, compCodes)),
    ex
      .select({ userCode: compUserRoles.userCode, roleName: compRoles.roleName })
      .from(compUserRoles)
      .innerJoin(compRoles, and(eq(compRoles.roleCode, compUserRoles.roleCode), liveRole))
      .where(inArray(compUserRoles.userCode, userCodes))
      .orderBy(asc(compRoles.roleName)),
  ]);
  const deptName = new Map(depts.map((d) => [d.code, d.name]));
  const compName = new Map(comps.map((c) => [c.code, c.name]));
  return rows.map((r) => ({
    userCode: r.userCode,
    compCode: r.compCode,
    compName: compName.get(r.compCode) ?? '',
    userName: r.userName,
    mobile: r.mobile,
    idCardNo: r.idCardNo,
    email: r.email,
    deptCode: r.deptCode,
    deptName: r.deptCode ? (deptName.get(r.deptCode) ?? null) : null,
    post: r.post,
    isManager: r.isManager,
    regState: r.regState as RegState,
    regComment: r.regComment,
    state: r.state as UserState,
    remark: r.remark,
    roleNames: roles.filter((x) => x.userCode === r.userCode).map((x) => x.roleName),
    version: r.version,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  }));
}

const USER_ORDER = {
  userCode: compUsers.userCode,
  userName: compUsers.userName,
  createdAt: compUsers.createdAt,
};

type FrimQuery = z.output<typeof frimListSchema>;

/** 企业用户 of one customer (edit tab) or of all (/crm/frim/list), server-paged. */
export async function listUsers(
  db: Db,
  q: FrimQuery | z.output<typeof employeeListSchema>,
  /** The caller's data scope over the users' customers (customerScope). */
  scope: SQL,
): Promise<Page<CompUserRow>> {
  const where: SQL[] = [liveUser, scope];
  if (q.compCode) where.push(eq(compUsers.compCode, q.compCode));
  if ('compName' in q && q.compName)
    where.push(
      sql`${compUsers.compCode} in (select comp_code from companies where comp_name ilike ${likePattern(q.compName)})`,
    );
  if (q.userName) where.push(ilike(compUsers.userName, likePattern(q.userName)));
  if (q.mobile) where.push(ilike(compUsers.mobile, likePattern(q.mobile)));
  if ('regState' in q && q.regState) where.push(eq(compUsers.regState, q.regState));
  if (q.state) where.push(eq(compUsers.state, q.state));
  const cond = and(...where)!;
  const rows = await db
    .select()
    .from(compUsers)
    .where(cond)
    .orderBy(...orderClause(q, USER_ORDER, [desc(compUsers.id)]))
    .limit(q.pageSize)
    .offset(offsetOf(q));
  const total = await countOf(db, sql`from ${compUsers} where ${cond}`);
  return page(await toUserRows(db, rows), total, q);
}

export async function viewUser(db: Db, userCode: string): Promise<CompUserRow> {
  const rows = await db
    .select()
    .from(compUsers)
    .where(and(eq(compUsers.userCode, userCode), liveUser))
    .limit(1);
  const [r] = await toUserRows(db, rows);
  if (!r) throw notFound(USER);
  return r;
}

async function checkDept(tx: Executor, compCode: string, deptCode: string | undefined) {
  if (!deptCode) return;
  // Against a concurrent delete of the department (deleteDept holds the same lock).
  await lockCompTree(tx, compCode);
  const [d] = await tx
    .select({ compCode: compDepts.compCode })
    .from(compDepts)
    .where(and(eq(compDepts.deptCode, deptCode), liveDept))
    .limit(1);
  if (!d || d.compCode !== compCode) throw badInput('所属部门不存在或不属于本企业');
}

/**
 * 企业用户 tab: add or edit one user of the customer. A rejected registration edited goes back to
 * 待审核. The administrator's identity (name, mobile, ID card number) changes only through the
 * 管理员变更 document, never here.
 */
export async function saveUser(
  db: Db,
  input: z.output<typeof employeeSaveSchema>,
  actor: Actor,
): Promise<{ userCode: string }> {
  return db.transaction(async (tx) => {
    const values = {
      userName: input.userName,
      mobile: input.mobile,
      idCardNo: input.idCardNo ?? null,
      email: input.email ?? null,
      deptCode: input.deptCode ?? null,
      post: input.post ?? null,
      remark: input.remark ?? null,
    };
    // A new user needs an enabled customer; an existing one only a live customer.
    await lockCustomer(tx, input.compCode, input.userCode ? undefined : { label: '所属企业' });
    // The department tree lock first, then the user row: deleteDept takes them in this order.
    await checkDept(tx, input.compCode, input.deptCode);
    const before = input.userCode ? await lockUser(tx, input.userCode) : undefined;
    if (before) {
      if (before.compCode !== input.compCode) throw badInput('企业用户不属于该企业');
      if (
        before.isManager &&
        (before.userName !== values.userName ||
          before.mobile !== values.mobile ||
          (before.idCardNo ?? null) !== values.idCardNo)
      )
        throw conflict('企业管理员的身份信息须通过管理员变更办理');
    }
    const dupWhere = [liveUser, eq(compUsers.mobile, input.mobile)];
    if (input.userCode) dupWhere.push(ne(compUsers.userCode, input.userCode));
    const [dup] = await tx
      .select({ name: compUsers.userName })
      .from(compUsers)
      .where(and(...dupWhere))
      .limit(1);
    if (dup) throw conflict(`手机号已被企业用户「${dup.name}」使用`);

    if (!before) {
      const userCode = await nextCode(tx, 'comp_user');
      await tx.insert(compUsers).values({
        ...values,
        userCode,
        compCode: input.compCode,
        regState: 'pending',
        state: 'enabled',
        createdBy: actor.userId,
        updatedBy: actor.userId,
      });
      await writeAudit(tx, actor, {
        entity: 'compUser',
        entityCode: userCode,
        action: 'create',
        detail: { compCode: input.compCode, ...values },
      });
      return { userCode };
    }
    const where = and(eq(compUsers.userCode, before.userCode), liveUser)!;
    const regState = before.regState === 'rejected' ? 'pending' : before.regState;
    await updateVersioned(
      tx,
      compUsers,
      where,
      input.version ?? -1,
      { ...values, regState },
      actor.userId,
      USER,
    );
    await writeAudit(tx, actor, {
      entity: 'compUser',
      entityCode: before.userCode,
      action: 'update',
      detail: { compCode: before.compCode, ...values, regState },
    });
    return { userCode: before.userCode };
  });
}

async function lockUser(tx: Executor, userCode: string): Promise<UserRow> {
  const [row] = await tx
    .select()
    .from(compUsers)
    .where(and(eq(compUsers.userCode, userCode), liveUser))
    .for('update');
  if (!row) throw notFound(USER);
  return row;
}

export async function setUserState(db: Db, userCode: string, state: UserState, actor: Actor): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await lockUser(tx, userCode);
    if (row.state === state)
      throw conflict(state === 'enabled' ? '该企业用户已是启用状态' : '该企业用户已是停用状态');
    if (state === 'disabled' && row.isManager) throw conflict('企业管理员不能停用，请先办理管理员变更');
    let droppedAccounts: string[] = [];
    if (state === 'disabled') {
      const reasons: string[] = [];
      for (const check of disableChecks) {
        const reason = await check(tx, userCode);
        if (reason) reasons.push(reason);
      }
      if (reasons.length) throw conflict(`该企业用户不能停用：${reasons.join('；')}`);
      // A disabled user operates no account any more (银行信息管理 grants are dropped with it).
      droppedAccounts = (
        await tx
          .delete(compBankAccountUsers)
          .where(eq(compBankAccountUsers.userCode, userCode))
          .returning({ bizCode: compBankAccountUsers.accountBizCode })
      ).map((r) => r.bizCode);
    }
    await tx
      .update(compUsers)
      .set({ state, version: sql`${compUsers.version} + 1`, updatedAt: sql`now()`, updatedBy: actor.userId })
      .where(eq(compUsers.id, row.id));
    await writeAudit(tx, actor, {
      entity: 'compUser',
      entityCode: userCode,
      action: state === 'enabled' ? 'enable' : 'disable',
      detail: droppedAccounts.length
        ? { compCode: row.compCode, droppedAccounts }
        : { compCode: row.compCode },
    });
  });
}

/** 企业用户审核 (frimcheck): only a pending registration can be checked; 驳回 needs a comment. */
export async function checkRegistration(
  db: Db,
  userCode: string,
  pass: boolean,
  comment: string | undefined,
  actor: Actor,
): Promise<void> {
  if (!pass && !comment) throw badInput('审核意见不能为空');
  await db.transaction(async (tx) => {
    const row = await lockUser(tx, userCode);
    if (row.regState !== 'pending')
      throw conflict(`该注册${row.regState === 'approved' ? '已通过' : '已驳回'}，只有待审核的注册才能审核`);
    const regState = pass ? 'approved' : 'rejected';
    await tx
      .update(compUsers)
      .set({
        regState,
        regComment: comment ?? null,
        version: sql`${compUsers.version} + 1`,
        updatedAt: sql`now()`,
        updatedBy: actor.userId,
      })
      .where(eq(compUsers.id, row.id));
    await writeAudit(tx, actor, {
      entity: 'compUser',
      entityCode: userCode,
      action: pass ? 'audit' : 'unAudit',
      detail: { compCode: row.compCode, comment: comment ?? null },
    });
  });
}

// ---------------------------------------------------------------- enterprise roles

export async function listRoles(db: Db, q: z.output<typeof roleListSchema>): Promise<Page<CompRoleRow>> {
  const where: SQL[] = [liveRole, eq(compRoles.compCode, q.compCode)];
  if (q.roleName) where.push(ilike(compRoles.roleName, likePattern(q.roleName)));
  const cond = and(...where)!;
  const rows = await db
    .select()
    .from(compRoles)
    .where(cond)
    .orderBy(
      ...orderClause(q, { roleCode: compRoles.roleCode, roleName: compRoles.roleName }, [asc(compRoles.id)]),
    )
    .limit(q.pageSize)
    .offset(offsetOf(q));
  const total = await countOf(db, sql`from ${compRoles} where ${cond}`);
  const codes = rows.map((r) => r.roleCode);
  const members = codes.length
    ? await db
        .select({
          roleCode: compUserRoles.roleCode,
          userCode: compUsers.userCode,
          userName: compUsers.userName,
        })
        .from(compUserRoles)
        .innerJoin(compUsers, and(eq(compUsers.userCode, compUserRoles.userCode), liveUser))
        .where(inArray(compUserRoles.roleCode, codes))
        .orderBy(asc(compUsers.userCode))
    : [];
  return page(
    rows.map((r) => ({
      roleCode: r.roleCode,
      compCode: r.compCode,
      roleName: r.roleName,
      remark: r.remark,
      users: members
        .filter((m) => m.roleCode === r.roleCode)
        .map((m) => ({ userCode: m.userCode, userName: m.userName })),
      version: r.version,
      createdAt: r.createdAt,
    })),
    total,
    q,
  );
}

/** The given users must be live users of this customer. */
async function requireCompUsers(tx: Executor, compCode: string, userCodes: readonly string[], label: string) {
  if (userCodes.length === 0) return [];
  const rows = await tx
    .select()
    .from(compUsers)
    .where(and(inArray(compUsers.userCode, [...userCodes]), liveUser));
  for (const code of userCodes) {
    const u = rows.find((r) => r.userCode === code);
    if (!u || u.compCode !== compCode) throw badInput(`${label}不存在或不属于本企业`);
  }
  return rows;
}

export async function saveRole(
  db: Db,
  input: z.output<typeof roleSaveSchema>,
  actor: Actor,
): Promise<{ roleCode: string }> {
  return db.transaction(async (tx) => {
    await lockCustomer(tx, input.compCode);
    const members = await requireCompUsers(tx, input.compCode, input.userCodes, '角色成员');
    // A disabled user may stay a member it already was, but is not added anew.
    const kept = input.roleCode
      ? new Set(
          (
            await tx
              .select({ userCode: compUserRoles.userCode })
              .from(compUserRoles)
              .where(eq(compUserRoles.roleCode, input.roleCode))
          ).map((r) => r.userCode),
        )
      : new Set<string>();
    const disabled = members.find((u) => u.state !== 'enabled' && !kept.has(u.userCode));
    if (disabled) throw badInput(`企业用户「${disabled.userName}」已停用，不能加入角色`);
    const dupWhere = [
      liveRole,
      eq(compRoles.compCode, input.compCode),
      eq(compRoles.roleName, input.roleName),
    ];
    if (input.roleCode) dupWhere.push(ne(compRoles.roleCode, input.roleCode));
    const [dup] = await tx
      .select({ id: compRoles.id })
      .from(compRoles)
      .where(and(...dupWhere))
      .limit(1);
    if (dup) throw conflict(`企业角色「${input.roleName}」已存在`);
    let roleCode = input.roleCode;
    if (!roleCode) {
      roleCode = await nextCode(tx, 'comp_role');
      await tx.insert(compRoles).values({
        roleCode,
        compCode: input.compCode,
        roleName: input.roleName,
        remark: input.remark ?? null,
        createdBy: actor.userId,
        updatedBy: actor.userId,
      });
    } else {
      const where = and(eq(compRoles.roleCode, roleCode), liveRole)!;
      const [before] = await tx.select().from(compRoles).where(where).limit(1);
      if (!before) throw notFound('企业角色');
      if (before.compCode !== input.compCode) throw badInput('企业角色不属于该企业');
      await updateVersioned(
        tx,
        compRoles,
        where,
        input.version ?? -1,
        { roleName: input.roleName, remark: input.remark ?? null },
        actor.userId,
        '企业角色',
      );
      await tx.delete(compUserRoles).where(eq(compUserRoles.roleCode, roleCode));
    }
    if (input.userCodes.length)
      await tx
        .insert(compUserRoles)
        .values(
          input.userCodes.map((userCode) => ({ roleCode: roleCode, userCode, createdBy: actor.userId })),
        );
    await writeAudit(tx, actor, {
      entity: 'compRole',
      entityCode: input.compCode,
      action: input.roleCode ? 'update' : 'create',
      detail: { roleCode, roleName: input.roleName, userCodes: input.userCodes },
    });
    return { roleCode };
  });
}

export async function deleteRole(db: Db, roleCode: string, version: number, actor: Actor): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(compRoles)
      .where(and(eq(compRoles.roleCode, roleCode), liveRole))
      .for('update');
    if (!row) throw notFound('企业角色');
    if (row.version !== version) throw conflict(STALE_VERSION_MSG);
    await tx
      .update(compRoles)
      .set({
        deletedAt: sql`now()`,
        version: sql`${compRoles.version} + 1`,
        updatedAt: sql`now()`,
        updatedBy: actor.userId,
      })
      .where(eq(compRoles.id, row.id));
    await tx.delete(compUserRoles).where(eq(compUserRoles.roleCode, roleCode));
    await writeAudit(tx, actor, {
      entity: 'compRole',
      entityCode: row.compCode,
      action: 'delete',
      detail: { roleCode, roleName: row.roleName },
    });
  });
}

// ---------------------------------------------------------------- 组织架构

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

/** Departments are changed one enterprise at a time (moves are checked against a stable tree). */
async function lockCompTree(tx: Executor, compCode: string) {
  await advisoryXactLock(tx, 'crm.deptTree', compCode);
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
  return db.transaction(async (tx) => {
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
    await writeAudit(tx, actor, {
      entity: 'compDept',
      entityCode: input.compCode,
      action: 'create',
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
  return db.transaction(async (tx) => {
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
    await updateVersioned(tx, compDepts, where, input.version, values, actor.userId, '部门');
    await writeAudit(tx, actor, {
      entity: 'compDept',
      entityCode: peek.compCode,
      action: 'update',
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
  await db.transaction(async (tx) => {
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
    await tx
      .update(compDepts)
      .set({
        deletedAt: sql`now()`,
        version: sql`${compDepts.version} + 1`,
        updatedAt: sql`now()`,
        updatedBy: actor.userId,
      })
      .where(eq(compDepts.id, peek.id));
    await writeAudit(tx, actor, {
      entity: 'compDept',
      entityCode: peek.compCode,
      action: 'delete',
      detail: { deptCode, deptName: peek.deptName },
    });
  });
}

// ---------------------------------------------------------------- account operators

async function requireCustomerAccount(ex: Executor, bizCode: string) {
  const a = await getBankAccount(ex, bizCode);
  if (!a) throw notFound('银行账户');
  if (a.ownerType !== 'customer' || !a.ownerCode) throw badInput('只有客户的银行账户才能授权企业用户');
  return { ...a, ownerCode: a.ownerCode };
}

export async function listBankUsers(db: Db, bizCode: string): Promise<BankUserList> {
  const a = await requireCustomerAccount(db, bizCode);
  const rows = await db
    .select({ u: compUsers })
    .from(compBankAccountUsers)
    .innerJoin(compUsers, and(eq(compUsers.userCode, compBankAccountUsers.userCode), liveUser))
    .where(eq(compBankAccountUsers.accountBizCode, bizCode))
    .orderBy(asc(compUsers.userCode));
  return {
    bizCode,
    ownerCode: a.ownerCode,
    users: await toUserRows(
      db,
      rows.map((r) => r.u),
    ),
  };
}

/** The account's operators become exactly `userCodes`: enabled, approved users of the account's owner. */
export async function saveBankUsers(
  db: Db,
  bizCode: string,
  userCodes: readonly string[],
  actor: Actor,
): Promise<void> {
  await db.transaction(async (tx) => {
    const a = await requireCustomerAccount(tx, bizCode);
    const users = await requireCompUsers(tx, a.ownerCode, userCodes, '授权用户');
    for (const u of users) {
      if (u.state !== 'enabled') throw badInput(`企业用户「${u.userName}」已停用，不能授权`);
      if (u.regState !== 'approved') throw badInput(`企业用户「${u.userName}」的注册尚未审核通过，不能授权`);
    }
    await tx.delete(compBankAccountUsers).where(eq(compBankAccountUsers.accountBizCode, bizCode));
    if (userCodes.length)
      await tx
        .insert(compBankAccountUsers)
        .values(
          userCodes.map((userCode) => ({ accountBizCode: bizCode, userCode, createdBy: actor.userId })),
        );
    await writeAudit(tx, actor, {
      entity: 'bankAccountUsers',
      entityCode: a.ownerCode,
      action: 'update',
      detail: { bizCode, userCodes },
    });
  });
}
