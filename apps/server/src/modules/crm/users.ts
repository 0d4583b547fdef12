import { and, desc, eq, ilike, ne, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Page } from '@portal/contract/api';
import type {
  CompUserRow,
  employeeListSchema,
  employeeSaveSchema,
  firmListSchema,
  UserState,
} from '@portal/contract/crm';
import type { Db, Executor } from '../../platform/db/client';
import { nextCode } from '../../platform/db/codes';
import type { Actor } from '../../platform/db/audit';
import { runCommand } from '../../platform/db/command';
import { badInput, conflict, notFound } from '../../platform/errors';
import { countOf, likePattern, offsetOf, orderClause, page } from '../../platform/http/list';
import { lockCustomer } from '../company';
import { compBankAccountUsers, compDepts, compUsers } from './schema';
import { liveDept, liveUser, lockCompTree, toUserRows, USER, type UserRow } from './common';

/** 企业用户: the users of a customer, their registration check (审核) and their state. */

/**
 * Modules that give enterprise users access (admission, 准入) register a check here: a user
 * holding such access cannot be disabled. A check answers why, or null.
 */
export type UserDisableCheck = (ex: Executor, userCode: string) => Promise<string | null>;
const disableChecks: UserDisableCheck[] = [];
/** Registers a check (once per function); the answer takes it back (a test's own check). */
export function registerUserDisableCheck(check: UserDisableCheck): () => void {
  if (!disableChecks.includes(check)) disableChecks.push(check);
  return () => {
    const i = disableChecks.indexOf(check);
    if (i >= 0) disableChecks.splice(i, 1);
  };
}

const USER_ORDER = {
  userCode: compUsers.userCode,
  userName: compUsers.userName,
  createdAt: compUsers.createdAt,
};

type FirmQuery = z.output<typeof firmListSchema>;

/** 企业用户 of one customer (edit tab) or of all (/crm/frim/list), server-paged. */
export async function listUsers(
  db: Db,
  q: FirmQuery | z.output<typeof employeeListSchema>,
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

/** The columns a save of a user sets, from what was sent or from the row (the audit's before). */
function userFields(u: {
  userName: string;
  mobile: string;
  idCardNo?: string | null;
  email?: string | null;
  deptCode?: string | null;
  post?: string | null;
  remark?: string | null;
}) {
  return {
    userName: u.userName,
    mobile: u.mobile,
    idCardNo: u.idCardNo ?? null,
    email: u.email ?? null,
    deptCode: u.deptCode ?? null,
    post: u.post ?? null,
    remark: u.remark ?? null,
  };
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
  const cmd = {
    entity: 'compUser',
    action: input.userCode ? 'update' : 'create',
    code: input.userCode,
    version: input.version,
    what: USER,
  };
  return runCommand(db, actor, cmd, async (tx, w) => {
    const values = userFields(input);
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
      await w.audit({ code: userCode, detail: { compCode: input.compCode, ...values } });
      return { userCode };
    }
    const where = and(eq(compUsers.userCode, before.userCode), liveUser)!;
    const regState = before.regState === 'rejected' ? 'pending' : before.regState;
    await w.update(compUsers, where, { ...values, regState });
    await w.audit({
      code: before.userCode,
      // compCode stays at the top: a customer's 审核信息 finds its users' rows by it.
      detail: {
        compCode: before.compCode,
        before: { ...userFields(before), regState: before.regState },
        after: { ...values, regState },
      },
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
  const cmd = { entity: 'compUser', action: state === 'enabled' ? 'enable' : 'disable', code: userCode };
  await runCommand(db, actor, cmd, async (tx, w) => {
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
    await w.touch(compUsers, eq(compUsers.id, row.id), { state });
    await w.audit({
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
  const cmd = { entity: 'compUser', action: pass ? 'audit' : 'unAudit', code: userCode };
  await runCommand(db, actor, cmd, async (tx, w) => {
    const row = await lockUser(tx, userCode);
    if (row.regState !== 'pending')
      throw conflict(`该注册${row.regState === 'approved' ? '已通过' : '已驳回'}，只有待审核的注册才能审核`);
    const regState = pass ? 'approved' : 'rejected';
    await w.touch(compUsers, eq(compUsers.id, row.id), { regState, regComment: comment ?? null });
    await w.audit({ detail: { compCode: row.compCode, comment: comment ?? null } });
  });
}
