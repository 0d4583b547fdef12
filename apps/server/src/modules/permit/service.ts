import { and, asc, desc, eq, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import {
  PERMIT_AREA_LABELS,
  PERMIT_AREAS,
  PERMIT_SUBJECT_LABELS,
  roleNames,
  unknownRole,
  type CompInfoByDif,
  type CurrentRoles,
  type custListSchema,
  type PermitArea,
  type PermitRow,
  type PermitState,
  type PermitSubject,
  type PermitView,
  type roleChgListSchema,
  type RoleChangeRow,
  type RoleChangeView,
  type UserCandidate,
  type userListSchema,
} from '@portal/contract/permit';
import type { Page } from '@portal/contract/api';
import type { Db, Executor } from '../../platform/db/client';
import { advisoryXactLock } from '../../platform/db/advisory';
import { nextCode } from '../../platform/db/codes';
import { writeAudit, type Actor } from '../../platform/db/audit';
import { updateVersioned } from '../../platform/db/versioned';
import { badInput, conflict, notFound } from '../../platform/errors';
import { countOf, likePattern, offsetOf, orderClause, page } from '../../platform/http/list';
import { companies } from '../company/schema';
import { compUsers } from '../crm/schema';
import { permitRoleChanges, permits } from './schema';

type PermitTable = typeof permits.$inferSelect;
type CustListQuery = z.output<typeof custListSchema>;
type UserListQuery = z.output<typeof userListSchema>;
type RoleChgQuery = z.output<typeof roleChgListSchema>;

const WHAT = '准入记录';
const ROLE_CHG = '角色变更记录';
/** The house answer to a stale version (as updateVersioned gives). */
const STALE = '数据已被他人修改，请刷新后重试';

export interface SaveInput {
  bizCode?: string | undefined;
  version?: number | undefined;
  area: PermitArea;
  /** cust: the customer; user: the user (its enterprise is looked up). */
  key: string;
  roles: string[];
  remark?: string | undefined;
}

const subjectWhat = (subject: PermitSubject) => `${PERMIT_SUBJECT_LABELS[subject]}准入记录`;

function rowSelect() {
  return {
    p: permits,
    compName: companies.compName,
    usccCode: companies.usccCode,
    userName: compUsers.userName,
    mobile: compUsers.mobile,
  };
}

function toRow(r: {
  p: PermitTable;
  compName: string | null;
  usccCode: string | null;
  userName: string | null;
  mobile: string | null;
}): PermitRow {
  const p = r.p;
  return {
    bizCode: p.bizCode,
    subject: p.subject as PermitSubject,
    area: p.area as PermitArea,
    compCode: p.compCode,
    compName: r.compName ?? '',
    usccCode: r.usccCode ?? '',
    userCode: p.userCode,
    userName: p.userCode ? (r.userName ?? '') : null,
    mobile: p.userCode ? (r.mobile ?? '') : null,
    state: p.state as PermitState,
    roles: p.roles,
    remark: p.remark,
    openedAt: p.openedAt,
    disabledAt: p.disabledAt,
    version: p.version,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
}

function joined(ex: Executor) {
  return ex
    .select(rowSelect())
    .from(permits)
    .leftJoin(companies, eq(companies.compCode, permits.compCode))
    .leftJoin(compUsers, eq(compUsers.userCode, permits.userCode));
}

async function getPermit(ex: Executor, subject: PermitSubject, bizCode: string): Promise<PermitRow> {
  const [r] = await joined(ex)
    .where(and(eq(permits.bizCode, bizCode), eq(permits.subject, subject)))
    .limit(1);
  if (!r) throw notFound(subjectWhat(subject));
  return toRow(r);
}

export async function listPermits(
  db: Db,
  subject: PermitSubject,
  q: CustListQuery | UserListQuery,
  areas: readonly PermitArea[],
  /** The caller's data scope (tableScope). */
  rowScope: SQL,
): Promise<Page<PermitRow>> {
  const where: SQL[] = [eq(permits.subject, subject), inArray(permits.area, [...areas]), rowScope];
  if (q.area) where.push(eq(permits.area, q.area));
  if (q.state) where.push(eq(permits.state, q.state));
  if (q.compCode) where.push(eq(permits.compCode, q.compCode));
  if (q.compName) where.push(ilike(companies.compName, likePattern(q.compName)));
  if ('usccCode' in q && q.usccCode) where.push(ilike(companies.usccCode, likePattern(q.usccCode)));
  if ('userCode' in q && q.userCode) where.push(eq(permits.userCode, q.userCode));
  if ('userName' in q && q.userName) where.push(ilike(compUsers.userName, likePattern(q.userName)));
  if ('mobile' in q && q.mobile) where.push(ilike(compUsers.mobile, likePattern(q.mobile)));
  const cond = and(...where)!;
  const rows = await joined(db)
    .where(cond)
    .orderBy(
      ...orderClause(
        q,
        { bizCode: permits.bizCode, createdAt: permits.createdAt, openedAt: permits.openedAt },
        [desc(permits.id)],
      ),
    )
    .limit(q.pageSize)
    .offset(offsetOf(q));
  const total = await countOf(
    db,
    sql`from ${permits} left join ${companies} on ${companies.compCode} = ${permits.compCode}
        left join ${compUsers} on ${compUsers.userCode} = ${permits.userCode} where ${cond}`,
  );
  return page(rows.map(toRow), total, q);
}

async function historyOf(ex: Executor, where: SQL, order: SQL[], limit?: number, offset?: number) {
  let query = ex
    .select({
      c: permitRoleChanges,
      p: permits,
      compName: companies.compName,
      userName: compUsers.userName,
    })
    .from(permitRoleChanges)
    .innerJoin(permits, eq(permits.id, permitRoleChanges.permitId))
    .leftJoin(companies, eq(companies.compCode, permits.compCode))
    .leftJoin(compUsers, eq(compUsers.userCode, permits.userCode))
    .where(where)
    .orderBy(...order)
    .$dynamic();
  if (limit !== undefined) query = query.limit(limit).offset(offset ?? 0);
  const rows = await query;
  return rows.map((r): RoleChangeRow => ({
    bizCode: r.c.bizCode,
    permitCode: r.p.bizCode,
    subject: r.p.subject as PermitSubject,
    area: r.p.area as PermitArea,
    compCode: r.p.compCode,
    compName: r.compName ?? '',
    userCode: r.p.userCode,
    userName: r.p.userCode ? (r.userName ?? '') : null,
    kind: r.c.kind as 'open' | 'change',
    rolesBefore: r.c.rolesBefore,
    rolesAfter: r.c.rolesAfter,
    reason: r.c.reason,
    createdAt: r.c.createdAt,
    createdByName: r.c.createdByName,
  }));
}

/** The newest role changes a view carries; the rest page through roleChg/list?permitCode=. */
export const VIEW_HISTORY_LIMIT = 20;

export async function viewPermit(db: Db, subject: PermitSubject, bizCode: string): Promise<PermitView> {
  const row = await getPermit(db, subject, bizCode);
  const where = eq(permits.bizCode, bizCode);
  const history = await historyOf(db, where, [desc(permitRoleChanges.id)], VIEW_HISTORY_LIMIT, 0);
  const historyTotal =
    history.length < VIEW_HISTORY_LIMIT
      ? history.length
      : await countOf(
          db,
          sql`from ${permitRoleChanges} join ${permits} on ${permits.id} = ${permitRoleChanges.permitId} where ${where}`,
        );
  return { ...row, history, historyTotal };
}

function checkRoles(subject: PermitSubject, area: PermitArea, roles: readonly string[]): void {
  const bad = unknownRole(subject, area, roles);
  if (bad !== undefined)
    throw badInput(
      `角色「${bad}」不是${PERMIT_AREA_LABELS[area]}区域的${PERMIT_SUBJECT_LABELS[subject]}角色`,
    );
}

/** The customer a new or edited admission names: it exists and is enabled. */
async function requireCustomer(ex: Executor, compCode: string) {
  const [c] = await ex
    .select({ name: companies.compName, state: companies.state })
    .from(companies)
    .where(and(eq(companies.compCode, compCode), isNull(companies.deletedAt)))
    .limit(1);
  if (!c) throw badInput('企业客户不存在');
  if (c.state !== 'enabled') throw badInput(`企业客户「${c.name}」已停用`);
  return c;
}

/**
 * The enterprise user a user admission names: registered (审核通过), enabled, live. Its row is
 * share-locked until the transaction ends, so a concurrent 停用 of the user (CRM, which locks it for
 * update and then asks userOpenAdmissions) either waits and sees this admission or is seen here.
 */
async function requireUser(ex: Executor, userCode: string) {
  const [u] = await ex
    .select({
      compCode: compUsers.compCode,
      userName: compUsers.userName,
      regState: compUsers.regState,
      state: compUsers.state,
    })
    .from(compUsers)
    .where(and(eq(compUsers.userCode, userCode), isNull(compUsers.deletedAt)))
    .for('share');
  if (!u) throw badInput('企业用户不存在');
  if (u.regState !== 'approved') throw badInput(`企业用户「${u.userName}」尚未审核通过`);
  if (u.state !== 'enabled') throw badInput(`企业用户「${u.userName}」已停用`);
  return u;
}

/**
 * A user admission needs its enterprise open in the same area. The enterprise's row is share-locked
 * until the transaction ends, so a concurrent 停用 of the enterprise (which locks it for update and
 * counts open users) either waits for this user to be counted or is seen as disabled here.
 */
async function requireCompanyOpen(ex: Executor, area: PermitArea, compCode: string): Promise<void> {
  const [p] = await ex
    .select({ state: permits.state })
    .from(permits)
    .where(and(eq(permits.subject, 'cust'), eq(permits.area, area), eq(permits.compCode, compCode)))
    .for('share');
  if (p?.state !== 'open')
    throw conflict(`所属企业在${PERMIT_AREA_LABELS[area]}区域尚未开通准入，不能为其用户办理准入`);
}

/** Serialises admissions of one subject in one area (inserts included). */
async function lockSubject(tx: Executor, subject: PermitSubject, area: PermitArea, key: string) {
  await advisoryXactLock(tx, 'permit.subject', `${subject}|${area}|${key}`);
}

export async function savePermit(
  db: Db,
  subject: PermitSubject,
  input: SaveInput,
  actor: Actor,
): Promise<{ bizCode: string }> {
  checkRoles(subject, input.area, input.roles);
  return db.transaction(async (tx) => {
    let compCode: string;
    let userCode: string | null = null;
    if (subject === 'cust') {
      await requireCustomer(tx, input.key);
      compCode = input.key;
    } else {
      const u = await requireUser(tx, input.key);
      await requireCustomer(tx, u.compCode);
      await requireCompanyOpen(tx, input.area, u.compCode);
      compCode = u.compCode;
      userCode = input.key;
    }
    const keyCol = subject === 'cust' ? permits.compCode : permits.userCode;
    const values = {
      area: input.area,
      compCode,
      userCode,
      roles: input.roles,
      remark: input.remark ?? null,
    };

    if (!input.bizCode) {
      await lockSubject(tx, subject, input.area, input.key);
      const [dup] = await tx
        .select({ bizCode: permits.bizCode })
        .from(permits)
        .where(and(eq(permits.subject, subject), eq(permits.area, input.area), eq(keyCol, input.key)))
        .limit(1);
      if (dup)
        throw conflict(
          `该${PERMIT_SUBJECT_LABELS[subject]}在${PERMIT_AREA_LABELS[input.area]}区域已有准入记录（${dup.bizCode}），不能重复新增`,
        );
      const bizCode = await nextCode(tx, 'permit');
      await tx
        .insert(permits)
        .values({ ...values, bizCode, subject, createdBy: actor.userId, updatedBy: actor.userId });
      await writeAudit(tx, actor, {
        entity: 'permit',
        entityCode: bizCode,
        action: 'create',
        detail: values,
      });
      return { bizCode };
    }

    const where = and(eq(permits.bizCode, input.bizCode), eq(permits.subject, subject))!;
    const [before] = await tx.select().from(permits).where(where).for('update');
    if (!before) throw notFound(WHAT);
    if (before.state !== 'saved') throw conflict('已开通过的准入不能再修改，请通过设置角色变更其角色');
    if (before.area !== input.area) throw badInput('准入区域不能修改');
    const beforeKey = subject === 'cust' ? before.compCode : before.userCode;
    if (beforeKey !== input.key) {
      await lockSubject(tx, subject, input.area, input.key);
      const [dup] = await tx
        .select({ bizCode: permits.bizCode })
        .from(permits)
        .where(and(eq(permits.subject, subject), eq(permits.area, input.area), eq(keyCol, input.key)))
        .limit(1);
      if (dup)
        throw conflict(
          `该${PERMIT_SUBJECT_LABELS[subject]}在${PERMIT_AREA_LABELS[input.area]}区域已有准入记录（${dup.bizCode}），不能重复新增`,
        );
    }
    await updateVersioned(tx, permits, where, input.version ?? -1, values, actor.userId, WHAT);
    await writeAudit(tx, actor, {
      entity: 'permit',
      entityCode: input.bizCode,
      action: 'update',
      detail: { before: { area: before.area, key: beforeKey, roles: before.roles }, after: values },
    });
    return { bizCode: input.bizCode };
  });
}

/** Loads the record for a state change, locked, and checks the area the caller was allowed for. */
async function lockPermit(tx: Executor, subject: PermitSubject, bizCode: string, area: PermitArea) {
  const [row] = await tx
    .select()
    .from(permits)
    .where(and(eq(permits.bizCode, bizCode), eq(permits.subject, subject)))
    .for('update');
  if (!row) throw notFound(WHAT);
  if (row.area !== area) throw badInput('准入区域与准入记录不一致');
  return row;
}

function stale(version: number, row: PermitTable) {
  if (version !== row.version) throw conflict(STALE);
}

/** 开通: saved → open (first time, the roles take effect: a history row), or disabled → open again. */
export async function openPermit(
  db: Db,
  subject: PermitSubject,
  bizCode: string,
  area: PermitArea,
  version: number,
  actor: Actor,
): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await lockPermit(tx, subject, bizCode, area);
    if (row.state === 'open') throw conflict('该准入已开通，不能重复开通');
    stale(version, row);
    if (subject === 'cust') await requireCustomer(tx, row.compCode);
    else {
      await requireUser(tx, row.userCode!);
      await requireCompanyOpen(tx, area, row.compCode);
    }
    const first = row.state === 'saved';
    await tx
      .update(permits)
      .set({
        state: 'open',
        ...(first ? { openedAt: sql`now()`, openedBy: actor.userId } : {}),
        disabledAt: null,
        disabledBy: null,
        version: sql`${permits.version} + 1`,
        updatedAt: sql`now()`,
        updatedBy: actor.userId,
      })
      .where(eq(permits.id, row.id));
    if (first) await addHistory(tx, row.id, 'open', [], row.roles, null, actor);
    await writeAudit(tx, actor, {
      entity: 'permit',
      entityCode: bizCode,
      action: first ? 'open' : 'reopen',
      detail: { roles: row.roles },
    });
  });
}

/** 停用: open → disabled. A customer with users still open in the area is refused. */
export async function disablePermit(
  db: Db,
  subject: PermitSubject,
  bizCode: string,
  area: PermitArea,
  version: number,
  actor: Actor,
): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await lockPermit(tx, subject, bizCode, area);
    if (row.state === 'disabled') throw conflict('该准入已停用，不能重复停用');
    if (row.state === 'saved') throw conflict('该准入尚未开通，不能停用');
    stale(version, row);
    if (subject === 'cust') {
      const n = await countOf(
        tx,
        sql`from ${permits} where ${permits.subject} = 'user' and ${permits.area} = ${area}
            and ${permits.compCode} = ${row.compCode} and ${permits.state} = 'open'`,
      );
      if (n > 0) throw conflict(`该企业尚有${n}个已开通的企业用户准入，请先停用企业用户准入`);
    }
    await tx
      .update(permits)
      .set({
        state: 'disabled',
        disabledAt: sql`now()`,
        disabledBy: actor.userId,
        version: sql`${permits.version} + 1`,
        updatedAt: sql`now()`,
        updatedBy: actor.userId,
      })
      .where(eq(permits.id, row.id));
    await writeAudit(tx, actor, { entity: 'permit', entityCode: bizCode, action: 'disable' });
  });
}

async function addHistory(
  tx: Executor,
  permitId: number,
  kind: 'open' | 'change',
  before: string[],
  after: string[],
  reason: string | null,
  actor: Actor,
): Promise<string> {
  const bizCode = await nextCode(tx, 'permit_role_chg');
  await tx.insert(permitRoleChanges).values({
    bizCode,
    permitId,
    kind,
    rolesBefore: before,
    rolesAfter: after,
    reason,
    createdBy: actor.userId || null,
    createdByName: actor.userName,
  });
  return bizCode;
}

/** setCustRole / setUserRole: only on an open admission; the change is a history row. */
export async function setRoles(
  db: Db,
  subject: PermitSubject,
  input: {
    bizCode: string;
    version: number;
    area: PermitArea;
    roles: string[];
    reason?: string | undefined;
  },
  actor: Actor,
): Promise<{ bizCode: string }> {
  checkRoles(subject, input.area, input.roles);
  return db.transaction(async (tx) => {
    const row = await lockPermit(tx, subject, input.bizCode, input.area);
    if (row.state === 'disabled') throw conflict('该准入已停用，不能设置角色');
    if (row.state !== 'open') throw conflict('该准入尚未开通，不能设置角色');
    stale(input.version, row);
    const same = row.roles.length === input.roles.length && input.roles.every((r) => row.roles.includes(r));
    if (same) throw badInput('角色没有变化');
    await tx
      .update(permits)
      .set({
        roles: input.roles,
        version: sql`${permits.version} + 1`,
        updatedAt: sql`now()`,
        updatedBy: actor.userId,
      })
      .where(eq(permits.id, row.id));
    const chg = await addHistory(tx, row.id, 'change', row.roles, input.roles, input.reason ?? null, actor);
    await writeAudit(tx, actor, {
      entity: 'permit',
      entityCode: input.bizCode,
      action: 'setRole',
      detail: {
        before: roleNames(subject, input.area, row.roles),
        after: roleNames(subject, input.area, input.roles),
        change: chg,
      },
    });
    return { bizCode: chg };
  });
}

/** The current roles of a customer (by compCode) or user (by userCode), per area admitted to. */
export async function currentRoles(
  db: Db,
  subject: PermitSubject,
  key: string,
  areas: readonly PermitArea[],
): Promise<CurrentRoles[]> {
  const keyCol = subject === 'cust' ? permits.compCode : permits.userCode;
  const rows = await db
    .select({ area: permits.area, bizCode: permits.bizCode, state: permits.state, roles: permits.roles })
    .from(permits)
    .where(and(eq(permits.subject, subject), eq(keyCol, key), inArray(permits.area, [...areas])))
    .orderBy(asc(permits.area));
  return rows.map((r) => ({
    area: r.area as PermitArea,
    bizCode: r.bizCode,
    state: r.state as PermitState,
    roles: r.state === 'open' ? r.roles : [],
  }));
}

/** getCompInfoByDif: compDif is the USCC code (see packages/contract/src/permit.ts). */
export async function compInfoByDif(
  db: Db,
  usccCode: string,
  areas: readonly PermitArea[],
): Promise<CompInfoByDif> {
  const [c] = await db
    .select({ compCode: companies.compCode, compName: companies.compName, state: companies.state })
    .from(companies)
    .where(and(eq(companies.usccCode, usccCode), isNull(companies.deletedAt)))
    .limit(1);
  if (!c) throw notFound('企业客户');
  return {
    compCode: c.compCode,
    compName: c.compName,
    usccCode,
    compState: c.state === 'enabled' ? 'enabled' : 'disabled',
    permits: await currentRoles(db, 'cust', c.compCode, areas),
  };
}

export async function listRoleChanges(
  db: Db,
  q: RoleChgQuery,
  scope: readonly { subject: PermitSubject; area: PermitArea }[],
  /** The caller's data scope over the admissions (tableScope). */
  rowScope: SQL,
): Promise<Page<RoleChangeRow>> {
  if (scope.length === 0) return page([], 0, q);
  const where: SQL[] = [
    or(...scope.map((s) => and(eq(permits.subject, s.subject), eq(permits.area, s.area))))!,
    rowScope,
  ];
  if (q.area) where.push(eq(permits.area, q.area));
  if (q.subject) where.push(eq(permits.subject, q.subject));
  if (q.permitCode) where.push(eq(permits.bizCode, q.permitCode));
  if (q.compName) where.push(ilike(companies.compName, likePattern(q.compName)));
  const cond = and(...where)!;
  const order = orderClause(
    q,
    { bizCode: permitRoleChanges.bizCode, createdAt: permitRoleChanges.createdAt },
    [desc(permitRoleChanges.id)],
  );
  const list = await historyOf(db, cond, order, q.pageSize, offsetOf(q));
  const total = await countOf(
    db,
    sql`from ${permitRoleChanges} join ${permits} on ${permits.id} = ${permitRoleChanges.permitId}
        left join ${companies} on ${companies.compCode} = ${permits.compCode} where ${cond}`,
  );
  return page(list, total, q);
}

export async function viewRoleChange(db: Db, bizCode: string): Promise<RoleChangeView> {
  const [row] = await historyOf(db, eq(permitRoleChanges.bizCode, bizCode), [desc(permitRoleChanges.id)]);
  if (!row) throw notFound(ROLE_CHG);
  return { ...row, permit: await getPermit(db, row.subject, row.permitCode) };
}

/** Users of an enterprise that may be admitted: registered, enabled, live. */
export async function userCandidates(db: Db, compCode: string): Promise<UserCandidate[]> {
  return db
    .select({ userCode: compUsers.userCode, userName: compUsers.userName, mobile: compUsers.mobile })
    .from(compUsers)
    .where(
      and(
        eq(compUsers.compCode, compCode),
        isNull(compUsers.deletedAt),
        eq(compUsers.regState, 'approved'),
        eq(compUsers.state, 'enabled'),
      ),
    )
    .orderBy(asc(compUsers.userCode));
}

/** The areas where an enterprise user holds an open admission (the CRM user-disable check). */
export async function userOpenAreas(ex: Executor, userCode: string): Promise<PermitArea[]> {
  const rows = await ex
    .select({ area: permits.area })
    .from(permits)
    .where(and(eq(permits.subject, 'user'), eq(permits.userCode, userCode), eq(permits.state, 'open')));
  return PERMIT_AREAS.filter((a) => rows.some((r) => r.area === a));
}

/** Admissions referring to a customer (the customer delete check). */
export async function countCustomerPermits(ex: Executor, compCode: string): Promise<number> {
  return countOf(ex, sql`from ${permits} where ${permits.compCode} = ${compCode}`);
}
