import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_PATHS, LOGIN_MESSAGES } from '@portal/contract/auth';
import { PASSWORD_MESSAGES as M } from '@portal/contract/password';
import { captchas, users } from '../../platform/auth/schema';
import {
  createTestPortal,
  createUserWithCodes,
  TEST_ADMIN_PASSWORD,
  type TestPortal,
} from '../../platform/testing/harness';
import { createHash } from 'node:crypto';

const api = (p: string) => `/api${p}`;
let t: TestPortal;

beforeAll(async () => {
  t = await createTestPortal();
});
afterAll(() => t.close());

const makeUser = (userName: string, password: string, codes: string[]) =>
  createUserWithCodes(t.database.db, userName, password, codes);

function login(userName: string, passWord: string, extra: Record<string, string> = {}) {
  return t.client().call<{ accessToken?: string; needCaptcha?: boolean }>(api(AUTH_PATHS.login), {
    userName,
    passWord,
    userType: '2',
    ...extra,
  });
}

async function captchaFor(): Promise<{ vCodeToken: string; vCode: string }> {
  const { vCodeToken, image } = await t
    .client()
    .ok<{ vCodeToken: string; image: string }>(api(AUTH_PATHS.captcha));
  expect(image).toMatch(/^data:image\/svg\+xml;base64,/);
  const hash = createHash('sha256').update(vCodeToken).digest('base64url');
  const [row] = await t.database.db.select().from(captchas).where(eq(captchas.tokenHash, hash));
  return { vCodeToken, vCode: row!.answer };
}

describe('login (PROTOCOL.md §2)', () => {
  it('logs in with a trimmed user name and answers an opaque token', async () => {
    const r = await login('  admin ', TEST_ADMIN_PASSWORD);
    expect(r.status).toBe(200);
    expect(r.data?.accessToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(r.data?.accessToken?.split('.')).toHaveLength(1);
  });

  it('answers 400 用户名或密码错误 alike for a wrong password and an unknown user', async () => {
    const a = await login('admin', 'wrong-password');
    const b = await login('nobody-here', 'wrong-password');
    expect([a.httpStatus, a.msg]).toEqual([400, LOGIN_MESSAGES.badCredentials]);
    expect([b.httpStatus, b.msg]).toEqual([400, LOGIN_MESSAGES.badCredentials]);
  });

  it('demands a captcha after 3 failures, accepts the right one, refuses a wrong or reused one', async () => {
    await makeUser('cap-user', 'Capuser@12345', ['ft-bank']);
    for (let i = 0; i < 2; i++) expect((await login('cap-user', 'bad')).data).toBeUndefined();
    const third = await login('cap-user', 'bad');
    expect(third.data).toEqual({ needCaptcha: true });
    const noCaptcha = await login('cap-user', 'Capuser@12345');
    expect([noCaptcha.status, noCaptcha.msg, noCaptcha.data]).toEqual([
      400,
      LOGIN_MESSAGES.captchaRequired,
      { needCaptcha: true },
    ]);
    const c1 = await captchaFor();
    const wrong = await login('cap-user', 'Capuser@12345', { vCodeToken: c1.vCodeToken, vCode: 'ZZZZ' });
    expect(wrong.msg).toBe(LOGIN_MESSAGES.captchaWrong);
    const reused = await login('cap-user', 'Capuser@12345', c1);
    expect(reused.msg).toBe(LOGIN_MESSAGES.captchaWrong);
    const c2 = await captchaFor();
    const ok = await login('cap-user', 'Capuser@12345', { ...c2, vCode: c2.vCode.toLowerCase() });
    expect(ok.status).toBe(200);
    // A success resets the captcha requirement.
    expect((await login('cap-user', 'Capuser@12345')).status).toBe(200);
  });

  it('locks the user name after 10 failures in 15 minutes (429), even with the right password', async () => {
    await makeUser('lock-user', 'Lockuser@12345', []);
    for (let i = 0; i < 10; i++) {
      const extra = i >= 3 ? await captchaFor() : {};
      const r = await login('lock-user', 'bad', extra);
      expect(r.status).toBe(400);
    }
    const locked = await login('lock-user', 'Lockuser@12345', await captchaFor());
    expect([locked.httpStatus, locked.msg]).toEqual([429, LOGIN_MESSAGES.locked]);
    // Failures older than the window no longer count.
    await t.database.db.execute(
      sql`update login_attempts set at = at - interval '16 minutes' where user_name = 'lock-user'`,
    );
    expect((await login('lock-user', 'Lockuser@12345', await captchaFor())).status).toBe(200);
  });

  it('refuses a disabled user', async () => {
    const { userId } = await makeUser('off-user', 'Offuser@123456', []);
    await t.database.db.update(users).set({ state: 'disabled' }).where(eq(users.id, userId));
    expect((await login('off-user', 'Offuser@123456')).msg).toBe(LOGIN_MESSAGES.disabled);
  });
});

describe('sessions and permissions', () => {
  it('answers user info, menus and buttons for the session', async () => {
    const c = await t.login();
    const info = await c.ok<{ userName: string; name: string }>(api(AUTH_PATHS.userInfo));
    expect(info).toMatchObject({
      userName: 'admin',
      name: '系统管理员',
      avatar: '',
      mustChangePassword: false,
    });
    expect(await c.ok(api(AUTH_PATHS.menus))).toEqual(['admin']);
    expect((await c.call(api(AUTH_PATHS.menus), undefined, { method: 'GET' })).data).toEqual(['admin']);
  });

  it('gives a user the union of role codes, buttons per menu, and enforces them (403/401)', async () => {
    await makeUser('bank-clerk', 'Bankclerk@1234', ['ft-config', 'ft-bank', 'ft-bank:save']);
    const c = await t.login('bank-clerk', 'Bankclerk@1234');
    expect(await c.ok(api(AUTH_PATHS.menus))).toEqual(['ft-bank', 'ft-config']);
    expect(await c.ok(api(AUTH_PATHS.buttons), { menuCode: 'ft-bank' })).toEqual(['ft-bank:save']);
    const anon = await t.client().call(api(AUTH_PATHS.userInfo));
    expect([anon.httpStatus, anon.status]).toEqual([403, 403]);
  });

  it('logout revokes the token at once', async () => {
    const c = await t.login();
    expect((await c.call(api(AUTH_PATHS.logout))).status).toBe(200);
    expect((await c.call(api(AUTH_PATHS.userInfo))).status).toBe(403);
  });

  it('expires idle sessions and refuses a token in the query string', async () => {
    const c = await t.login();
    await t.database.db.execute(sql`update sessions set last_seen_at = now() - interval '3 hours'`);
    expect((await c.call(api(AUTH_PATHS.userInfo))).status).toBe(403);
    const d = await t.login();
    const viaQuery = await t
      .client()
      .call(api(AUTH_PATHS.userInfo), undefined, { query: { token: d.token!, access_token: d.token! } });
    expect(viaQuery.status).toBe(403);
  });

  it('disabling a user revokes their sessions on the next call', async () => {
    const { userId } = await makeUser('soon-off', 'Soonoff@123456', []);
    const c = await t.login('soon-off', 'Soonoff@123456');
    expect((await c.call(api(AUTH_PATHS.userInfo))).status).toBe(200);
    await t.database.db.update(users).set({ state: 'disabled' }).where(eq(users.id, userId));
    expect((await c.call(api(AUTH_PATHS.userInfo))).status).toBe(403);
  });
});

describe('password change (SPEC §5)', () => {
  it.each([
    [{ pwd: '', newPwd: 'Newpass@12345', reNewPwd: 'Newpass@12345' }, M.oldRequired],
    [{ pwd: 'x', newPwd: '', reNewPwd: '' }, M.newRequired],
    [{ pwd: 'x', newPwd: 'short1!A', reNewPwd: 'short1!A' }, M.pattern],
    [{ pwd: 'Same@12345678', newPwd: 'Same@12345678', reNewPwd: 'Same@12345678' }, M.sameAsOld],
    [{ pwd: 'x', newPwd: 'Newpass@12345', reNewPwd: '' }, M.confirmRequired],
    [{ pwd: 'x', newPwd: 'Newpass@12345', reNewPwd: 'Newpass@12346' }, M.mismatch],
  ])('%o -> 400 %s', async (body, msg) => {
    const c = await t.login();
    const r = await c.call(api(AUTH_PATHS.passwordUpdate), body);
    expect([r.httpStatus, r.msg]).toEqual([400, msg]);
  });

  it('refuses a wrong old password, then changes it and revokes every session', async () => {
    await makeUser('pw-user', 'Pwuser@1234567', []);
    const a = await t.login('pw-user', 'Pwuser@1234567');
    const b = await t.login('pw-user', 'Pwuser@1234567');
    const wrong = await a.call(api(AUTH_PATHS.passwordUpdate), {
      pwd: 'Wrong@1234567',
      newPwd: 'Newpass@12345',
      reNewPwd: 'Newpass@12345',
    });
    expect(wrong.msg).toBe(LOGIN_MESSAGES.oldPasswordWrong);
    const ok = await a.call(api(AUTH_PATHS.passwordUpdate), {
      pwd: 'Pwuser@1234567',
      newPwd: 'Newpass@12345',
      reNewPwd: 'Newpass@12345',
    });
    expect(ok.status).toBe(200);
    expect((await a.call(api(AUTH_PATHS.userInfo))).status).toBe(403);
    expect((await b.call(api(AUTH_PATHS.userInfo))).status).toBe(403);
    expect((await login('pw-user', 'Pwuser@1234567')).status).toBe(400);
    expect((await login('pw-user', 'Newpass@12345')).status).toBe(200);
  });
});
