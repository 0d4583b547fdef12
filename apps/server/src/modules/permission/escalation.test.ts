import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@portal/contract/api';
import {
  PERMISSION_MESSAGES as M,
  PERMISSION_PATHS,
  type RoleDetail,
  type RoleView,
  type TemporaryPassword,
  type UserView,
} from '@portal/contract/permission';
import { queryRows } from '../../platform/db/client';
import type { SessionUser } from '../../platform/auth/sessions';
import { removeRole } from './roles';
import { removeUser, resetPassword, setUserStatus } from './users';
import { tableChecksums } from '../../testing/checksum';
import {
  createDept,
  createTestPortal,
  createUserWithCodes,
  type TestClient,
  type TestPortal,
  servedPaths,
} from '../../testing/harness';

/**
 * No escalation (SECURITY.md): a permission manager who is not an administrator grants only codes
 * they hold and scopes no wider than theirs, never configures a role they hold, and creates or
 * moves users only into organisations inside their scope. Each refusal writes nothing.
 */
const permissionApi = servedPaths(PERMISSION_PATHS);
const PASSWORD = 'Manage@12345678';
const MANAGER_CODES = [
  'permission-role',
  'permission-role:add',
  'permission-role:update',
  'permission-role:cfgSave',
  'permission-user',
  'permission-user:add',
  'permission-user:update',
  'ft-bank',
];

let t: TestPortal;
let admin: TestClient;
let manager: TestClient;
let ownRole: RoleDetail;
let rootCode: string;
let jiaCode: string;

async function role(bizCode: string): Promise<RoleDetail> {
  return admin.ok<RoleDetail>(permissionApi.roleGet, undefined, { query: { bizCode } });
}
async function roleByCode(code: string): Promise<RoleView> {
  const page = await admin.ok<Page<RoleView>>(permissionApi.roleList, { code, pageSize: 100 });
  return page.list.find((r) => r.code === code)!;
}

/** The call is refused with this status and message, and no table changed. */
async function refused(call: () => ReturnType<TestClient['call']>, status: number, msg: string | RegExp) {
  const before = await tableChecksums(t.database.db);
  const res = await call();
  expect(res.httpStatus).toBe(status);
  if (typeof msg === 'string') expect(res.msg).toBe(msg);
  else expect(res.msg).toMatch(msg);
  expect(await tableChecksums(t.database.db)).toEqual(before);
}

beforeAll(async () => {
  t = await createTestPortal();
  admin = await t.login();
  const { db } = t.database;
  const jia = await createDept(db, '甲部');
  jiaCode = jia.bizCode;
  rootCode = (await admin.ok<{ deptBizCode: string }[]>(permissionApi.orgTree))[0]!.deptBizCode;
  await createUserWithCodes(db, 'jia-manager', PASSWORD, MANAGER_CODES, {
    deptId: jia.id,
    dataScope: 'dept',
  });
  manager = await t.login('jia-manager', PASSWORD);
  // Saved through cfgSave as the role screen does: the screens above the buttons come with them.
  const made = await roleByCode('jia-manager-role');
  await admin.ok(permissionApi.roleCfgSave, {
    bizCode: made.bizCode,
    version: made.version,
    menuCodes: MANAGER_CODES,
  });
  ownRole = await role(made.bizCode);
});
afterAll(() => t.close());

describe('roles', () => {
  it('cannot configure a role the manager holds: no codes added to their own role', async () => {
    await refused(
      () =>
        manager.call(permissionApi.roleCfgSave, {
          bizCode: ownRole.bizCode,
          version: ownRole.version,
          menuCodes: [...ownRole.menuCodes, 'ft-contract-info'],
        }),
      401,
      M.ownRoleFixed,
    );
    await refused(
      () => manager.call(permissionApi.roleUpdate, { ...ownRole, dataScope: 'all' }),
      401,
      M.ownRoleFixed,
    );
  });

  it('grants only codes the manager holds, and scopes no wider than theirs', async () => {
    const { bizCode } = await manager.ok<{ bizCode: string }>(permissionApi.roleAdd, {
      name: '银行查看',
      code: 'bank-viewer',
      dataScope: 'dept',
    });
    const made = await role(bizCode);
    await refused(
      () =>
        manager.call(permissionApi.roleCfgSave, {
          bizCode,
          version: made.version,
          menuCodes: ['ft-bank', 'ft-contract-info'],
        }),
      401,
      new RegExp(`^${M.grantBeyondOwn}：.*ft-contract-info`),
    );
    // What they hold themselves they may grant.
    await manager.ok(permissionApi.roleCfgSave, { bizCode, version: made.version, menuCodes: ['ft-bank'] });
    expect((await role(bizCode)).menuCodes).toEqual(['ft-bank', 'ft-config']);
    await refused(
      () => manager.call(permissionApi.roleAdd, { name: '全部数据', code: 'wide', dataScope: 'all' }),
      401,
      M.scopeBeyondOwn,
    );
    const now = await role(bizCode);
    await refused(
      () => manager.call(permissionApi.roleUpdate, { ...now, dataScope: 'all' }),
      401,
      M.scopeBeyondOwn,
    );
  });

  it('an administrator stays unrestricted', async () => {
    const wide = await admin.ok<{ bizCode: string }>(permissionApi.roleAdd, {
      name: '全部',
      code: 'all-wide',
      dataScope: 'all',
    });
    await admin.ok(permissionApi.roleCfgSave, {
      bizCode: wide.bizCode,
      version: 0,
      menuCodes: ['ft-contract-info'],
    });
    expect((await role(wide.bizCode)).menuCodes).toEqual(['ft-contract', 'ft-contract-info']);
  });
});

describe('users', () => {
  it('creates users only in organisations inside the manager’s scope, with roles no wider than theirs', async () => {
    const user = (deptCode: string, roleCodes: string[] = []) => ({
      userName: `u${deptCode.slice(-4)}${roleCodes.length}`,
      realName: '新用户',
      deptCode,
      roleCodes,
    });
    await refused(() => manager.call(permissionApi.userAdd, user(rootCode)), 404, '组织不存在');
    const approver = await roleByCode('gm');
    await refused(
      () => manager.call(permissionApi.userAdd, user(jiaCode, [approver.bizCode])),
      401,
      `${M.roleBeyondOwn}：${approver.name}`,
    );
    const bankViewer = await roleByCode('bank-viewer');
    const made = await manager.ok<TemporaryPassword>(
      permissionApi.userAdd,
      user(jiaCode, [bankViewer.bizCode]),
    );
    const view = await manager.ok<UserView>(permissionApi.userGet, undefined, {
      query: { bizCode: made.userCode },
    });
    expect([view.deptCode, view.roles.map((r) => r.code)]).toEqual([jiaCode, [bankViewer.bizCode]]);
    // Moving the user out of the scope, or giving them an approver's role, is refused too.
    await refused(
      () =>
        manager.call(permissionApi.userUpdate, {
          ...view,
          deptCode: rootCode,
          roleCodes: [bankViewer.bizCode],
        }),
      404,
      '组织不存在',
    );
    await refused(
      () =>
        manager.call(permissionApi.userUpdate, {
          ...view,
          deptCode: jiaCode,
          roleCodes: [bankViewer.bizCode, approver.bizCode],
        }),
      401,
      `${M.roleBeyondOwn}：${approver.name}`,
    );
    // A user given a wider role by an administrator is no longer the manager's to change.
    await admin.ok(permissionApi.userUpdate, {
      ...view,
      deptCode: jiaCode,
      roleCodes: [bankViewer.bizCode, approver.bizCode],
    });
    const wider = await manager.ok<UserView>(permissionApi.userGet, undefined, {
      query: { bizCode: made.userCode },
    });
    await refused(
      () =>
        manager.call(permissionApi.userUpdate, {
          ...wider,
          deptCode: jiaCode,
          realName: '改名',
          roleCodes: wider.roles.map((r) => r.code),
        }),
      401,
      M.userWider,
    );
  });

  it('users of organisations outside the scope are missing for the manager', async () => {
    const admins = await admin.ok<Page<UserView>>(permissionApi.userList, { name: 'admin' });
    const adminUser = admins.list.find((u) => u.userName === 'admin')!;
    await refused(
      () => manager.call(permissionApi.userGet, undefined, { query: { bizCode: adminUser.userCode } }),
      404,
      '用户不存在',
    );
  });
});

/**
 * Issue 39: a user manager (scope 本组织及下级 in 甲部, 用户管理 and its buttons only) takes over a
 * colleague of 甲一 (below 甲部) holding the editor and approval roles by resetting their password;
 * a role manager empties a role wider than theirs. Whoever is not an administrator acts only on
 * users and roles granting no code they lack and reaching no organisation beyond their scope.
 */
describe('nobody acts on a user or role wider than themselves', () => {
  // As the role screen saves them: the 权限管理 directory above the screens comes with them.
  const UM_CODES = [
    'permission',
    'permission-user',
    'permission-user:add',
    'permission-user:update',
    'permission-user:status',
    'permission-user:delete',
    'permission-user:resetPassword',
  ];
  const RM_CODES = [
    'permission',
    'permission-role',
    'permission-role:update',
    'permission-role:delete',
    'permission-role:cfgSave',
  ];
  let um: TestClient;
  let rm: TestClient;
  let jia1Code: string;
  let yiCode: string;

  /** A role made and configured by the administrator. */
  async function adminRole(code: string, dataScope: string, menuCodes: string[], deptCodes: string[] = []) {
    const { bizCode } = await admin.ok<{ bizCode: string }>(permissionApi.roleAdd, {
      name: code,
      code,
      dataScope,
      deptCodes,
    });
    await admin.ok(permissionApi.roleCfgSave, { bizCode, version: 0, menuCodes });
    return role(bizCode);
  }
  async function adminUser(userName: string, deptCode: string, roleCodes: string[]): Promise<UserView> {
    const { userCode } = await admin.ok<TemporaryPassword>(permissionApi.userAdd, {
      userName,
      realName: userName,
      deptCode,
      roleCodes,
    });
    return admin.ok<UserView>(permissionApi.userGet, undefined, { query: { bizCode: userCode } });
  }
  /** Every call of the user manager on the user: refused with 401 and the message, nothing written. */
  async function untouchable(target: UserView) {
    const body = { ...target, roleCodes: target.roles.map((r) => r.code) };
    await refused(
      () => um.call(permissionApi.passwordReset, { userCode: target.userCode }),
      401,
      M.userWider,
    );
    for (const state of ['disabled', 'enabled'])
      await refused(
        () =>
          um.call(permissionApi.userStatus, { userCode: target.userCode, version: target.version, state }),
        401,
        M.userWider,
      );
    await refused(
      () => um.call(permissionApi.userRemove, undefined, { query: { bizCode: target.userCode } }),
      401,
      M.userWider,
    );
    await refused(() => um.call(permissionApi.userUpdate, { ...body, realName: '改名' }), 401, M.userWider);
  }

  beforeAll(async () => {
    const { db } = t.database;
    const jia = (
      await admin.ok<{ deptBizCode: string; children: { deptBizCode: string; name: string }[] }[]>(
        permissionApi.orgTree,
      )
    )[0]!.children.find((c) => c.name === '甲部')!;
    const [jiaRow] = await queryRows<{ id: number }>(
      db,
      sql`select id::int as id from depts where biz_code = ${jia.deptBizCode}`,
    );
    const jiaId = jiaRow!.id;
    jia1Code = (await createDept(db, '甲一', jiaId)).bizCode;
    yiCode = (await createDept(db, '乙部')).bizCode;
    await createUserWithCodes(db, 'um', PASSWORD, UM_CODES, { deptId: jiaId, dataScope: 'dept' });
    um = await t.login('um', PASSWORD);
    await createUserWithCodes(db, 'rm', PASSWORD, RM_CODES, { deptId: jiaId, dataScope: 'dept' });
    rm = await t.login('rm', PASSWORD);
  });

  it('refuses a user holding codes the manager lacks: the editor and approval roles (the reported takeover)', async () => {
    const roles = await Promise.all(['biz-manager', 'risk', 'gm'].map(roleByCode));
    const editor = await adminUser(
      'editor1',
      jia1Code,
      roles.map((r) => r.bizCode),
    );
    await untouchable(editor);
    // The administrator still may.
    expect((await admin.call(permissionApi.passwordReset, { userCode: editor.userCode })).status).toBe(200);
  });

  it('refuses a user whose data scope reaches further, whatever its kind; acts on one within', async () => {
    const userCodes = ['permission-user'];
    const wideAll = await adminRole('scope-all', 'all', userCodes);
    const wideUp = await adminRole('scope-dept', 'dept', userCodes);
    const otherOrg = await adminRole('scope-yi', 'custom', userCodes, [yiCode]);
    await untouchable(await adminUser('all-scope', jia1Code, [wideAll.bizCode]));
    await untouchable(await adminUser('chose-yi', jia1Code, [otherOrg.bizCode]));
    const inside = [
      await adminUser('dept-in', jia1Code, [wideUp.bizCode]),
      await adminUser('only-in', jia1Code, [(await adminRole('scope-only', 'deptOnly', userCodes)).bizCode]),
      await adminUser('chose-in', jia1Code, [
        (await adminRole('scope-jia1', 'custom', userCodes, [jia1Code])).bizCode,
      ]),
    ];
    for (const u of inside)
      expect((await um.call(permissionApi.passwordReset, { userCode: u.userCode })).status, u.userName).toBe(
        200,
      );
  });

  it('refuses to change a role granting more than the role manager, and to widen one', async () => {
    const editorRole = await roleByCode('biz-manager');
    const detail = await role(editorRole.bizCode);
    await refused(
      () =>
        rm.call(permissionApi.roleCfgSave, {
          bizCode: detail.bizCode,
          version: detail.version,
          menuCodes: [],
        }),
      401,
      M.roleWider,
    );
    await refused(() => rm.call(permissionApi.roleUpdate, { ...detail, name: '改名' }), 401, M.roleWider);
    await refused(
      () => rm.call(permissionApi.roleRemove, undefined, { query: { bizCode: detail.bizCode } }),
      401,
      M.roleWider,
    );
    const wideScope = await adminRole('rm-all', 'all', ['permission-role']);
    await refused(() => rm.call(permissionApi.roleUpdate, { ...wideScope, name: '改名' }), 401, M.roleWider);
    // A role within may be changed, but not into one reaching another organisation.
    const narrow = await adminRole('rm-narrow', 'self', ['permission-role']);
    await refused(
      () => rm.call(permissionApi.roleUpdate, { ...narrow, dataScope: 'custom', deptCodes: [yiCode] }),
      401,
      M.scopeBeyondOwn,
    );
    await rm.ok(permissionApi.roleUpdate, { ...narrow, dataScope: 'custom', deptCodes: [jia1Code] });
    expect(await role(narrow.bizCode)).toMatchObject({ dataScope: 'custom', deptCodes: [jia1Code] });
    const again = await role(narrow.bizCode);
    await rm.ok(permissionApi.roleUpdate, { ...again, dataScope: 'deptOnly' });
    expect(await role(narrow.bizCode)).toMatchObject({ dataScope: 'deptOnly', deptCodes: [] });
  });

  it('refuses a change that leaves the user wider: a kept 本组织及下级 moved up past a 自定义 manager', async () => {
    const { db } = t.database;
    const [jia1] = await queryRows<{ id: number }>(
      db,
      sql`select id::int as id from depts where biz_code = ${jia1Code}`,
    );
    const a = await createDept(db, '甲一a', jia1!.id);
    await createDept(db, '甲一b', jia1!.id);
    // The manager reaches 甲一 and 甲一a, not 甲一b.
    const { roleId } = await createUserWithCodes(db, 'cm', PASSWORD, UM_CODES, { deptId: jia1!.id });
    await db.execute(sql`update roles set data_scope = 'custom' where id = ${roleId}`);
    await db.execute(sql`insert into role_depts values (${roleId}, ${jia1!.id}), (${roleId}, ${a.id})`);
    const cm = await t.login('cm', PASSWORD);
    const subtree = await adminRole('cm-dept', 'dept', ['permission', 'permission-user']);
    const target = await adminUser('in-a', a.bizCode, [subtree.bizCode]);
    const body = { ...target, roleCodes: [subtree.bizCode] };
    await refused(() => cm.call(permissionApi.userUpdate, { ...body, deptCode: jia1Code }), 401, M.userWider);
    await cm.ok(permissionApi.userUpdate, { ...body, realName: '改名' });
  });

  it('checks again inside the transaction, under the permissions lock (a grant racing the route)', async () => {
    const { db } = t.database;
    const [jia] = await queryRows<{ id: number }>(
      db,
      sql`select dept_id::int as id from users where user_name = 'um'`,
    );
    const acting = {
      user: {
        sessionId: 0,
        userId: 0,
        userCode: '000000000000',
        userName: 'um',
        realName: 'um',
        deptId: jia!.id,
        mustChangePassword: false,
        codes: new Set(UM_CODES),
        dataScope: 'dept',
      } satisfies SessionUser,
      actor: { userId: 0, userName: 'um', requestId: 'test', ip: '127.0.0.1' },
    };
    const editor = await adminUser('raced', jia1Code, [(await roleByCode('gm')).bizCode]);
    const before = await tableChecksums(db);
    for (const call of [
      () => resetPassword(db, t.config.passwordHashCost, { userCode: editor.userCode }, acting),
      () =>
        setUserStatus(db, { userCode: editor.userCode, version: editor.version, state: 'disabled' }, acting),
      () => removeUser(db, editor.userCode, acting),
      async () => removeRole(db, (await roleByCode('gm')).bizCode, acting),
    ])
      await expect(call()).rejects.toMatchObject({ status: 401 });
    expect(await tableChecksums(db)).toEqual(before);
  });
});
