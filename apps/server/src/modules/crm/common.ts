import { and, asc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { CompUserRow, RegState, UserState } from '@portal/contract/crm';
import type { Executor } from '../../platform/db/client';
import { badInput } from '../../platform/errors';
import { advisoryXactLock } from '../../platform/db/advisory';
import { companies } from '../company/schema';
import { compDepts, compRelations, compRoles, compUserRoles, compUsers } from './schema';

/** What the crm files share: live-row filters, user rows as the screens show them, the company usage check. */

export type UserRow = typeof compUsers.$inferSelect;
export const liveUser = isNull(compUsers.deletedAt);
export const liveDept = isNull(compDepts.deletedAt);
export const liveRole = isNull(compRoles.deletedAt);
export const USER = '企业用户';

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

export async function toUserRows(ex: Executor, rows: UserRow[]): Promise<CompUserRow[]> {
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

/** The given users must be live users of this customer. */
export async function requireCompUsers(
  tx: Executor,
  compCode: string,
  userCodes: readonly string[],
  label: string,
) {
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

/** Departments are changed one enterprise at a time (moves are checked against a stable tree). */
export async function lockCompTree(tx: Executor, compCode: string) {
  await advisoryXactLock(tx, 'crm.deptTree', compCode);
}
