import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_PATHS } from '@portal/contract/session';
import {
  MONITOR_MENUS as M,
  MONITOR_PATHS as P,
  type LoginLogView,
  type OnlineSessionView,
  type OperLogDetail,
  type OperLogView,
} from '@portal/contract/monitor';
import type { Page } from '@portal/contract/api';
import { SYSPARAM_PATHS, type SysParamsView } from '@portal/contract/sysparams';
import { writeAudit } from '../../platform/db/audit';
import { revokeUserSessions } from '../../platform/auth/sessions';
import { auditChanges } from '@portal/contract/audit';
import {
  createDept,
  createTestPortal,
  createUserWithCodes,
  type TestClient,
  type TestPortal,
  served,
} from '../../testing/harness';
import { uploadPdf } from '../../testing/xlsx-upload';

const PW = 'Monitor@12345678';

let t: TestPortal;
let admin: TestClient;

beforeAll(async () => {
  t = await createTestPortal();
  admin = await t.login();
});
afterAll(async () => t?.close());

describe('系统监控 permissions', () => {
  it('answers 401 to a signed-in user without the codes, and to one with the screen but not the button', async () => {
    await createUserWithCodes(t.database.db, 'no-monitor', PW, ['permission-user']);
    const plain = await t.login('no-monitor', PW);
    for (const path of Object.values(P)) {
      const r = await plain.call(served(path), { id: 1, sessionId: 1 });
      expect(r.status, path).toBe(401);
    }
    await createUserWithCodes(t.database.db, 'screens-only', PW, [M.loginLog, M.online]);
    const viewer = await t.login('screens-only', PW);
    expect((await viewer.call(served(P.loginLogList), {})).status).toBe(200);
    expect((await viewer.call(served(P.loginLogUnlock), { userName: 'x', reason: '测试' })).status).toBe(401);
    expect((await viewer.call(served(P.onlineForceLogout), { sessionId: 1 })).status).toBe(401);
  });
});

describe('操作日志', () => {
  it('records IP and request id of a write and filters by user, entity, code and date', async () => {
    const { userId: colleagueId } = await createUserWithCodes(t.database.db, 'oper-colleague', PW, [
      'permission-user',
    ]);
    const colleague = await t.login('oper-colleague', PW);
    await writeAudit(
      t.database.db,
      { userId: Number(colleagueId), userName: 'oper-colleague', requestId: 'req-1', ip: '10.0.0.9' },
      {
        entity: 'bankAccount',
        entityCode: '000000000777',
        action: 'update',
        detail: {
          before: { accountName: '旧户名', bankName: '工商银行', fileToken: 'secret-a' },
          after: { accountName: '新户名', bankName: '工商银行', fileToken: 'secret-b' },
        },
      },
    );
    expect((await colleague.call(served(AUTH_PATHS.logout), {})).status).toBe(200);

    const byUser = await admin.ok<Page<OperLogView>>(served(P.operLogList), { userName: 'oper-colleague' });
    expect(byUser.list.map((r) => r.action).sort()).toEqual(['login', 'logout', 'update']);
    const logout = byUser.list.find((r) => r.action === 'logout')!;
    expect(logout.requestId).toBeTruthy();
    expect(logout.ip).toBeTruthy();
    expect(logout.actionLabel).toBe('退出登录');

    const byEntity = await admin.ok<Page<OperLogView>>(served(P.operLogList), {
      entity: 'bankAccount',
      entityCode: '777',
    });
    expect(byEntity.total).toBe(1);
    expect(byEntity.list[0]).toMatchObject({ entityLabel: '银行账户', actionLabel: '修改', ip: '10.0.0.9' });

    const future = await admin.ok<Page<OperLogView>>(served(P.operLogList), { atStart: '2099-01-01' });
    expect(future.total).toBe(0);
    const past = await admin.ok<Page<OperLogView>>(served(P.operLogList), { atEnd: '2000-01-01' });
    expect(past.total).toBe(0);
    const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
    const now = await admin.ok<Page<OperLogView>>(served(P.operLogList), { atStart: today, atEnd: today });
    expect(now.total).toBeGreaterThanOrEqual(3);

    const detail = await admin.ok<OperLogDetail>(served(P.operLogGet), { id: byEntity.list[0]!.id });
    expect(detail.hasBefore).toBe(true);
    // Only the changed fields, labelled; the file token is never shown.
    expect(detail.changes).toEqual([
      { field: 'accountName', label: '账户名称', before: '旧户名', after: '新户名' },
    ]);
    expect(JSON.stringify(detail)).not.toContain('secret');
  });

  it('names a 附件 row’s file by its name in 单据编号 and in 详情, never by its token', async () => {
    const token = await uploadPdf(admin, '授信批复.pdf');
    const rows = await admin.ok<Page<OperLogView>>(served(P.operLogList), { entity: 'file', pageSize: 100 });
    const row = rows.list.find((r) => r.entityCode === '授信批复.pdf')!;
    expect(row).toMatchObject({ entityLabel: '附件', actionLabel: '上传' });
    expect(JSON.stringify(rows)).not.toContain(token);
    const detail = await admin.ok<OperLogDetail>(served(P.operLogGet), { id: row.id });
    expect(JSON.stringify(detail)).not.toContain(token);
    expect(detail.changes.find((c) => c.field === 'name')?.after).toBe('授信批复.pdf');
  });

  it('shows a 本组织 reader only the rows of their organisation’s users', async () => {
    const dept = await createDept(t.database.db, '监控甲部');
    await createUserWithCodes(t.database.db, 'dept-reader', PW, [M.operLog], {
      deptId: dept.id,
      dataScope: 'dept',
    });
    await createUserWithCodes(t.database.db, 'dept-mate', PW, ['permission-user'], { deptId: dept.id });
    await t.login('dept-mate', PW);
    const reader = await t.login('dept-reader', PW);
    const rows = await reader.ok<Page<OperLogView>>(served(P.operLogList), { pageSize: 500 });
    expect(new Set(rows.list.map((r) => r.userName))).toEqual(new Set(['dept-reader', 'dept-mate']));
    const adminRow = (await admin.ok<Page<OperLogView>>(served(P.operLogList), { userName: 'admin' }))
      .list[0]!;
    const hidden = await reader.call(served(P.operLogGet), { id: adminRow.id });
    expect(hidden.status).toBe(404);
  });
});

describe('登录日志', () => {
  it('records every outcome with the user agent and filters by name, outcome and date', async () => {
    await createUserWithCodes(t.database.db, 'login-colleague', PW, ['permission-user']);
    await t
      .client()
      .call(
        served(AUTH_PATHS.login),
        { userName: 'login-colleague', passWord: 'Wrong@12345678', userType: '2' },
        { headers: { 'user-agent': 'TestBrowser/1.0' } },
      );
    await t
      .client()
      .call(served(AUTH_PATHS.login), { userName: 'nobody-here', passWord: 'Wrong@12345678', userType: '2' });
    await t.database.db.execute(sql`update users set state = 'disabled' where user_name = 'login-colleague'`);
    await t
      .client()
      .call(served(AUTH_PATHS.login), { userName: 'login-colleague', passWord: PW, userType: '2' });
    await t.database.db.execute(sql`update users set state = 'enabled' where user_name = 'login-colleague'`);
    await t.login('login-colleague', PW);

    const mine = await admin.ok<Page<LoginLogView>>(served(P.loginLogList), { userName: 'login-colleague' });
    expect(mine.list.map((r) => r.outcome)).toEqual(['success', 'disabled', 'badPassword']);
    expect(mine.list[2]!.userAgent).toBe('TestBrowser/1.0');
    const unknown = await admin.ok<Page<LoginLogView>>(served(P.loginLogList), { outcome: 'unknownUser' });
    expect(unknown.list.map((r) => r.userName)).toEqual(['nobody-here']);
    const future = await admin.ok<Page<LoginLogView>>(served(P.loginLogList), { atStart: '2099-01-01' });
    expect(future.total).toBe(0);
    expect((await admin.call(served(P.loginLogList), { outcome: 'maybe' })).status).toBe(400);
  });

  it('shows the lock, records refusals while locked, and an audited unlock lets the user in', async () => {
    await createUserWithCodes(t.database.db, 'lock-colleague', PW, ['permission-user']);
    // Ten failures within the window lock the name (the captcha is asked after three: fake them
    // as rows, as auth.test.ts does for the window).
    for (let i = 0; i < 10; i++)
      await t.database.db.execute(
        sql`insert into login_attempts (user_name, success, outcome, ip) values ('lock-colleague', false, 'badPassword', '10.1.1.1')`,
      );
    const refused = await t
      .client()
      .call(served(AUTH_PATHS.login), { userName: 'lock-colleague', passWord: PW, userType: '2' });
    expect(refused.httpStatus).toBe(429);
    const log = await admin.ok<Page<LoginLogView>>(served(P.loginLogList), { userName: 'lock-colleague' });
    expect(log.list[0]!.outcome).toBe('locked');
    expect(log.list[0]!.lockedUntil).toBeTruthy();
    expect(new Date(log.list[0]!.lockedUntil!).getTime()).toBeGreaterThan(Date.now());

    expect(
      (await admin.call(served(P.loginLogUnlock), { userName: 'lock-colleague', reason: '' })).status,
    ).toBe(400);
    const unlocked = await admin.call(served(P.loginLogUnlock), {
      userName: 'LOCK-colleague',
      reason: '本人电话确认',
    });
    expect(unlocked.status, unlocked.msg).toBe(200);
    const again = await admin.call(served(P.loginLogUnlock), {
      userName: 'lock-colleague',
      reason: '本人电话确认',
    });
    expect(again.msg).toBe('该用户名未被锁定');
    const after = await admin.ok<Page<LoginLogView>>(served(P.loginLogList), { userName: 'lock-colleague' });
    expect(after.list.every((r) => r.lockedUntil === null)).toBe(true);
    const audit = await admin.ok<Page<OperLogView>>(served(P.operLogList), { entity: 'loginLock' });
    expect(audit.list[0]).toMatchObject({
      entityCode: 'lock-colleague',
      actionLabel: '解锁',
      userName: 'admin',
    });
    const detail = await admin.ok<OperLogDetail>(served(P.operLogGet), { id: audit.list[0]!.id });
    expect(detail.changes).toContainEqual({
      field: 'reason',
      label: '原因',
      before: null,
      after: '本人电话确认',
    });
    // No captcha either: the cleared failures no longer count.
    await t.login('lock-colleague', PW);
  });
});

describe('在线用户', () => {
  it('lists live sessions, forces one out, and never the caller’s own', async () => {
    await createUserWithCodes(t.database.db, 'online-colleague', PW, ['permission-user']);
    const colleague = await t.login('online-colleague', PW);
    const userList = served('/permission/api/user/list');
    expect((await colleague.call(userList, {})).status).toBe(200);

    const online = await admin.ok<Page<OnlineSessionView>>(served(P.onlineList), {
      userName: 'online-colleague',
    });
    expect(online.total).toBe(1);
    const session = online.list[0]!;
    expect(session).toMatchObject({ realName: 'online-colleague', current: false });
    expect(session.createdAt).toBeTruthy();

    const mine = (await admin.ok<Page<OnlineSessionView>>(served(P.onlineList), { pageSize: 500 })).list.find(
      (s) => s.current,
    )!;
    const self = await admin.call(served(P.onlineForceLogout), { sessionId: mine.sessionId });
    expect(self.status).toBe(400);
    expect(self.msg).toBe('不能强退自己当前的会话');

    expect((await admin.call(served(P.onlineForceLogout), { sessionId: session.sessionId })).status).toBe(
      200,
    );
    // The colleague's next call says why their session ended, not the generic 登录已失效.
    const forced = await colleague.call(userList, {});
    expect(forced.status).toBe(403);
    expect(forced.msg).toBe('您已被管理员强制下线，请重新登录');
    const gone = await admin.ok<Page<OnlineSessionView>>(served(P.onlineList), {
      userName: 'online-colleague',
    });
    expect(gone.total).toBe(0);
    expect((await admin.call(served(P.onlineForceLogout), { sessionId: session.sessionId })).status).toBe(
      404,
    );
    const audit = await admin.ok<Page<OperLogView>>(served(P.operLogList), {
      entity: 'session',
      userName: 'admin',
    });
    expect(audit.list.some((r) => r.action === 'forceLogout')).toBe(true);
  });
});

describe('操作日志 detail', () => {
  it('shows amounts as on the screens, codes and serial numbers as written', () => {
    const loan = auditChanges({
      contBizCode: '000000000123',
      valueDate: '2026-01-15',
      netAmount: '1920000.5',
    });
    expect(loan.changes.map((c) => c.after)).toEqual(['000000000123', '2026-01-15', '1,920,000.50']);
    const change = auditChanges({
      before: { regCapital: '1234567.89', serialNo: '20260115001' },
      after: { regCapital: '-5000', serialNo: '20260115002' },
    });
    expect(change.changes).toMatchObject([
      { field: 'regCapital', before: '1,234,567.89', after: '-5,000.00' },
      { field: 'serialNo', before: '20260115001', after: '20260115002' },
    ]);
    const nested = auditChanges({ lines: [{ principal: '100000', period: 3 }] });
    expect(nested.changes[0]!.after).toContain('100,000.00');
    expect(nested.changes[0]!.after).not.toContain('3.00');
  });
});

describe('a session ended early', () => {
  it('answers its next call with the reason: signed out, forced out, or the account changed', async () => {
    const userList = served('/permission/api/user/list');
    const { userId } = await createUserWithCodes(t.database.db, 'ended-reasons', PW, ['permission-user']);
    const signedOut = await t.login('ended-reasons', PW);
    await signedOut.ok(served(AUTH_PATHS.logout));
    const afterLogout = await signedOut.call(userList, {});
    expect([afterLogout.status, afterLogout.msg]).toEqual([403, '登录已失效，请重新登录']);

    const changed = await t.login('ended-reasons', PW);
    await revokeUserSessions(t.database.db, userId);
    const afterChange = await changed.call(userList, {});
    expect([afterChange.status, afterChange.msg]).toEqual([403, '账号的密码或状态已变更，请重新登录']);

    const stranger = t.client();
    stranger.token = 'not-a-session-token';
    const unknown = await stranger.call(userList, {});
    expect([unknown.status, unknown.msg]).toEqual([403, '登录已失效，请重新登录']);
  });
});

describe('操作日志 result', () => {
  it('records a refused write as a failure (its own write changed nothing) and filters by result', async () => {
    const cfg = (k: keyof typeof SYSPARAM_PATHS) => served(SYSPARAM_PATHS[k]);
    const { params } = await admin.ok<SysParamsView>(cfg('get'));
    const bad = await admin.call(cfg('save'), { ...params, companyName: '' });
    expect(bad.status).toBe(400);
    expect(bad.msg).toContain('公司名称');
    expect((await admin.ok<SysParamsView>(cfg('get'))).params.companyName).toBe(params.companyName);
    await admin.ok(cfg('save'), { ...params, companyName: '结果筛选测试有限公司' });
    // A user without the button is refused (401): a failure too.
    await createUserWithCodes(t.database.db, 'result-plain', PW, []);
    const plain = await t.login('result-plain', PW);
    expect((await plain.call(cfg('save'), params)).status).toBe(401);

    const list = (body: Record<string, unknown>) =>
      admin.ok<Page<OperLogView>>(served(P.operLogList), { pageSize: 100, ...body });
    const failures = await list({ result: 'failure', entity: 'system-config' });
    expect(
      failures.list.map((r) => [r.userName, r.entityLabel, r.actionLabel, r.result, r.resultLabel]),
    ).toEqual([
      ['result-plain', '参数设置', '保存', 'failure', '失败'],
      ['admin', '参数设置', '保存', 'failure', '失败'],
    ]);
    const detail = await admin.ok<OperLogDetail>(served(P.operLogGet), { id: failures.list[1]!.id });
    expect(detail.changes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ label: '状态码', after: '400' }),
        expect.objectContaining({ label: '失败原因', after: bad.msg }),
      ]),
    );
    const successes = await list({ result: 'success', entity: 'sysParams' });
    expect(successes.list.length).toBeGreaterThan(0);
    expect(successes.list.every((r) => r.result === 'success' && r.resultLabel === '成功')).toBe(true);
    expect((await list({ result: 'success' })).list.some((r) => r.result === 'failure')).toBe(false);
    const refused = await admin.call(served(P.operLogList), { result: 'maybe' });
    expect([refused.status, refused.msg]).toEqual([400, '操作结果取值不正确']);
  });
});
