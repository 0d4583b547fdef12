import { sql, type SQL } from 'drizzle-orm';
import { LOCK_AFTER_FAILURES, LOCK_WINDOW_MINUTES } from '@portal/contract/auth';
import { auditActionLabel, auditChanges, auditEntityLabel, SYSTEM_ACTOR_NAME } from '@portal/contract/audit';
import {
  type LoginLogListQuery,
  type LoginLogView,
  type LoginOutcome,
  type LoginUnlock,
  type OnlineListQuery,
  type OnlineSessionView,
  type OperLogChange,
  type OperLogDetail,
  type OperLogListQuery,
  type OperLogView,
  OPER_RESULT_LABELS,
  type OperResult,
} from '@portal/contract/monitor';
import type { Page } from '@portal/contract/api';
import { dataScopeCondition } from '../../platform/auth/data-scope';
import { revokeSession, type SessionUser } from '../../platform/auth/sessions';
import type { Actor } from '../../platform/db/audit';
import { runCommand } from '../../platform/db/command';
import { queryRows, type Db, type Executor } from '../../platform/db/client';
import { badInput, notFound } from '../../platform/errors';
import { countOf, likePattern, offsetOf, page } from '../../platform/http/list';
import { fileNamesByToken } from '../files';

/**
 * 系统监控 (docs/operations.md). These screens are held by administrators, but the rows follow the reader's
 * data scope through the user they concern (README "Row scope"): 全部数据 sees everyone's, 本组织及
 * 下级 the rows of users of their organisation and below plus their own, 本人 their own. A sign-in
 * attempt concerns the user whose name was typed; one naming nobody is seen only with 全部数据.
 */
type Ctx = { user: SessionUser; actor: Actor };
type OperLogFilters = Omit<OperLogListQuery, 'pageNum' | 'pageSize' | 'order' | 'orderBy'>;
type LoginLogFilters = Omit<LoginLogListQuery, 'pageNum' | 'pageSize' | 'order' | 'orderBy'>;

/** Calendar dates of the filters are days in Asia/Shanghai, as the office reads them. */
const dayStart = (d: string) => sql`(${d}::date)::timestamp at time zone 'Asia/Shanghai'`;
const dayAfter = (d: string) => sql`(${d}::date + 1)::timestamp at time zone 'Asia/Shanghai'`;

function dateRange(column: SQL, start?: string, end?: string): SQL[] {
  const out: SQL[] = [];
  if (start) out.push(sql`${column} >= ${dayStart(start)}`);
  if (end) out.push(sql`${column} < ${dayAfter(end)}`);
  return out;
}

export const whereOf = (conds: SQL[]) => sql`where ${sql.join(conds, sql` and `)}`;
const direction = (order: 'asc' | 'desc' | undefined) => sql.raw(order === 'asc' ? 'asc' : 'desc');

// ---- 操作日志

export interface OperRow {
  id: number;
  at: string;
  user_name: string | null;
  real_name: string | null;
  org_name: string | null;
  entity: string;
  entity_code: string | null;
  action: string;
  ip: string | null;
  request_id: string | null;
  result: OperResult;
  detail?: unknown;
}

/** A 附件 row names its file by the file's name, never by its token (a token grants the file). */
export const OPER_SELECT = sql`select a.id, a.at, a.actor_name as user_name, u.real_name, d.name as org_name,
       a.entity, case when a.entity = 'file' then coalesce(f.original_name, '（文件已不存在）') else a.entity_code end
       as entity_code, a.action, a.ip, a.request_id, a.result`;
export const OPER_FROM = sql`from audit_log a left join users u on u.id = a.actor_id
       left join depts d on d.id = u.dept_id
       left join files f on a.entity = 'file' and f.file_token = a.entity_code`;

export function operView(r: OperRow): OperLogView {
  return {
    id: Number(r.id),
    at: new Date(r.at).toISOString(),
    // Rows the server wrote itself (demo data, day-end) before they were named in Chinese.
    userName: r.user_name === 'system' ? SYSTEM_ACTOR_NAME : r.user_name,
    realName: r.real_name,
    orgName: r.org_name,
    entity: r.entity,
    entityLabel: auditEntityLabel(r.entity) ?? r.entity,
    entityCode: r.entity_code,
    action: r.action,
    actionLabel: auditActionLabel(r.action) ?? r.action,
    ip: r.ip,
    requestId: r.request_id,
    result: r.result,
    resultLabel: OPER_RESULT_LABELS[r.result] ?? r.result,
  };
}

const operScope = (user: SessionUser) => dataScopeCondition(user, { ownerUser: sql`a.actor_id` });

/** The list's filters and the reader's scope; the export applies the same (export.ts). */
export function operConds(q: OperLogFilters, user: SessionUser): SQL[] {
  const conds: SQL[] = [operScope(user)];
  if (q.userName)
    conds.push(
      sql`(a.actor_name ilike ${likePattern(q.userName)} or u.real_name ilike ${likePattern(q.userName)})`,
    );
  if (q.entity) conds.push(sql`a.entity = ${q.entity}`);
  if (q.entityCode) conds.push(sql`a.entity_code ilike ${likePattern(q.entityCode)}`);
  if (q.result) conds.push(sql`a.result = ${q.result}`);
  conds.push(...dateRange(sql`a.at`, q.atStart, q.atEnd));
  return conds;
}

export async function listOperLogs(db: Db, q: OperLogListQuery, { user }: Ctx): Promise<Page<OperLogView>> {
  const where = whereOf(operConds(q, user));
  const rows = await queryRows<OperRow>(
    db,
    sql`${OPER_SELECT} ${OPER_FROM} ${where}
        order by a.at ${direction(q.order)}, a.id ${direction(q.order)}
        limit ${q.pageSize} offset ${offsetOf(q)}`,
  );
  return page(rows.map(operView), await countOf(db, sql`${OPER_FROM} ${where}`), q);
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const FILE_TOKENS = /^fileTokens?$/;

/** The file tokens an audit detail records (at its top level or in its before / after). */
function tokensIn(detail: unknown): string[] {
  if (!isRecord(detail)) return [];
  return Object.entries(detail).flatMap(([k, v]) => {
    if (FILE_TOKENS.test(k))
      return (Array.isArray(v) ? v : [v]).filter((t): t is string => typeof t === 'string');
    return isRecord(v) ? tokensIn(v) : [];
  });
}

/** The detail with its file tokens replaced by the files' names (`files`): a token is never shown. */
function withFileNames(detail: unknown, names: ReadonlyMap<string, string>): unknown {
  if (!isRecord(detail)) return detail;
  return Object.fromEntries(
    Object.entries(detail).map(([k, v]) => {
      if (FILE_TOKENS.test(k)) {
        const tokens = (Array.isArray(v) ? v : [v]).filter((t): t is string => typeof t === 'string');
        return ['files', tokens.map((t) => names.get(t) ?? '（文件已不存在）')];
      }
      return [k, isRecord(v) ? withFileNames(v, names) : v];
    }),
  );
}

/**
 * Audit details in words (docs/operations.md "操作日志 in words"): each row's fields with their
 * labels and formatted values (packages/contract audit.ts), files by name.
 */
export async function detailChanges(
  ex: Executor,
  rows: readonly { detail: unknown; action: string; entity: string }[],
): Promise<{ hasBefore: boolean; changes: OperLogChange[] }[]> {
  const names = await fileNamesByToken(
    ex,
    rows.flatMap((r) => tokensIn(r.detail)),
  );
  return rows.map((r) =>
    auditChanges(withFileNames(r.detail, names), 'state', { action: r.action, entity: r.entity }),
  );
}

export async function getOperLog(db: Db, id: number, { user }: Ctx): Promise<OperLogDetail> {
  const [row] = await queryRows<OperRow>(
    db,
    sql`${OPER_SELECT}, a.detail ${OPER_FROM} where a.id = ${id} and ${operScope(user)}`,
  );
  if (!row) throw notFound('操作日志');
  const [changes] = await detailChanges(db, [{ detail: row.detail, action: row.action, entity: row.entity }]);
  return { ...operView(row), ...changes! };
}

// ---- 登录日志

/** Until when a name is locked now (ISO), by the rule of modules/auth failureCounts, else null. */
export const LOCKED_UNTIL = (name: SQL) => sql`(
  select max(f.at) + make_interval(mins => ${LOCK_WINDOW_MINUTES}) from (
    select at, count(*) over (order by at range between make_interval(mins => ${LOCK_WINDOW_MINUTES}) preceding
                                                   and current row) as n
      from login_attempts
     where user_name = ${name} and success = false and outcome <> 'locked' and cleared_at is null
       and at > now() - make_interval(mins => ${2 * LOCK_WINDOW_MINUTES})) f
   where f.n >= ${LOCK_AFTER_FAILURES} and f.at > now() - make_interval(mins => ${LOCK_WINDOW_MINUTES}))`;

const loginScope = (user: SessionUser) =>
  dataScopeCondition(user, {
    ownerUser: sql`(select u.id from users u where lower(u.user_name) = l.user_name and u.deleted_at is null)`,
  });

export interface LoginRow {
  id: number;
  at: string;
  user_name: string;
  outcome: LoginOutcome;
  ip: string | null;
  user_agent: string | null;
  locked_until: string | null;
}

/** The list's filters and the reader's scope; the export applies the same (export.ts). */
export function loginConds(q: LoginLogFilters, user: SessionUser): SQL[] {
  const conds: SQL[] = [loginScope(user)];
  if (q.userName) conds.push(sql`l.user_name ilike ${likePattern(q.userName.trim().toLowerCase())}`);
  if (q.ip) conds.push(sql`l.ip ilike ${likePattern(q.ip)}`);
  if (q.outcome) conds.push(sql`l.outcome = ${q.outcome}`);
  conds.push(...dateRange(sql`l.at`, q.atStart, q.atEnd));
  return conds;
}

export async function listLoginLogs(
  db: Db,
  q: LoginLogListQuery,
  { user }: Ctx,
): Promise<Page<LoginLogView>> {
  const where = whereOf(loginConds(q, user));
  const rows = await queryRows<LoginRow>(
    db,
    sql`select l.id, l.at, l.user_name, l.outcome, l.ip, l.user_agent,
               ${LOCKED_UNTIL(sql`l.user_name`)} as locked_until
          from login_attempts l ${where}
         order by l.at ${direction(q.order)}, l.id ${direction(q.order)}
         limit ${q.pageSize} offset ${offsetOf(q)}`,
  );
  const list = rows.map((r) => ({
    id: Number(r.id),
    at: new Date(r.at).toISOString(),
    userName: r.user_name,
    outcome: r.outcome,
    ip: r.ip,
    userAgent: r.user_agent,
    lockedUntil: r.locked_until ? new Date(r.locked_until).toISOString() : null,
  }));
  return page(list, await countOf(db, sql`from login_attempts l ${where}`), q);
}

/**
 * Lifts a lock in force: the name's counted failures are cleared (they count neither towards the
 * lock nor the captcha any more), and the unlock is audited with its reason. A name not locked
 * answers 400; a name outside the reader's scope 404, like a row they cannot see.
 */
export async function unlockLogin(db: Db, body: LoginUnlock, { user, actor }: Ctx): Promise<void> {
  const name = body.userName.trim().toLowerCase();
  await runCommand(db, actor, { entity: 'loginLock', action: 'unlock', code: name }, async (tx, w) => {
    const [row] = await queryRows<{ visible: boolean; locked_until: string | null }>(
      tx,
      sql`select exists (select 1 from login_attempts l where l.user_name = ${name} and ${loginScope(user)}) as visible,
                 ${LOCKED_UNTIL(sql`${name}`)} as locked_until`,
    );
    if (!row?.visible) throw notFound('登录记录');
    if (!row.locked_until) throw badInput('该用户名未被锁定');
    await tx.execute(
      sql`update login_attempts set cleared_at = now()
           where user_name = ${name} and success = false and cleared_at is null`,
    );
    await w.audit({
      detail: { userName: name, reason: body.reason, lockedUntil: new Date(row.locked_until).toISOString() },
    });
  });
}

// ---- 在线用户

interface OnlineRow {
  session_id: number;
  user_name: string;
  real_name: string;
  org_name: string | null;
  ip: string | null;
  user_agent: string | null;
  created_at: string;
  last_seen_at: string;
}

/** Live: not revoked, not past its absolute expiry, not idle beyond the idle expiry, user enabled. */
const LIVE = (idleMs: number) => sql`s.revoked_at is null and s.expires_at > now()
  and s.last_seen_at > now() - make_interval(secs => ${idleMs / 1000})
  and u.state = 'enabled' and u.deleted_at is null`;

const onlineScope = (user: SessionUser) => dataScopeCondition(user, { ownerUser: sql`s.user_id` });
const ONLINE_FROM = sql`from sessions s join users u on u.id = s.user_id left join depts d on d.id = u.dept_id`;

export async function listOnline(
  db: Db,
  idleMs: number,
  q: OnlineListQuery,
  { user }: Ctx,
): Promise<Page<OnlineSessionView>> {
  const conds: SQL[] = [LIVE(idleMs), onlineScope(user)];
  if (q.userName)
    conds.push(
      sql`(u.user_name ilike ${likePattern(q.userName)} or u.real_name ilike ${likePattern(q.userName)})`,
    );
  if (q.ip) conds.push(sql`s.ip ilike ${likePattern(q.ip)}`);
  const where = whereOf(conds);
  const column = sql.raw(q.orderBy === 'lastSeenAt' ? 's.last_seen_at' : 's.created_at');
  const rows = await queryRows<OnlineRow>(
    db,
    sql`select s.id as session_id, u.user_name, u.real_name, d.name as org_name, s.ip, s.user_agent,
               s.created_at, s.last_seen_at
          ${ONLINE_FROM} ${where}
         order by ${column} ${direction(q.order)}, s.id desc
         limit ${q.pageSize} offset ${offsetOf(q)}`,
  );
  const list = rows.map((r) => ({
    sessionId: Number(r.session_id),
    // Rows the server wrote itself (demo data, day-end) before they were named in Chinese.
    userName: r.user_name === 'system' ? SYSTEM_ACTOR_NAME : r.user_name,
    realName: r.real_name,
    orgName: r.org_name,
    ip: r.ip,
    userAgent: r.user_agent,
    createdAt: new Date(r.created_at).toISOString(),
    lastSeenAt: new Date(r.last_seen_at).toISOString(),
    current: Number(r.session_id) === user.sessionId,
  }));
  return page(list, await countOf(db, sql`${ONLINE_FROM} ${where}`), q);
}

/**
 * 强退: revokes the session. The revocation's notice (migrations/0017) drops every server's
 * session cache, so the next call on any server answers 403 saying the user was forced out. The caller's own session cannot be
 * forced out here (退出登录 is for that); one outside their scope or already ended is 404.
 */
export async function forceLogout(
  db: Db,
  idleMs: number,
  sessionId: number,
  { user, actor }: Ctx,
): Promise<void> {
  if (sessionId === user.sessionId) throw badInput('不能强退自己当前的会话');
  await runCommand(db, actor, { entity: 'session', action: 'forceLogout' }, async (tx, w) => {
    const [row] = await queryRows<{ user_name: string; user_code: string }>(
      tx,
      sql`select u.user_name, u.user_code ${ONLINE_FROM}
           where s.id = ${sessionId} and ${LIVE(idleMs)} and ${onlineScope(user)} for update of s`,
    );
    if (!row) throw notFound('在线会话');
    await revokeSession(tx, sessionId, 'forced');
    await w.audit({ code: row.user_code.trim(), detail: { sessionUser: row.user_name } });
  });
}
