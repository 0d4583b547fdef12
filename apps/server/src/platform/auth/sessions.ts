import { hash, randomBytes } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { ChangeFeed } from '../db/change-feed';
import { queryRows, type Executor } from '../db/client';
import type { DataScope } from '@portal/contract/permission';
import { roleReach, sessionScope, unionReach, type DeptReach } from './data-scope';
import { sessions } from './schema';

/** One-shot: every signed-in call hashes its token for the session cache (docs/protocol.md "Sessions"). */
export function hashToken(token: string): string {
  return hash('sha256', token, 'base64url');
}

/** An opaque random token (docs/protocol.md "Sessions": not a JWT); only its hash is stored. */
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
  /**
   * The data scopes of the user's roles together (data-scope.ts): 'all', 'self' (their own rows
   * only) or 'dept' (their own rows plus the organisations of `reach`).
   */
  dataScope: 'all' | 'dept' | 'self';
  /** With 'dept': the organisations reached; absent, the user's organisation and all below it. */
  reach?: DeptReach;
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
  expires_ms: number;
  codes: string[] | null;
  scopes: DataScope[] | null;
  custom_depts: (number | string)[] | null;
}

/**
 * Resolves a bearer token to its user and current codes in one round trip. Codes are read with the
 * session, so a role change takes effect on the user's next call without a new login (SessionCache
 * keeps that true). Returns undefined for an unknown, revoked, expired or idle session, or a
 * disabled user.
 */
export async function resolveSession(
  ex: Executor,
  token: string,
  idleMs: number,
): Promise<SessionUser | undefined> {
  return (await readSession(ex, token, idleMs))?.user;
}

async function readSession(
  ex: Executor,
  token: string,
  idleMs: number,
  touch = true,
): Promise<{ user: SessionUser; expiresAt: number } | undefined> {
  const rows = await queryRows<Row>(
    ex,
    sql`
    select s.id as session_id, u.id as user_id, u.user_code, u.user_name, u.real_name, u.dept_id,
           u.must_change_password,
           s.last_seen_at < now() - make_interval(secs => ${idleMs / 1000}) as idle_expired,
           s.last_seen_at < now() - interval '60 seconds' as touch,
           (extract(epoch from s.expires_at) * 1000)::float8 as expires_ms,
           (select array_agg(distinct rm.menu_code) from user_roles ur
              join roles r on r.id = ur.role_id and r.state = 'enabled' and r.deleted_at is null
              join role_menus rm on rm.role_id = r.id
             where ur.user_id = u.id) as codes,
           (select array_agg(distinct r.data_scope) from user_roles ur
              join roles r on r.id = ur.role_id and r.state = 'enabled' and r.deleted_at is null
             where ur.user_id = u.id) as scopes,
           (select array_agg(distinct rd.dept_id) from user_roles ur
              join roles r on r.id = ur.role_id and r.state = 'enabled' and r.deleted_at is null
              join role_depts rd on rd.role_id = r.id
             where ur.user_id = u.id and r.data_scope = 'custom') as custom_depts
      from sessions s join users u on u.id = s.user_id
     where s.token_hash = ${hashToken(token)} and s.revoked_at is null and s.expires_at > now()
       and u.state = 'enabled' and u.deleted_at is null`,
  );
  const row = rows[0];
  if (!row || row.idle_expired) return undefined;
  // Touch at most once a minute: idle expiry needs minutes, not a write per call.
  if (row.touch && touch)
    await ex
      .update(sessions)
      .set({ lastSeenAt: sql`now()` })
      .where(eq(sessions.id, Number(row.session_id)));
  const deptId = row.dept_id === null ? null : Number(row.dept_id);
  const customDepts = (row.custom_depts ?? []).map(Number);
  const reach = unionReach((row.scopes ?? []).map((s) => roleReach(s, customDepts, deptId)));
  const user: SessionUser = {
    sessionId: Number(row.session_id),
    userId: Number(row.user_id),
    userCode: row.user_code,
    userName: row.user_name,
    realName: row.real_name,
    deptId,
    mustChangePassword: row.must_change_password,
    codes: new Set(row.codes ?? []),
    ...sessionScope(reach),
  };
  return { user, expiresAt: Number(row.expires_ms) };
}

/** The notice topic of migrations/0017's triggers: sessions, users, roles or their codes changed. */
export const AUTH_TOPIC = 'auth';
/** A cached session is read again after this long, which also keeps its idle clock (the touch). */
const RECHECK_MS = 60_000;
const MAX_CACHED = 10_000;

interface Cached {
  user: SessionUser;
  expiresAt: number;
  readAt: number;
}

/**
 * Sessions resolved once and kept in this process, so that a call costs no round trip for its
 * session (docs/protocol.md "Sessions"). Correct across instances because every committed change that can
 * alter a session's answer (revocation, expiry, the user, roles, role codes) sends a notice (migrations/0017)
 * that drops the whole cache: in this process before the writing call answers, in others a moment later. A
 * read that a notice overtook is not kept, nor anything read while no notices arrive.
 */
export class SessionCache {
  private readonly entries = new Map<string, Cached>();
  /** Counts notices: a read is kept only if none arrived while it ran. */
  private generation = 0;

  /**
   * `idleMs` is read at each resolve: the idle timeout is a setting changed without a restart
   * (docs/operations.md "Settings an administrator changes").
   */
  constructor(
    private readonly changes: ChangeFeed,
    private readonly idleMs: () => number,
  ) {
    changes.on(AUTH_TOPIC, () => {
      this.generation++;
      this.entries.clear();
    });
  }

  /** Sessions held resolved now (服务监控, /metrics). */
  get size(): number {
    return this.entries.size;
  }

  /**
   * `background`: a call the browser makes by itself. It does not touch the session, and what it
   * reads is not kept: a kept read would spare the next real call its re-read, and with it the touch
   * (docs/operations.md "Messages").
   */
  async resolve(
    ex: Executor,
    token: string,
    { background = false }: { background?: boolean } = {},
  ): Promise<SessionUser | undefined> {
    const hash = hashToken(token);
    const now = Date.now();
    const hit = this.entries.get(hash);
    const idleMs = this.idleMs();
    // Re-reading at least twice per idle period keeps idle expiry exact to that margin.
    const recheckMs = Math.min(RECHECK_MS, idleMs / 2);
    if (hit && now - hit.readAt < recheckMs && now < hit.expiresAt) return hit.user;
    const generation = this.generation;
    const read = await readSession(ex, token, idleMs, !background);
    if (!read) {
      this.entries.delete(hash);
      return undefined;
    }
    if (!background && generation === this.generation && this.changes.live()) {
      // Oldest first out: a Map iterates in insertion order.
      if (this.entries.size >= MAX_CACHED) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(hash, { ...read, readAt: now });
    }
    return read.user;
  }
}

/**
 * Why a session ended early, kept with it so that its next call can say so (docs/operations.md
 * "在线用户: a session ended early"): the user's own 退出登录, an administrator's 强退, or a change of the account
 * (password changed or reset, disabled, removed).
 */
export type RevokeReason = 'logout' | 'forced' | 'account';

const ENDED_MESSAGES: Partial<Record<RevokeReason, string>> = {
  forced: '您已被管理员强制下线，请重新登录',
  account: '账号的密码或状态已变更，请重新登录',
};

export async function revokeSession(ex: Executor, sessionId: number, reason: RevokeReason): Promise<void> {
  await ex
    .update(sessions)
    .set({ revokedAt: sql`now()`, revokedReason: reason })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

/**
 * The message a call answers when its token opens no session: why the session ended, when it was
 * ended for a reason the user should hear; undefined for the generic 登录已失效 (unknown token,
 * expired, signed out). Only the holder of the token learns it.
 */
export async function endedSessionMessage(ex: Executor, token: string): Promise<string | undefined> {
  const [row] = await queryRows<{ revoked_reason: RevokeReason | null }>(
    ex,
    sql`select revoked_reason from sessions where token_hash = ${hashToken(token)} and revoked_at is not null`,
  );
  return row?.revoked_reason ? ENDED_MESSAGES[row.revoked_reason] : undefined;
}

/** Password change, reset by an administrator, disabling or removing: every session ends at once. */
export async function revokeUserSessions(ex: Executor, userId: number): Promise<void> {
  await ex
    .update(sessions)
    .set({ revokedAt: sql`now()`, revokedReason: 'account' })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
}

/**
 * Sessions in force now on every server (服务监控, /metrics `portal_sessions_active`): not revoked,
 * not expired, used within the idle timeout.
 */
export async function countActiveSessions(ex: Executor, idleMs: number): Promise<number> {
  const rows = await queryRows<{ n: number }>(
    ex,
    sql`select count(*)::int as n from sessions
         where revoked_at is null and expires_at > now()
           and last_seen_at >= now() - make_interval(secs => ${idleMs / 1000})`,
  );
  return rows[0]?.n ?? 0;
}
