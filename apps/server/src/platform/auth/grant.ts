import { sql, type SQL } from 'drizzle-orm';
import { ADMIN_CODE } from '@portal/contract/menus';
import type { DataScope } from '@portal/contract/permission';
import { queryRows, type Executor } from '../db/client';
import {
  dataScopeCondition,
  reachOf,
  reachWithin,
  roleReach,
  unionReach,
  type Reach,
  type ScopeUser,
} from './data-scope';
import type { SessionUser } from './sessions';

/**
 * No escalation (SECURITY.md "No escalation"): what a user or a role grants, its menu and button
 * codes and the organisations its data scope reaches, compared with what the acting user holds.
 * Nobody who is not an administrator acts on a user or role that grants more than they hold, nor
 * makes one that would.
 */
export interface Grant {
  codes: Iterable<string>;
  reach: Reach;
}

/** What `grant` holds beyond the actor: codes they lack, and whether it reaches further. */
export interface Beyond {
  codes: string[];
  scope: boolean;
}

export const isAdministrator = (u: Pick<SessionUser, 'codes'>) => u.codes.has(ADMIN_CODE);

/** What the grant holds beyond the actor, or null when it is within (always for an administrator). */
export async function grantBeyond(
  ex: Executor,
  actor: SessionUser,
  grant: Partial<Grant>,
): Promise<Beyond | null> {
  if (isAdministrator(actor)) return null;
  const codes = [...(grant.codes ?? [])].filter((c) => !actor.codes.has(c));
  const scope = grant.reach !== undefined && !(await reachWithin(ex, grant.reach, reachOf(actor)));
  return codes.length > 0 || scope ? { codes, scope } : null;
}

export interface RoleRow {
  id: number;
  code: string;
  data_scope: DataScope;
  depts: (number | string)[] | null;
  codes: string[] | null;
}

/** Live roles with their scope, chosen organisations and codes. */
async function readRoles(ex: Executor, where: SQL): Promise<RoleRow[]> {
  return queryRows<RoleRow>(
    ex,
    sql`select r.id, r.code, r.data_scope,
               (select array_agg(rd.dept_id) from role_depts rd where rd.role_id = r.id) as depts,
               (select array_agg(rm.menu_code) from role_menus rm where rm.role_id = r.id) as codes
          from roles r where r.deleted_at is null and ${where}`,
  );
}

function grantOf(rows: readonly RoleRow[], holderDept: number | null): Grant {
  return {
    codes: new Set(rows.flatMap((r) => r.codes ?? [])),
    reach: unionReach(rows.map((r) => roleReach(r.data_scope, (r.depts ?? []).map(Number), holderDept))),
  };
}

/**
 * What a user's roles grant, enabled or not (enabling a role gives it back), with their data
 * scopes reached from the user's organisation; undefined for no such live user. The user is named
 * by code, by sign-in name (login unlock) or by one of their sessions (强退). With `visibleTo`, a
 * user outside that reader's data scope is no such user (the handler answers its 404).
 */
export async function userGrant(
  ex: Executor,
  named: { userCode: string } | { userName: string } | { sessionId: string },
  visibleTo?: ScopeUser,
): Promise<Grant | undefined> {
  const where =
    'userCode' in named
      ? sql`user_code = ${named.userCode}`
      : 'userName' in named
        ? sql`user_name = ${named.userName}`
        : sql`id = (select user_id from sessions where id = ${named.sessionId}::bigint)`;
  const [user] = await queryRows<{ id: number; dept_id: number | null }>(
    ex,
    sql`select id, dept_id from users
         where ${where} and deleted_at is null
           and ${visibleTo ? dataScopeCondition(visibleTo, { ownerUser: sql`id`, ownerDept: sql`dept_id` }) : sql`true`}`,
  );
  if (!user) return undefined;
  const rows = await readRoles(ex, sql`r.id in (select role_id from user_roles where user_id = ${user.id})`);
  return grantOf(rows, user.dept_id === null ? null : Number(user.dept_id));
}

/**
 * What a role grants, its scope reached as if the actor held it: a role is within the actor when,
 * held by them, it would open nothing they do not already see. Undefined for no such live role.
 */
export async function roleGrant(
  ex: Executor,
  roleCode: string,
  holder: Pick<SessionUser, 'deptId'>,
): Promise<Grant | undefined> {
  const [row] = await readRoles(ex, sql`r.biz_code = ${roleCode}`);
  return row ? grantOf([row], holder.deptId) : undefined;
}
