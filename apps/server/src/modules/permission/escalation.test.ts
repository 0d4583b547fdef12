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
    // A user already holding a wider role keeps it when the manager edits something else.
    await admin.ok(permissionApi.userUpdate, {
      ...view,
      deptCode: jiaCode,
      roleCodes: [bankViewer.bizCode, approver.bizCode],
    });
    const wider = await manager.ok<UserView>(permissionApi.userGet, undefined, {
      query: { bizCode: made.userCode },
    });
    await manager.ok(permissionApi.userUpdate, {
      ...wider,
      deptCode: jiaCode,
      realName: '改名',
      roleCodes: wider.roles.map((r) => r.code),
    });
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
