import { and, desc, eq, sql } from 'drizzle-orm';
import {
  CAPTCHA_AFTER_FAILURES,
  LOCK_AFTER_FAILURES,
  LOCK_WINDOW_MINUTES,
  LOGIN_MESSAGES,
  type LoginResult,
} from '@portal/contract/auth';
import type { PasswordChange } from '@portal/contract/password';
import type { Config } from '../../platform/config';
import { queryRows, type Db } from '../../platform/db/client';
import { writeAudit, type Actor } from '../../platform/db/audit';
import { badInput, tooMany } from '../../platform/errors';
import { depts, loginAttempts, users } from '../../platform/auth/schema';
import { dummyHash, hashPassword, verifyPassword } from '../../platform/auth/password-hash';
import { createSession, revokeUserSessions, type SessionUser } from '../../platform/auth/sessions';
import { consumeCaptcha } from './captcha';

interface FailureCounts {
  inWindow: number;
  sinceSuccess: number;
}

async function failureCounts(db: Db, name: string): Promise<FailureCounts> {
  const [last] = await db
    .select({ at: loginAttempts.at })
    .from(loginAttempts)
    .where(and(eq(loginAttempts.userName, name), eq(loginAttempts.success, true)))
    .orderBy(desc(loginAttempts.at))
    .limit(1);
  const rows = await queryRows<{ in_window: number; since_success: number }>(
    db,
    sql`
    select count(*) filter (where at > now() - make_interval(mins => ${LOCK_WINDOW_MINUTES}))::int as in_window,
           count(*) filter (where ${last ? sql`at > ${last.at}` : sql`true`})::int as since_success
      from login_attempts where user_name = ${name} and success = false`,
  );
  const row = rows[0];
  return { inWindow: row?.in_window ?? 0, sinceSuccess: row?.since_success ?? 0 };
}

async function recordAttempt(db: Db, name: string, success: boolean, ip: string) {
  await db.insert(loginAttempts).values({ userName: name, success, ip });
}

export interface LoginInput {
  userName: string;
  passWord: string;
  vCode?: string | undefined;
  vCodeToken?: string | undefined;
}

/**
 * PROTOCOL.md §2. The answer never says whether the user name exists. After 3 failures a captcha
 * is required; after 10 failures in 15 minutes the name is locked (429) until they age out.
 */
export async function login(
  db: Db,
  config: Config,
  input: LoginInput,
  meta: { ip: string; userAgent?: string },
): Promise<LoginResult> {
  const name = input.userName.trim().toLowerCase();
  const counts = await failureCounts(db, name);
  if (counts.inWindow >= LOCK_AFTER_FAILURES) throw tooMany(LOGIN_MESSAGES.locked);

  const captchaNeeded = counts.sinceSuccess >= CAPTCHA_AFTER_FAILURES;
  if (captchaNeeded) {
    if (!input.vCode || !input.vCodeToken)
      throw badInput(LOGIN_MESSAGES.captchaRequired, { needCaptcha: true });
    if (!(await consumeCaptcha(db, input.vCodeToken, input.vCode))) {
      await recordAttempt(db, name, false, meta.ip);
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
  // Same cost whether or not the user exists: no timing oracle on user names.
  const ok = await verifyPassword(input.passWord, user?.hash ?? (await dummyHash()));
  if (!user || !ok) {
    await recordAttempt(db, name, false, meta.ip);
    const needCaptcha = counts.sinceSuccess + 1 >= CAPTCHA_AFTER_FAILURES;
    throw badInput(LOGIN_MESSAGES.badCredentials, needCaptcha ? { needCaptcha: true } : undefined);
  }
  if (user.state !== 'enabled') throw badInput(LOGIN_MESSAGES.disabled);

  await recordAttempt(db, name, true, meta.ip);
  const accessToken = await createSession(db, user.id, config.sessionAbsoluteMs, meta);
  await writeAudit(
    db,
    { userId: user.id, userName: user.userName },
    { entity: 'session', action: 'login', detail: { ip: meta.ip } },
  );
  return { accessToken, mustChangePassword: user.must };
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

/** Menu codes of the user; `admin` stands for all (SPEC §6). */
export function menuCodes(u: SessionUser): string[] {
  return [...u.codes].filter((c) => !c.includes(':')).sort();
}

export function buttonCodes(u: SessionUser, menuCode: string): string[] {
  if (u.codes.has('admin')) return ['admin'];
  return [...u.codes].filter((c) => c.startsWith(`${menuCode}:`)).sort();
}

/** SPEC §5 on the server; success revokes every session of the user, this one included. */
export async function changePassword(
  db: Db,
  u: SessionUser,
  body: PasswordChange,
  actor: Actor,
): Promise<void> {
  const [row] = await db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, u.userId));
  if (!row || !(await verifyPassword(body.pwd, row.hash))) throw badInput(LOGIN_MESSAGES.oldPasswordWrong);
  const hash = await hashPassword(body.newPwd);
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({
        passwordHash: hash,
        mustChangePassword: false,
        updatedAt: sql`now()`,
        updatedBy: u.userId,
        version: sql`${users.version} + 1`,
      })
      .where(eq(users.id, u.userId));
    await revokeUserSessions(tx, u.userId);
    await writeAudit(tx, actor, { entity: 'user', entityCode: u.userCode, action: 'changePassword' });
  });
}
