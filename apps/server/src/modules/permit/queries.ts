import { and, asc, desc, eq, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import {
  PERMIT_AREAS,
  PERMIT_SUBJECT_LABELS,
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
import { notFound } from '../../platform/errors';
import { countOf, likePattern, offsetOf, orderClause, page } from '../../platform/http/list';
import { companies } from '../company/schema';
import { compUsers } from '../crm/schema';
import { permitRoleChanges, permits } from './schema';

/*
 * The 准入 records' reads (docs/architecture.md "Modules"): the lists, the views with their history,
 * the roles in force, the candidates of the editors. The writes stay in service.ts.
 */

export type PermitTable = typeof permits.$inferSelect;
type CustListQuery = z.output<typeof custListSchema>;
type UserListQuery = z.output<typeof userListSchema>;
type RoleChgQuery = z.output<typeof roleChgListSchema>;
const ROLE_CHG = '角色变更记录';

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
const VIEW_HISTORY_LIMIT = 20;

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
