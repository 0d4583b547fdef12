import { and, desc, eq, sql } from 'drizzle-orm';
import {
  CAPTCHA_AFTER_FAILURES,
  LOCK_AFTER_FAILURES,
  LOCK_WINDOW_MINUTES,
  LOGIN_MESSAGES,
  type LoginResult,
} from '@portal/contract/auth';
import type { LoginOutcome } from '@portal/contract/monitor';
import type { PasswordChange } from '@portal/contract/password';
import type { Config } from '../../platform/config';
import { queryRows, type Db } from '../../platform/db/client';
import { metrics } from '../../platform/metrics';
import type { Actor } from '../../platform/db/audit';
import { runCommand } from '../../platform/db/command';
import { badInput, tooMany } from '../../platform/errors';
import { depts, loginAttempts, users } from '../../platform/auth/schema';
import { dummyHash, hashPassword, verifyPassword } from '../../platform/auth/password-hash';
import type { HashGate } from '../../platform/auth/hash-gate';
import {
  createSession,
  revokeSession,
  revokeUserSessions,
  type SessionUser,
} from '../../platform/auth/sessions';
import { consumeCaptcha } from './captcha';

interface FailureCounts {
  /** A lock is in force: 10 failures fell within 15 minutes, the 10th less than 15 minutes ago. */
  locked: boolean;
  sinceSuccess: number;
}

/**
 * The failures that count towards the captcha and the lock: not a refusal while locked (shown in
 * 登录日志 but not prolonging the lock), not one an administrator's unlock cleared.
 */
const COUNTED_FAILURE = sql`success = false and outcome <> 'locked' and cleared_at is null`;

async function failureCounts(db: Db, name: string): Promise<FailureCounts> {
  const [last] = await db
    .select({ at: loginAttempts.at })
    .from(loginAttempts)
    .where(and(eq(loginAttempts.userName, name), eq(loginAttempts.success, true)))
    .orderBy(desc(loginAttempts.at))
    .limit(1);
  // docs/protocol.md "Sessions": locked for 15 minutes after the 10th failure in 15 minutes. For each recent
  // failure, count the failures in the 15 minutes up to it; one that is the 10th starts a lock
  // lasting 15 minutes from it, however the older ones age meanwhile. Attempts refused while
  // locked are not recorded, so a lock is not prolonged by knocking.
  const rows = await queryRows<{ locked: boolean; since_success: number }>(
    db,
    sql`
    with recent as (
      select at, count(*) over (order by at range between make_interval(mins => ${LOCK_WINDOW_MINUTES}) preceding
                                                     and current row) as n
        from login_attempts
       where user_name = ${name} and ${COUNTED_FAILURE}
         and at > now() - make_interval(mins => ${2 * LOCK_WINDOW_MINUTES}))
    select coalesce(bool_or(n >= ${LOCK_AFTER_FAILURES}
                            and at > now() - make_interval(mins => ${LOCK_WINDOW_MINUTES})), false) as locked,
           (select count(*)::int from login_attempts
             where user_name = ${name} and ${COUNTED_FAILURE}
               and ${last ? sql`at > ${last.at}` : sql`true`}) as since_success
      from recent`,
  );
  const row = rows[0];
  return { locked: row?.locked ?? false, sinceSuccess: row?.since_success ?? 0 };
}

async function recordAttempt(
  db: Db,
  name: string,
  outcome: LoginOutcome,
  meta: { ip: string; userAgent?: string },
) {
  if (outcome !== 'success') metrics.loginFailed(outcome);
  await db.insert(loginAttempts).values({
    userName: name,
    success: outcome === 'success',
    outcome,
    ip: meta.ip,
    userAgent: meta.userAgent?.slice(0, 300) || null,
  });
}

export interface LoginInput {
  userName: string;
  passWord: string;
  vCode?: string | undefined;
  vCodeToken?: string | undefined;
}

/**
 * docs/protocol.md "Sessions". The answer never says whether the user name exists. After 3 failures a captcha
 * is required; after 10 failures in 15 minutes the name is locked (429) for 15 minutes.
 */
export async function login(
  db: Db,
  config: Config,
  gate: HashGate,
  input: LoginInput,
  meta: { ip: string; userAgent?: string },
): Promise<LoginResult> {
  const name = input.userName.trim().toLowerCase();
  const counts = await failureCounts(db, name);
  if (counts.locked) {
    await recordAttempt(db, name, 'locked', meta);
    throw tooMany(LOGIN_MESSAGES.locked);
  }

  const captchaNeeded = counts.sinceSuccess >= CAPTCHA_AFTER_FAILURES;
  if (captchaNeeded) {
    if (!input.vCode || !input.vCodeToken)
      throw badInput(LOGIN_MESSAGES.captchaRequired, { needCaptcha: true });
    if (!(await consumeCaptcha(db, input.vCodeToken, input.vCode))) {
      await recordAttempt(db, name, 'captchaFailed', meta);
      throw badInput(LOGIN_MESSAGES.captchaWrong, { needCaptcha: true });
    }
  }

  const [user] = await db
    .select({
      id: users.id,
      hash: users.passwordHash,
      state: users.state,
      must: users.mustChangePassword,
      userName: users.userName,
    })
    .from(users)
    .where(and(eq(sql`lower(${users.userName})`, name), sql`${users.deletedAt} is null`))
    .limit(1);
  // Same cost whether or not the user exists: no timing oracle on user names. Both go through the
  // gate that bounds hashes at once (platform/auth/hash-gate.ts), the dummy one included.
  const ok = await gate.run(async () =>
    verifyPassword(input.passWord, user?.hash ?? (await dummyHash(config.passwordHashCost))),
  );
  if (!user || !ok) {
    await recordAttempt(db, name, user ? 'badPassword' : 'unknownUser', meta);
    const needCaptcha = counts.sinceSuccess + 1 >= CAPTCHA_AFTER_FAILURES;
    throw badInput(LOGIN_MESSAGES.badCredentials, needCaptcha ? { needCaptcha: true } : undefined);
  }
  // SECURITY.md "Sign-in": a wrong password on a disabled account gets the generic answer above;
  // the right one learns only that this account cannot sign in (not why), and counts as a failure
  // so guessing it is bounded by the captcha and the lock like any other guess.
  if (user.state !== 'enabled') {
    await recordAttempt(db, name, 'disabled', meta);
    throw badInput(LOGIN_MESSAGES.cannotSignIn);
  }

  await recordAttempt(db, name, 'success', meta);
  // The session and its audit row commit together: a sign-in is the write of its session row.
  const actor: Actor = { userId: user.id, userName: user.userName, ip: meta.ip };
  const accessToken = await runCommand(db, actor, { entity: 'session', action: 'login' }, async (tx, w) => {
    const token = await createSession(tx, user.id, config.sessionAbsoluteMs, meta);
    await w.audit({ detail: { ip: meta.ip } });
    return token;
  });
  return { accessToken, mustChangePassword: user.must };
}

/** 退出登录: the session ends, with its audit row. */
export async function logout(db: Db, sessionId: number, actor: Actor): Promise<void> {
  await runCommand(db, actor, { entity: 'session', action: 'logout' }, async (tx, w) => {
    await revokeSession(tx, sessionId, 'logout');
    await w.audit();
  });
}

export async function userInfo(db: Db, u: SessionUser) {
  const [row] = await db
    .select({ avatar: users.avatar, introduction: users.introduction, deptCode: depts.bizCode })
    .from(users)
    .leftJoin(depts, eq(depts.id, users.deptId))
    .where(eq(users.id, u.userId));
  return {
    userCode: u.userCode,
    userName: u.userName,
    name: u.realName,
    avatar: row?.avatar ?? '',
    introduction: row?.introduction ?? '',
    mustChangePassword: u.mustChangePassword,
    deptCode: row?.deptCode ?? null,
    dataScope: u.dataScope,
  };
}

/** Menu codes of the user; `admin` stands for all (docs/protocol.md "Menu and button codes"). */
export function menuCodes(u: SessionUser): string[] {
  return [...u.codes].filter((c) => !c.includes(':')).sort();
}

export function buttonCodes(u: SessionUser, menuCode: string): string[] {
  if (u.codes.has('admin')) return ['admin'];
  return [...u.codes].filter((c) => c.startsWith(`${menuCode}:`)).sort();
}

/** The password change (docs/protocol.md "Password rules"); success revokes every session of the user, this one included. */
export async function changePassword(
  db: Db,
  config: Config,
  gate: HashGate,
  u: SessionUser,
  body: PasswordChange,
  actor: Actor,
): Promise<void> {
  const [row] = await db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, u.userId));
  if (!row || !(await gate.run(() => verifyPassword(body.pwd, row.hash))))
    throw badInput(LOGIN_MESSAGES.oldPasswordWrong);
  const hash = await gate.run(() => hashPassword(body.newPwd, config.passwordHashCost));
  const cmd = { entity: 'user', action: 'changePassword', code: u.userCode };
  await runCommand(db, actor, cmd, async (tx, w) => {
    await w.touch(users, eq(users.id, u.userId), { passwordHash: hash, mustChangePassword: false });
    await revokeUserSessions(tx, u.userId);
    await w.audit();
  });
}
