import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@portal/contract/api';
import {
  PERMISSION_MESSAGES as M,
  PERMISSION_PATHS,
  type DictItem,
  type MenuTreeNode,
  type OrgNode,
  type OrgView,
  type RoleDetail,
  type RoleView,
  type TemporaryPassword,
  type UserTreeNode,
  type UserView,
} from '@portal/contract/permission';
import { isStrongPassword } from '@portal/contract/password';
import { auditLog } from '../../platform/db/audit';
import { users } from '../../platform/auth/schema';
import {
  createTestPortal,
  onPostgres,
  type TestClient,
  type TestPortal,
  servedPaths,
} from '../../testing/harness';

const permissionApi = servedPaths(PERMISSION_PATHS);
const LOGIN = '/api/admin/portal/api/login/user/mobileNumberLogin';
const PASSWORD_UPDATE = '/api/admin/portal/user/password/update';
const BANK_LIST = '/api/ft/api/bank/list';
const CONTRACT_LIST = '/api/ft/api/contract/list';
const CREDIT_LIST = '/api/ft/api/credit/creditList';

let t: TestPortal;
let admin: TestClient;
let rootCode: string;

beforeAll(async () => {
  t = await createTestPortal();
  admin = await t.login();
  const tree = await admin.ok<OrgNode[]>(permissionApi.orgTree);
  rootCode = tree[0]!.deptBizCode;
});
afterAll(() => t.close());

const find = (nodes: OrgNode[], code: string): OrgNode | undefined => {
  for (const n of nodes) {
    if (n.deptBizCode === code) return n;
    const c = find(n.children, code);
    if (c) return c;
  }
  return undefined;
};

async function addOrg(name: string, parentCode = rootCode): Promise<string> {
  return (await admin.ok<{ deptBizCode: string }>(permissionApi.orgAdd, { name, parentCode })).deptBizCode;
}
async function org(code: string): Promise<OrgView> {
  return admin.ok<OrgView>(permissionApi.orgGet, undefined, { query: { bizCode: code } });
}
async function addRole(
  name: string,
  code: string,
  codes: string[] = [],
  dataScope = 'all',
): Promise<RoleDetail> {
  const { bizCode } = await admin.ok<{ bizCode: string }>(permissionApi.roleAdd, { name, code, dataScope });
  if (codes.length > 0) await admin.ok(permissionApi.roleCfgSave, { bizCode, version: 0, menuCodes: codes });
  return role(bizCode);
}
async function role(code: string): Promise<RoleDetail> {
  return admin.ok<RoleDetail>(permissionApi.roleGet, undefined, { query: { bizCode: code } });
}
async function addUser(
  userName: string,
  deptCode: string,
  roleCodes: string[] = [],
): Promise<TemporaryPassword> {
  return admin.ok<TemporaryPassword>(permissionApi.userAdd, {
    userName,
    realName: `${userName}姓名`,
    deptCode,
    roleCodes,
  });
}
async function user(code: string, by: TestClient = admin): Promise<UserView> {
  return by.ok<UserView>(permissionApi.userGet, undefined, { query: { bizCode: code } });
}
/** Logs in with the temporary password and changes it, as the password dialog does. */
async function activate(userName: string, temp: string, password = 'Newpass@12345'): Promise<TestClient> {
  const first = await t.login(userName, temp);
  await first.ok(PASSWORD_UPDATE, { pwd: temp, newPwd: password, reNewPwd: password });
  return t.login(userName, password);
}
async function audits(entity: string, code: string): Promise<string[]> {
  const rows = await t.database.db
    .select({ action: auditLog.action })
    .from(auditLog)
    .where(and(eq(auditLog.entity, entity), eq(auditLog.entityCode, code)))
    // In the order written: PostgreSQL returns a table's rows in no promised order.
    .orderBy(asc(auditLog.id));
  return rows.map((r) => r.action);
}

describe('organisations', () => {
  it('adds, reads and lists a tree; bad input names the field', async () => {
    const east = await addOrg('华东');
    const sh = await admin.ok<{ deptBizCode: string }>(permissionApi.orgAdd, {
      name: ' 上海 ',
      parentCode: east,
      sort: 2,
      leader: '张三',
      phone: '021-12345678',
    });
    expect(sh.deptBizCode).toMatch(/^\d{12}$/);
    expect(await org(sh.deptBizCode)).toMatchObject({
      name: '上海',
      parentCode: east,
      parentName: '华东',
      sort: 2,
      leader: '张三',
      phone: '021-12345678',
      state: 'enabled',
      userCount: 0,
      version: 0,
    });
    const tree = await admin.ok<OrgNode[]>(permissionApi.orgTree);
    expect(find(tree, east)!.children.map((c) => c.name)).toEqual(['上海']);
    expect([(await admin.call(permissionApi.orgAdd, { parentCode: east })).msg]).toEqual([
      '组织名称不能为空',
    ]);
    const badParent = await admin.call(permissionApi.orgAdd, { name: 'x', parentCode: '000000999999' });
    expect([badParent.status, badParent.msg]).toEqual([400, M.orgParentMissing]);
    expect((await admin.call(permissionApi.orgAdd, { name: 'x', phone: 'abc' })).msg).toBe(
      '联系电话格式不正确',
    );
    expect(
      (await admin.call(permissionApi.orgGet, undefined, { query: { bizCode: '000000999999' } })).status,
    ).toBe(404);
    expect(await audits('dept', east)).toEqual(['add']);
  });

  it('moves a node but never under itself or below it (409), and refuses a stale version', async () => {
    const a = await addOrg('甲');
    const b = await addOrg('乙', a);
    const c = await addOrg('丙', b);
    const va = await org(a);
    for (const parentCode of [a, b, c]) {
      const res = await admin.call(permissionApi.orgUpdate, {
        deptBizCode: a,
        version: va.version,
        name: '甲',
        parentCode,
      });
      expect([res.httpStatus, res.msg]).toEqual([409, M.orgCycle]);
    }
    // Moving the leaf to the top and renaming works; the version moves on.
    await admin.ok(permissionApi.orgUpdate, {
      deptBizCode: c,
      version: 0,
      name: '丙二',
      parentCode: rootCode,
      sort: 5,
    });
    expect(await org(c)).toMatchObject({ name: '丙二', parentCode: rootCode, sort: 5, version: 1 });
    // Now 甲 may go under 丙二.
    await admin.ok(permissionApi.orgUpdate, {
      deptBizCode: a,
      version: va.version,
      name: '甲',
      parentCode: c,
    });
    const stale = await admin.call(permissionApi.orgUpdate, {
      deptBizCode: a,
      version: va.version,
      name: '甲x',
    });
    expect([stale.status, stale.msg]).toEqual([409, '数据已被他人修改，请刷新后重试']);
    expect((await org(a)).name).toBe('甲');
    expect(await audits('dept', a)).toEqual(['add', 'update']);
  });

  it('removes only an empty node: children or users answer 409', async () => {
    const parent = await addOrg('待删上级');
    const child = await addOrg('待删下级', parent);
    const kids = await admin.call(permissionApi.orgRemove, undefined, { query: { bizCode: parent } });
    expect([kids.httpStatus, kids.msg]).toEqual([409, M.orgHasChildren]);
    const u = await addUser('orguser', child);
    const busy = await admin.call(permissionApi.orgRemove, undefined, { query: { bizCode: child } });
    expect([busy.httpStatus, busy.msg]).toEqual([409, `${M.orgHasUsers}（1个）`]);
    expect((await org(child)).userCount).toBe(1);
    await admin.ok(permissionApi.userRemove, undefined, { query: { bizCode: u.userCode } });
    await admin.ok(permissionApi.orgRemove, undefined, { query: { bizCode: child } });
    await admin.ok(permissionApi.orgRemove, undefined, { query: { bizCode: parent } });
    expect(find(await admin.ok<OrgNode[]>(permissionApi.orgTree), parent)).toBeUndefined();
    expect((await admin.call(permissionApi.orgGet, undefined, { query: { bizCode: parent } })).status).toBe(
      404,
    );
    expect(await audits('dept', parent)).toEqual(['add', 'remove']);
  });
  it.skipIf(!onPostgres)('two concurrent moves never make a cycle', async () => {
    for (let i = 0; i < 5; i++) {
      const a = await addOrg(`并发甲${i}`);
      const b = await addOrg(`并发乙${i}`);
      const res = await Promise.all([
        admin.call(permissionApi.orgUpdate, {
          deptBizCode: a,
          version: 0,
          name: `并发甲${i}`,
          parentCode: b,
        }),
        admin.call(permissionApi.orgUpdate, {
          deptBizCode: b,
          version: 0,
          name: `并发乙${i}`,
          parentCode: a,
        }),
      ]);
      expect(res.map((r) => r.status).sort()).toEqual([200, 409]);
      const [va, vb] = [await org(a), await org(b)];
      expect(va.parentCode === b && vb.parentCode === a).toBe(false);
    }
  });
});

describe('roles', () => {
  it('adds, lists, reads, updates and refuses a duplicate code', async () => {
    const r = await addRole('出纳', 'cashier', [], 'dept');
    expect(r).toMatchObject({
      name: '出纳',
      code: 'cashier',
      dataScope: 'dept',
      state: 'enabled',
      builtIn: false,
      menuCodes: [],
    });
    const dup = await admin.call(permissionApi.roleAdd, { name: '出纳2', code: 'CASHIER' });
    expect([dup.status, dup.msg]).toEqual([409, M.roleCodeTaken]);
    expect((await admin.call(permissionApi.roleAdd, { name: '坏', code: '1x' })).status).toBe(400);
    expect((await admin.call(permissionApi.roleAdd, { code: 'abc' })).msg).toBe('角色名称不能为空');
    expect((await admin.call(permissionApi.roleAdd, { name: 'x', code: 'abc', dataScope: 'mine' })).msg).toBe(
      '数据范围取值不正确',
    );
    const list = await admin.ok<Page<RoleView>>(permissionApi.roleList, {
      name: '出',
      pageNum: 1,
      pageSize: 10,
    });
    expect(list.list.map((x) => x.code)).toEqual(['cashier']);
    const all = await admin.ok<Page<RoleView>>(permissionApi.roleList, {});
    expect(all.list[0]).toMatchObject({ code: 'admin', builtIn: true, userCount: 1 });
    await admin.ok(permissionApi.roleUpdate, {
      bizCode: r.bizCode,
      version: r.version,
      name: '出纳员',
      code: 'cashier',
      dataScope: 'self',
      description: '管钱',
    });
    expect(await role(r.bizCode)).toMatchObject({
      name: '出纳员',
      dataScope: 'self',
      description: '管钱',
      version: r.version + 1,
    });
    const stale = await admin.call(permissionApi.roleUpdate, {
      bizCode: r.bizCode,
      version: r.version,
      name: 'x',
      code: 'cashier',
    });
    expect(stale.status).toBe(409);
    // 自定义 names its organisations; the other scopes keep none.
    const custom = {
      bizCode: r.bizCode,
      version: r.version + 1,
      name: '出纳员',
      code: 'cashier',
      dataScope: 'custom',
    };
    const none = await admin.call(permissionApi.roleUpdate, custom);
    expect([none.status, none.msg]).toEqual([400, M.customDeptsMissing]);
    const unknown = await admin.call(permissionApi.roleUpdate, { ...custom, deptCodes: ['000000999999'] });
    expect([unknown.status, unknown.msg]).toEqual([400, M.scopeDeptMissing]);
    const [rootOrg] = await admin.ok<{ deptBizCode: string }[]>(permissionApi.orgTree);
    await admin.ok(permissionApi.roleUpdate, { ...custom, deptCodes: [rootOrg!.deptBizCode] });
    expect(await role(r.bizCode)).toMatchObject({ dataScope: 'custom', deptCodes: [rootOrg!.deptBizCode] });
    await admin.ok(permissionApi.roleUpdate, {
      ...custom,
      version: r.version + 2,
      dataScope: 'deptOnly',
      deptCodes: [rootOrg!.deptBizCode],
    });
    expect(await role(r.bizCode)).toMatchObject({ dataScope: 'deptOnly', deptCodes: [] });
    expect(
      (await admin.call(permissionApi.roleGet, undefined, { query: { bizCode: '000000999999' } })).status,
    ).toBe(404);
    expect(await audits('role', r.bizCode)).toEqual(['add', 'update', 'update', 'update']);
  });

  it('menuTree is the catalogue: menus with their buttons', async () => {
    const tree = await admin.ok<MenuTreeNode[]>(permissionApi.roleMenuTree);
    const perm = tree.find((n) => n.code === 'permission')!;
    const roleNode = perm.children!.find((n) => n.code === 'permission-role')!;
    expect(roleNode).toMatchObject({ title: '角色管理', kind: 'menu' });
    expect(roleNode.children!.map((b) => [b.code, b.kind])).toContainEqual([
      'permission-role:cfgSave',
      'button',
    ]);
  });

  it('cfgSave stores the codes with their ancestors, refuses unknown codes and stale versions', async () => {
    const r = await addRole('审核员', 'auditor');
    const saved = await admin.ok<{ menuCodes: string[] }>(permissionApi.roleCfgSave, {
      bizCode: r.bizCode,
      version: r.version,
      menuCodes: ['permission-user:add'],
    });
    expect(saved.menuCodes).toEqual(['permission', 'permission-user', 'permission-user:add']);
    expect((await role(r.bizCode)).menuCodes).toEqual(saved.menuCodes);
    const unknown = await admin.call(permissionApi.roleCfgSave, {
      bizCode: r.bizCode,
      version: r.version + 1,
      menuCodes: ['nope'],
    });
    expect([unknown.status, unknown.msg]).toEqual([400, `${M.menuCodeUnknown}：nope`]);
    const admin1 = await admin.call(permissionApi.roleCfgSave, {
      bizCode: r.bizCode,
      version: r.version + 1,
      menuCodes: ['admin'],
    });
    expect(admin1.status).toBe(400);
    const stale = await admin.call(permissionApi.roleCfgSave, {
      bizCode: r.bizCode,
      version: r.version,
      menuCodes: [],
    });
    expect(stale.status).toBe(409);
    expect((await role(r.bizCode)).menuCodes).toEqual(saved.menuCodes);
    await admin.ok(permissionApi.roleCfgSave, { bizCode: r.bizCode, version: r.version + 1, menuCodes: [] });
    expect((await role(r.bizCode)).menuCodes).toEqual([]);
    expect(await audits('role', r.bizCode)).toEqual(['add', 'cfgSave', 'cfgSave']);
  });

  it('protects the built-in administrator role', async () => {
    const list = await admin.ok<Page<RoleView>>(permissionApi.roleList, { code: 'admin' });
    const a = await role(list.list.find((x) => x.code === 'admin')!.bizCode);
    expect(a.menuCodes).toEqual(['admin']);
    for (const change of [{ state: 'disabled' }, { code: 'root' }, { dataScope: 'self' }]) {
      const res = await admin.call(permissionApi.roleUpdate, {
        bizCode: a.bizCode,
        version: a.version,
        name: a.name,
        code: 'admin',
        ...change,
      });
      expect([res.status, res.msg]).toEqual([409, M.adminRoleFixed]);
    }
    const cfg = await admin.call(permissionApi.roleCfgSave, {
      bizCode: a.bizCode,
      version: a.version,
      menuCodes: [],
    });
    expect([cfg.status, cfg.msg]).toEqual([409, M.adminRoleFixed]);
    const rm = await admin.call(permissionApi.roleRemove, undefined, { query: { bizCode: a.bizCode } });
    expect([rm.status, rm.msg]).toEqual([409, M.adminRoleRemove]);
    // Its name and description may change.
    await admin.ok(permissionApi.roleUpdate, {
      bizCode: a.bizCode,
      version: a.version,
      name: '系统管理员',
      code: 'admin',
      description: '全部权限',
    });
    expect((await role(a.bizCode)).menuCodes).toEqual(['admin']);
  });

  it('removes an unused role; one held by a user answers 409', async () => {
    const r = await addRole('临时', 'temp-role');
    const u = await addUser('tempuser', rootCode, [r.bizCode]);
    const busy = await admin.call(permissionApi.roleRemove, undefined, { query: { bizCode: r.bizCode } });
    expect([busy.status, busy.msg]).toEqual([409, `${M.roleInUse}（1个用户）`]);
    await admin.ok(permissionApi.userRemove, undefined, { query: { bizCode: u.userCode } });
    await admin.ok(permissionApi.roleRemove, undefined, { query: { bizCode: r.bizCode } });
    expect(
      (await admin.call(permissionApi.roleGet, undefined, { query: { bizCode: r.bizCode } })).status,
    ).toBe(404);
    expect((await admin.ok<DictItem[]>(permissionApi.roleDict)).map((d) => d.code)).not.toContain(r.bizCode);
    // The code is free again.
    await admin.ok(permissionApi.roleAdd, { name: '临时', code: 'temp-role' });
  });

  it('dict and userTree serve other screens', async () => {
    const dict = await admin.ok<DictItem[]>(permissionApi.roleDict);
    expect(dict[0]).toEqual({ code: expect.stringMatching(/^\d{12}$/), label: '系统管理员' });
    const tree = await admin.ok<UserTreeNode[]>(permissionApi.roleUserTree);
    expect(tree[0]).toMatchObject({ type: 'dept', code: rootCode, key: `dept:${rootCode}` });
    expect(tree[0]!.children!.some((n) => n.type === 'user' && n.title === '系统管理员（admin）')).toBe(true);
  });
});

describe('users', () => {
  it('adds a user with a temporary password that must be changed at first login', async () => {
    const r = await addRole('查看用户', 'user-viewer', ['permission-user']);
    const res = await admin.ok<TemporaryPassword>(permissionApi.userAdd, {
      userName: '  Zhang.San ',
      realName: '张三',
      phone: '13800000000',
      email: 'zs@example.com',
      deptCode: rootCode,
      roleCodes: [r.bizCode],
    });
    expect(isStrongPassword(res.password)).toBe(true);
    expect(await user(res.userCode)).toMatchObject({
      userName: 'Zhang.San',
      realName: '张三',
      phone: '13800000000',
      email: 'zs@example.com',
      deptCode: rootCode,
      deptName: '总部',
      roles: [{ code: r.bizCode, label: '查看用户' }],
      state: 'enabled',
      mustChangePassword: true,
    });
    const login = await t.client().ok<{ mustChangePassword: boolean }>(LOGIN, {
      userName: 'zhang.san',
      passWord: res.password,
      userType: '2',
    });
    expect(login.mustChangePassword).toBe(true);
    const dup = await admin.call(permissionApi.userAdd, {
      userName: 'ZHANG.SAN',
      realName: 'x',
      deptCode: rootCode,
    });
    expect([dup.status, dup.msg]).toEqual([409, M.userNameTaken]);
    const noDept = await admin.call(permissionApi.userAdd, {
      userName: 'nodept',
      realName: 'x',
      deptCode: '000000999999',
    });
    expect([noDept.status, noDept.msg]).toEqual([400, M.orgMissing]);
    const noRole = await admin.call(permissionApi.userAdd, {
      userName: 'norole',
      realName: 'x',
      deptCode: rootCode,
      roleCodes: ['000000999999'],
    });
    expect([noRole.status, noRole.msg]).toEqual([400, M.roleMissing]);
    expect(
      (await admin.call(permissionApi.userAdd, { userName: 'a b', realName: 'x', deptCode: rootCode }))
        .status,
    ).toBe(400);
    expect(
      (
        await admin.call(permissionApi.userAdd, {
          userName: 'okname',
          realName: 'x',
          deptCode: rootCode,
          email: 'bad',
        })
      ).msg,
    ).toBe('邮箱格式不正确');
    expect((await admin.call(permissionApi.userAdd, { userName: 'okname', realName: 'x' })).msg).toBe(
      '所属组织不能为空',
    );
    expect(await audits('user', res.userCode)).toEqual(['add']);
  });

  it('lists by organisation (with sub-organisations), name and state, with paging', async () => {
    const north = await addOrg('华北区');
    const bj = await addOrg('北京', north);
    await addUser('north1', north);
    await addUser('bj1', bj);
    const bj2 = await addUser('bj2', bj);
    await admin.ok(permissionApi.userStatus, { userCode: bj2.userCode, version: 0, state: 'disabled' });
    const byDept = await admin.ok<Page<UserView>>(permissionApi.userList, { deptCode: north, pageSize: 2 });
    expect([byDept.total, byDept.list.length]).toEqual([3, 2]);
    const second = await admin.ok<Page<UserView>>(permissionApi.userList, {
      deptCode: north,
      pageSize: 2,
      pageNum: 2,
    });
    expect(second.list.map((u) => u.userName)).toEqual(['bj2']);
    expect((await admin.ok<Page<UserView>>(permissionApi.userList, { deptCode: bj })).total).toBe(2);
    const named = await admin.ok<Page<UserView>>(permissionApi.userList, { name: 'BJ' });
    expect(named.list.map((u) => u.userName)).toEqual(['bj1', 'bj2']);
    const byRealName = await admin.ok<Page<UserView>>(permissionApi.userList, { name: 'north1姓' });
    expect(byRealName.list.map((u) => u.userName)).toEqual(['north1']);
    const disabled = await admin.ok<Page<UserView>>(permissionApi.userList, {
      deptCode: north,
      state: 'disabled',
    });
    expect(disabled.list.map((u) => u.userName)).toEqual(['bj2']);
    const sorted = await admin.ok<Page<UserView>>(permissionApi.userList, {
      deptCode: north,
      orderBy: 'userName',
      order: 'desc',
    });
    expect(sorted.list.map((u) => u.userName)).toEqual(['north1', 'bj2', 'bj1']);
    expect((await admin.call(permissionApi.userList, { orderBy: 'password' })).msg).toBe(
      '排序字段取值不正确',
    );
    expect((await admin.ok<Page<UserView>>(permissionApi.userList, { deptCode: '000000999999' })).total).toBe(
      0,
    );
  });

  it('updates fields and roles; a stale version changes nothing', async () => {
    const r1 = await addRole('角色甲', 'role-a');
    const r2 = await addRole('角色乙', 'role-b');
    const u = await addUser('editme', rootCode, [r1.bizCode]);
    const v = await user(u.userCode);
    await admin.ok(permissionApi.userUpdate, {
      userCode: u.userCode,
      version: v.version,
      userName: 'edited',
      realName: '改名',
      deptCode: rootCode,
      roleCodes: [r2.bizCode, r1.bizCode],
    });
    const after = await user(u.userCode);
    expect(after).toMatchObject({ userName: 'edited', realName: '改名', version: v.version + 1 });
    expect(after.roles.map((r) => r.code)).toEqual([r1.bizCode, r2.bizCode]);
    const stale = await admin.call(permissionApi.userUpdate, {
      userCode: u.userCode,
      version: v.version,
      userName: 'x1',
      realName: 'x',
      deptCode: rootCode,
    });
    expect(stale.status).toBe(409);
    expect((await user(u.userCode)).userName).toBe('edited');
    const taken = await admin.call(permissionApi.userUpdate, { ...after, roleCodes: [], userName: 'Admin' });
    expect([taken.status, taken.msg]).toEqual([409, M.userNameTaken]);
    expect(await audits('user', u.userCode)).toEqual(['add', 'update']);
  });

  it('disabling revokes sessions at once; enabling lets the user back in', async () => {
    const u = await addUser('switcher', rootCode);
    const c = await activate('switcher', u.password);
    expect((await c.call('/api/admin/portal/user/info')).status).toBe(200);
    const v = await user(u.userCode);
    await admin.ok(permissionApi.userStatus, { userCode: u.userCode, version: v.version, state: 'disabled' });
    expect((await c.call('/api/admin/portal/user/info')).status).toBe(403);
    const denied = await t
      .client()
      .call(LOGIN, { userName: 'switcher', passWord: 'Newpass@12345', userType: '2' });
    expect(denied.status).toBe(400);
    await admin.ok(permissionApi.userStatus, {
      userCode: u.userCode,
      version: v.version + 1,
      state: 'enabled',
    });
    expect(
      (await (await t.login('switcher', 'Newpass@12345')).call('/api/admin/portal/user/info')).status,
    ).toBe(200);
    expect(
      (await admin.call(permissionApi.userStatus, { userCode: u.userCode, version: 0, state: 'off' })).msg,
    ).toBe('状态取值不正确');
    expect(await audits('user', u.userCode)).toEqual(['add', 'changePassword', 'disable', 'enable']);
  });

  it('an administrator cannot disable or remove themself', async () => {
    const me = (await admin.ok<Page<UserView>>(permissionApi.userList, { name: 'admin' })).list.find(
      (u) => u.userName === 'admin',
    )!;
    const off = await admin.call(permissionApi.userStatus, {
      userCode: me.userCode,
      version: me.version,
      state: 'disabled',
    });
    expect([off.httpStatus, off.msg]).toEqual([409, M.selfDisable]);
    const viaUpdate = await admin.call(permissionApi.userUpdate, {
      ...me,
      roleCodes: me.roles.map((r) => r.code),
      deptCode: me.deptCode,
      state: 'disabled',
    });
    expect([viaUpdate.httpStatus, viaUpdate.msg]).toEqual([409, M.selfDisable]);
    const rm = await admin.call(permissionApi.userRemove, undefined, { query: { bizCode: me.userCode } });
    expect([rm.httpStatus, rm.msg]).toEqual([409, M.selfRemove]);
    const reset = await admin.call(permissionApi.passwordReset, { userCode: me.userCode });
    expect([reset.httpStatus, reset.msg]).toEqual([409, M.selfReset]);
    expect((await admin.call('/api/admin/portal/user/info')).status).toBe(200);
  });

  it('the last active administrator is protected; only administrators touch administrators', async () => {
    const adminRole = (await admin.ok<Page<RoleView>>(permissionApi.roleList, { code: 'admin' })).list.find(
      (r) => r.builtIn,
    )!;
    const me = (await admin.ok<Page<UserView>>(permissionApi.userList, { name: 'admin' })).list.find(
      (u) => u.userName === 'admin',
    )!;
    // The only administrator cannot drop their own administrator role.
    const drop = await admin.call(permissionApi.userUpdate, { ...me, deptCode: me.deptCode, roleCodes: [] });
    expect([drop.httpStatus, drop.msg]).toEqual([409, M.lastAdmin]);
    expect((await user(me.userCode)).roles.map((r) => r.code)).toEqual([adminRole.bizCode]);
    // With a second administrator it works, and then that one is the last.
    const second = await addUser('admin2', rootCode, [adminRole.bizCode]);
    const admin2 = await activate('admin2', second.password);
    // A user manager without the admin code may not grant, disable, remove or reset administrators.
    const manager = await addRole('用户管理员', 'user-admin', [
      'permission-user',
      'permission-user:add',
      'permission-user:update',
      'permission-user:status',
      'permission-user:delete',
      'permission-user:resetPassword',
    ]);
    const m = await addUser('manager', rootCode, [manager.bizCode]);
    const mc = await activate('manager', m.password);
    const grant = await mc.call(permissionApi.userAdd, {
      userName: 'sneaky',
      realName: 'x',
      deptCode: rootCode,
      roleCodes: [adminRole.bizCode],
    });
    expect(grant.status).toBe(401);
    const a2v = await user(second.userCode);
    expect(
      (
        await mc.call(permissionApi.userStatus, {
          userCode: second.userCode,
          version: a2v.version,
          state: 'disabled',
        })
      ).status,
    ).toBe(401);
    expect((await mc.call(permissionApi.passwordReset, { userCode: second.userCode })).status).toBe(401);
    expect(
      (await mc.call(permissionApi.userRemove, undefined, { query: { bizCode: second.userCode } })).status,
    ).toBe(401);
    // ...nor change their own roles.
    const self = await user(m.userCode);
    const widen = await mc.call(permissionApi.userUpdate, {
      ...self,
      deptCode: self.deptCode,
      roleCodes: [manager.bizCode, adminRole.bizCode],
    });
    expect(widen.status).toBe(401);
    const other = await addRole('其他角色', 'other-role', ['permission-role']);
    const widen2 = await mc.call(permissionApi.userUpdate, {
      ...self,
      deptCode: self.deptCode,
      roleCodes: [manager.bizCode, other.bizCode],
    });
    expect([widen2.status, widen2.msg]).toEqual([401, '不能修改自己的角色']);
    await mc.ok(permissionApi.userUpdate, {
      ...self,
      deptCode: self.deptCode,
      roleCodes: [manager.bizCode],
      realName: '经理',
    });
    // ...but ordinary users are theirs to manage.
    const plain = await mc.ok<TemporaryPassword>(permissionApi.userAdd, {
      userName: 'plain',
      realName: '普通',
      deptCode: rootCode,
    });
    await mc.ok(permissionApi.userStatus, { userCode: plain.userCode, version: 0, state: 'disabled' });
    const meNow = await user(me.userCode);
    await admin.ok(permissionApi.userUpdate, { ...meNow, deptCode: meNow.deptCode, roleCodes: [] });
    const a2 = await user(second.userCode, admin2);
    const last = await admin2.call(permissionApi.userUpdate, { ...a2, deptCode: a2.deptCode, roleCodes: [] });
    expect([last.httpStatus, last.msg]).toEqual([409, M.lastAdmin]);
    // Restore: admin2 gives admin back the role.
    const meAgain = await user(me.userCode, admin2);
    await admin2.ok(permissionApi.userUpdate, {
      ...meAgain,
      deptCode: meAgain.deptCode,
      roleCodes: [adminRole.bizCode],
    });
    expect((await admin.call(permissionApi.roleList, {})).status).toBe(200);
    // admin2 may now be disabled by admin; admin stays the last one.
    const a2again = await user(second.userCode);
    await admin.ok(permissionApi.userStatus, {
      userCode: second.userCode,
      version: a2again.version,
      state: 'disabled',
    });
    expect((await admin2.call('/api/admin/portal/user/info')).status).toBe(403);
  });

  it('removal is soft: the user cannot log in, history stays, the name is free again', async () => {
    const u = await addUser('leaver', rootCode);
    const c = await activate('leaver', u.password);
    await admin.ok(permissionApi.userRemove, undefined, { query: { bizCode: u.userCode } });
    expect((await c.call('/api/admin/portal/user/info')).status).toBe(403);
    expect(
      (await t.client().call(LOGIN, { userName: 'leaver', passWord: 'Newpass@12345', userType: '2' })).status,
    ).toBe(400);
    expect(
      (await admin.call(permissionApi.userGet, undefined, { query: { bizCode: u.userCode } })).status,
    ).toBe(404);
    const [row] = await t.database.db.select().from(users).where(eq(users.userCode, u.userCode));
    expect(row!.deletedAt).not.toBeNull();
    expect(await audits('user', u.userCode)).toEqual(['add', 'changePassword', 'remove']);
    const again = await addUser('leaver', rootCode);
    expect(again.userCode).not.toBe(u.userCode);
    expect((await admin.ok<DictItem[]>(permissionApi.userDict)).map((d) => d.code)).toContain(again.userCode);
    expect((await admin.ok<DictItem[]>(permissionApi.userDict)).map((d) => d.code)).not.toContain(u.userCode);
  });

  it('password reset: temporary password shown once, sessions revoked, change required', async () => {
    const r = await addRole('改密测试', 'reset-role', ['permission-user']);
    const u = await addUser('resetme', rootCode, [r.bizCode]);
    const c = await activate('resetme', u.password);
    expect((await c.call(permissionApi.userList, {})).status).toBe(200);
    const res = await admin.ok<TemporaryPassword>(permissionApi.passwordReset, { userCode: u.userCode });
    expect(res.userCode).toBe(u.userCode);
    expect(isStrongPassword(res.password)).toBe(true);
    expect((await c.call('/api/admin/portal/user/info')).status).toBe(403);
    expect(
      (await t.client().call(LOGIN, { userName: 'resetme', passWord: 'Newpass@12345', userType: '2' }))
        .status,
    ).toBe(400);
    const fresh = await t.login('resetme', res.password);
    expect(
      (await fresh.ok<{ mustChangePassword: boolean }>('/api/admin/portal/user/info')).mustChangePassword,
    ).toBe(true);
    const blocked = await fresh.call(permissionApi.userList, {});
    expect([blocked.status, blocked.msg]).toEqual([401, '请先修改初始密码']);
    await fresh.ok(PASSWORD_UPDATE, {
      pwd: res.password,
      newPwd: 'Another@12345',
      reNewPwd: 'Another@12345',
    });
    const back = await t.login('resetme', 'Another@12345');
    expect((await back.call(permissionApi.userList, {})).status).toBe(200);
    expect((await admin.call(permissionApi.passwordReset, { userCode: '000000999999' })).status).toBe(404);
    expect(await audits('user', u.userCode)).toContain('resetPassword');
  });

  it('lists only the users inside the manager’s data scope', async () => {
    const south = await addOrg('华南');
    const gz = await addOrg('广州', south);
    const other = await addOrg('西北');
    const scoped = await addRole('华南管理', 'south-admin', ['permission-user'], 'dept');
    const boss = await addUser('southboss', south, [scoped.bizCode]);
    await addUser('gz1', gz);
    const outsider = await addUser('nw1', other);
    const c = await activate('southboss', boss.password);
    const seen = await c.ok<Page<UserView>>(permissionApi.userList, {});
    expect(seen.list.map((u) => u.userName).sort()).toEqual(['gz1', 'southboss']);
    expect(
      (await c.call(permissionApi.userGet, undefined, { query: { bizCode: outsider.userCode } })).status,
    ).toBe(404);
  });
});

describe('a grant takes effect on the next call of the same session', () => {
  it('a bank-only role lists bank accounts, gets 401 elsewhere, and 200 after cfgSave adds the code', async () => {
    const r = await addRole('银行账户', 'bank-only', ['ft-bank']);
    const u = await addUser('banker', rootCode, [r.bizCode]);
    const c = await activate('banker', u.password);
    expect((await c.call(BANK_LIST, {})).status).toBe(200);
    const roleList = await c.call(permissionApi.roleList, {});
    expect([roleList.httpStatus, roleList.status, roleList.ok]).toEqual([401, 401, false]);
    expect((await c.call(permissionApi.roleMenuTree)).status).toBe(401);
    expect((await c.call(permissionApi.userList, {})).status).toBe(401);
    expect((await c.call(permissionApi.orgAdd, { name: 'x' })).status).toBe(401);
    // Other business lists, as their modules are registered (the route-registry test covers every route).
    for (const list of [CREDIT_LIST, CONTRACT_LIST])
      if (t.portal.routes.some((x) => x.path === list)) expect((await c.call(list, {})).status).toBe(401);
    // The directories (organisations, roles, people and their login names) are the permission
    // screens' only (SECURITY.md).
    for (const path of [
      permissionApi.orgTree,
      permissionApi.userDict,
      permissionApi.roleDict,
      permissionApi.roleUserTree,
    ])
      expect((await c.call(path)).status, path).toBe(401);
    const menus = await c.ok<string[]>('/api/admin/portal/user/res/menus');
    expect(menus).not.toContain('permission-role');

    const before = await role(r.bizCode);
    await admin.ok(permissionApi.roleCfgSave, {
      bizCode: r.bizCode,
      version: before.version,
      menuCodes: [...before.menuCodes, 'permission-role'],
    });
    // Same session, no new login.
    expect((await c.call(permissionApi.roleList, {})).status).toBe(200);
    expect(await c.ok<string[]>('/api/admin/portal/user/res/menus')).toContain('permission-role');
    expect(
      await c.ok<string[]>('/api/admin/portal/user/res/menu/btns', { menuCode: 'permission-role' }),
    ).toEqual([]);
    expect((await c.call(permissionApi.roleAdd, { name: 'x', code: 'xx' })).status).toBe(401);
    const mid = await role(r.bizCode);
    await admin.ok(permissionApi.roleCfgSave, {
      bizCode: r.bizCode,
      version: mid.version,
      menuCodes: [...mid.menuCodes, 'permission-role:add'],
    });
    expect(
      await c.ok<string[]>('/api/admin/portal/user/res/menu/btns', { menuCode: 'permission-role' }),
    ).toEqual(['permission-role:add']);
    expect((await c.call(permissionApi.roleAdd, { name: '新角色', code: 'by-banker' })).status).toBe(200);
    // Taking the code away works the same way, as does disabling the role.
    const last = await role(r.bizCode);
    await admin.ok(permissionApi.roleCfgSave, {
      bizCode: r.bizCode,
      version: last.version,
      menuCodes: ['ft-bank'],
    });
    expect((await c.call(permissionApi.roleList, {})).status).toBe(401);
    const cur = await role(r.bizCode);
    await admin.ok(permissionApi.roleUpdate, { ...cur, state: 'disabled' });
    expect((await c.call(BANK_LIST, {})).status).toBe(401);
    await t.database.db.execute(sql`select 1`);
  });
});
