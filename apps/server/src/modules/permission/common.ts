import { sql } from 'drizzle-orm';
import { ADMIN_CODE } from '@portal/contract/menus';
import { PERMISSION_MESSAGES as M } from '@portal/contract/permission';
import { queryRows, type Executor } from '../../platform/db/client';
import type { Actor } from '../../platform/db/audit';
import type { SessionUser } from '../../platform/auth/sessions';
import { grantBeyond, isAdministrator, roleGrant, userGrant, type Grant } from '../../platform/auth/grant';
import { conflict, noPermission } from '../../platform/errors';

/** Who acts: the session (self checks, data scope, admin-only grants) and the audit actor. */
export interface Acting {
  user: SessionUser;
  actor: Actor;
}

/**
 * Every write of this module runs under one transaction-scoped advisory lock: the checks that
 * span rows (no organisation cycle, at least one active administrator) then hold under
 * concurrent requests on PostgreSQL, not only one at a time.
 */
export async function lockPermissions(tx: Executor): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(727004, 1)`);
}

/** Live, enabled users that hold an enabled role granting `admin`. */
export async function countActiveAdmins(ex: Executor): Promise<number> {
  const rows = await queryRows<{ n: number }>(
    ex,
    sql`select count(distinct u.id)::int as n from users u
          join user_roles ur on ur.user_id = u.id
          join roles r on r.id = ur.role_id and r.state = 'enabled' and r.deleted_at is null
          join role_menus rm on rm.role_id = r.id and rm.menu_code = ${ADMIN_CODE}
         where u.state = 'enabled' and u.deleted_at is null`,
  );
  return rows[0]?.n ?? 0;
}

/** The ids of live, enabled users that hold an enabled role granting `admin` (a failed job tells them). */
export async function activeAdminIds(ex: Executor): Promise<number[]> {
  const rows = await queryRows<{ id: unknown }>(
    ex,
    sql`select distinct u.id from users u
          join user_roles ur on ur.user_id = u.id
          join roles r on r.id = ur.role_id and r.state = 'enabled' and r.deleted_at is null
          join role_menus rm on rm.role_id = r.id and rm.menu_code = ${ADMIN_CODE}
         where u.state = 'enabled' and u.deleted_at is null order by 1`,
  );
  return rows.map((r) => Number(r.id));
}

/** Run at the end of a change, inside its transaction: refusing rolls the whole change back. */
export async function assertAdminRemains(tx: Executor): Promise<void> {
  if ((await countActiveAdmins(tx)) === 0) throw conflict(M.lastAdmin);
}

export const isAdmin = isAdministrator;

/**
 * No escalation (SECURITY.md): who is not an administrator grants only codes they hold themselves
 * and a data scope reaching no organisation beyond their own (platform/auth/grant.ts).
 */
export async function assertGrantable(ex: Executor, u: SessionUser, grant: Partial<Grant>): Promise<void> {
  const beyond = await grantBeyond(ex, u, grant);
  if (beyond?.codes.length) throw noPermission(`${M.grantBeyondOwn}：${beyond.codes.slice(0, 5).join('、')}`);
  if (beyond) throw noPermission(M.scopeBeyondOwn);
}

/**
 * The user or role is within the acting user, checked again under lockPermissions: the route's
 * `within` ran before the transaction, and a grant may have raced it. For a user, also what a
 * change leaves: a kept role of 本组织及下级 reaches further once its holder moves, for instance.
 */
export async function assertUserWithin(ex: Executor, u: SessionUser, userCode: string): Promise<void> {
  const grant = await userGrant(ex, { userCode });
  if (grant && (await grantBeyond(ex, u, grant))) throw noPermission(M.userWider);
}
export async function assertRoleWithin(ex: Executor, u: SessionUser, roleCode: string): Promise<void> {
  const grant = await roleGrant(ex, roleCode, u);
  if (grant && (await grantBeyond(ex, u, grant))) throw noPermission(M.roleWider);
}

/** A role the acting (non-administrator) user holds is configured by someone else. */
export async function assertNotOwnRole(ex: Executor, u: SessionUser, roleId: number): Promise<void> {
  if (isAdmin(u)) return;
  const held = await queryRows<{ n: number }>(
    ex,
    sql`select 1 as n from user_roles where user_id = ${u.userId} and role_id = ${roleId}`,
  );
  if (held.length > 0) throw noPermission(M.ownRoleFixed);
}

/** Granting or touching administrator power is for administrators only (no escalation). */
export function requireAdmin(u: SessionUser, msg: string): void {
  if (!isAdmin(u)) throw noPermission(msg);
}
