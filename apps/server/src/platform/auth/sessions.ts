import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../db/client';
import { sessions } from './schema';

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/** An opaque random token (PROTOCOL.md §2: not a JWT); only its hash is stored. */
export async function createSession(
  ex: Executor,
  userId: number,
  absoluteMs: number,
  meta: { ip?: string; userAgent?: string } = {},
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await ex.insert(sessions).values({
    tokenHash: hashToken(token),
    userId,
    expiresAt: new Date(Date.now() + absoluteMs).toISOString(),
    ip: meta.ip ?? null,
    userAgent: meta.userAgent?.slice(0, 300) ?? null,
  });
  return token;
}

export interface SessionUser {
  sessionId: number;
  userId: number;
  userCode: string;
  userName: string;
  realName: string;
  deptId: number | null;
  mustChangePassword: boolean;
  /** Menu and button codes, the union over the user's enabled roles. */
  codes: Set<string>;
  /** Widest data scope over the user's roles: all > dept > self. */
  dataScope: 'all' | 'dept' | 'self';
}

interface Row {
  session_id: number;
  user_id: number;
  user_code: string;
  user_name: string;
  real_name: string;
  dept_id: number | null;
  must_change_password: boolean;
  idle_expired: boolean;
  touch: boolean;
  codes: string[] | null;
  scopes: string[] | null;
}

/**
 * Resolves a bearer token to its user and current codes in one round trip. Codes are read on
 * every call, so a role change takes effect on the user's next call without a new login.
 * Returns undefined for an unknown, revoked, expired or idle session, or a disabled user.
 */
export async function resolveSession(
  ex: Executor,
  token: string,
  idleMs: number,
): Promise<SessionUser | undefined> {
  const rows = await queryRows<Row>(
    ex,
    sql`
    select s.id as session_id, u.id as user_id, u.user_code, u.user_name, u.real_name, u.dept_id,
           u.must_change_password,
           s.last_seen_at < now() - make_interval(secs => ${idleMs / 1000}) as idle_expired,
           s.last_seen_at < now() - interval '60 seconds' as touch,
           (select array_agg(distinct rm.menu_code) from user_roles ur
              join roles r on r.id = ur.role_id and r.state = 'enabled' and r.deleted_at is null
              join role_menus rm on rm.role_id = r.id
             where ur.user_id = u.id) as codes,
           (select array_agg(distinct r.data_scope) from user_roles ur
              join roles r on r.id = ur.role_id and r.state = 'enabled' and r.deleted_at is null
             where ur.user_id = u.id) as scopes
      from sessions s join users u on u.id = s.user_id
     where s.token_hash = ${hashToken(token)} and s.revoked_at is null and s.expires_at > now()
       and u.state = 'enabled' and u.deleted_at is null`,
  );
  const row = rows[0];
  if (!row || row.idle_expired) return undefined;
  // Touch at most once a minute: idle expiry needs minutes, not a write per call.
  if (row.touch)
    await ex
      .update(sessions)
      .set({ lastSeenAt: sql`now()` })
      .where(eq(sessions.id, Number(row.session_id)));
  const scopes = row.scopes ?? [];
  return {
    sessionId: Number(row.session_id),
    userId: Number(row.user_id),
    userCode: row.user_code,
    userName: row.user_name,
    realName: row.real_name,
    deptId: row.dept_id === null ? null : Number(row.dept_id),
    mustChangePassword: row.must_change_password,
    codes: new Set(row.codes ?? []),
    dataScope: scopes.includes('all') ? 'all' : scopes.includes('dept') ? 'dept' : 'self',
  };
}

export async function revokeSession(ex: Executor, sessionId: number): Promise<void> {
  await ex
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

/** Password change, reset by an administrator, disabling or removing: every session ends at once. */
export async function revokeUserSessions(ex: Executor, userId: number): Promise<void> {
  await ex
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
}
