import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@portal/contract/api';
import { COMPANY_PATHS, type CompanyAdd } from '@portal/contract/company';
import { CRM_PATHS } from '@portal/contract/crm';
import {
  CUST_ROLE_LABELS,
  PERMIT_AREAS,
  PERMIT_PATHS,
  type CompInfoByDif,
  type CurrentRoles,
  type CustSave,
  type PermitDict,
  type PermitRow,
  type PermitView,
  type RoleChangeRow,
  type RoleChangeView,
  type UserCandidate,
  type UserSave,
} from '@portal/contract/permit';
import { usccCheckChar } from '@portal/contract/uscc';
import { auditLog } from '../../platform/db/audit';
import { nextCode } from '../../platform/db/codes';
import {
  createTestPortal,
  createUserWithCodes,
  onPostgres,
  type TestClient,
  type TestPortal,
  servedPaths,
} from '../../testing/harness';
import { compUsers } from '../crm/schema';
import { permitRoleChanges, permits } from './schema';
import { sqlStateOf } from '../../testing/sql-state';

const permitApi = servedPaths(PERMIT_PATHS);
const PASSWORD = 'Perm1t@Test_01';

let t: TestPortal;
let admin: TestClient;
beforeAll(async () => {
  t = await createTestPortal();
  admin = await t.login();
});
afterAll(() => t.close());

let seq = 0;
function newUscc(): string {
  seq++;
  const first17 = `91370100MA${String(2_000_000 + seq).slice(-7)}`;
  return first17 + usccCheckChar(first17);
}

async function newCustomer(
  name: string,
  over: Partial<CompanyAdd> = {},
): Promise<{ code: string; uscc: string }> {
  const uscc = newUscc();
  const r = await admin.ok<{ compCode: string }>(`/api${COMPANY_PATHS.add}`, {
    compName: name,
    usccCode: uscc,
    compType: 'private',
    roles: ['supplier'],
    legalPerson: '李四',
    regCapital: '5000000.00',
    provinceCode: '370000',
    ...over,
  } satisfies CompanyAdd);
  return { code: r.compCode, uscc };
}

let mobileSeq = 0;
/** An enterprise user (the CRM screens make them; here straight into the table). */
async function newUser(
  compCode: string,
  name: string,
  over: Partial<typeof compUsers.$inferInsert> = {},
): Promise<string> {
  const db = t.database.db;
  const userCode = await nextCode(db, 'comp_user');
  mobileSeq++;
  await db.insert(compUsers).values({
    userCode,
    compCode,
    userName: name,
    mobile: `1390000${String(1000 + mobileSeq).slice(-4)}`,
    regState: 'approved',
    ...over,
  });
  return userCode;
}

const saveCust = (body: CustSave, c = admin) => c.call<{ bizCode: string }>(permitApi.custSave, body);
const saveUser = (body: UserSave, c = admin) => c.call<{ bizCode: string }>(permitApi.userSave, body);
/** The version an admission has now (what a screen showing it would send). */
async function versionOf(bizCode: string): Promise<number> {
  const [r] = await t.database.db
    .select({ v: permits.version })
    .from(permits)
    .where(eq(permits.bizCode, bizCode));
  return r?.v ?? 0;
}
const act = async (
  k: 'custOpen' | 'custDisable' | 'userOpen' | 'userDisable',
  bizCode: string,
  area: string,
  c = admin,
  version?: number,
) => c.call(permitApi[k], { area, version: version ?? (await versionOf(bizCode)) }, { query: { bizCode } });
const setRole = async (
  k: 'setCustRole' | 'setUserRole',
  body: { bizCode: string; area: string; roles: string[]; reason?: string },
  c = admin,
  version?: number,
) =>
  c.call<{ bizCode: string }>(permitApi[k], { ...body, version: version ?? (await versionOf(body.bizCode)) });
const viewCust = (bizCode: string, c = admin) =>
  c.ok<PermitView>(permitApi.custView, undefined, { query: { bizCode } });

async function openCust(compCode: string, area: 'ec' | 'dw' | 'fc', roles: string[]): Promise<string> {
  const { bizCode } = await admin.ok<{ bizCode: string }>(permitApi.custSave, { area, compCode, roles });
  expect((await act('custOpen', bizCode, area)).status).toBe(200);
  return bizCode;
}

/** The PostgreSQL error code a statement fails with, or undefined when it succeeds. */

async function count(table: typeof permits | typeof permitRoleChanges): Promise<number> {
  const [r] = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(table);
  return r!.n;
}

describe('admission dictionaries', () => {
  it('answers the areas, states and per-area roles as { code, label } items', async () => {
    const d = await admin.ok<PermitDict>(permitApi.custDict);
    expect(d.areas).toEqual([
      { code: 'ec', label: '凭证' },
      { code: 'dw', label: '山高E融' },
      { code: 'fc', label: '银企链' },
    ]);
    expect(d.states.map((s) => s.label)).toEqual(['已保存', '已开通', '已停用']);
    expect(d.roles.ec.map((r) => r.code)).toEqual(['issuer', 'holder', 'funder']);
    expect(d.roles.fc[0]).toEqual({ code: 'core', label: '核心企业' });
    const u = await admin.ok<PermitDict>(permitApi.userDict);
    expect(u.roles.dw.map((r) => r.label)).toContain('经办人');
  });
});

describe('customer admission (企业客户准入)', () => {
  it('saves, lists, views, opens, changes roles, disables and reopens, with history and audit', async () => {
    const comp = await newCustomer('济南凭证准入有限公司');
    const saved = await saveCust({ area: 'ec', compCode: comp.code, roles: ['holder'], remark: '首批' });
    expect(saved.status).toBe(200);
    const code = saved.data!.bizCode;
    expect(code).toMatch(/^\d{12}$/);

    const page = await admin.ok<Page<PermitRow>>(permitApi.custList, { area: 'ec', compName: '凭证准入' });
    expect(page).toMatchObject({ total: 1, pageNum: 1, pageSize: 20 });
    expect(page.list[0]).toMatchObject({
      bizCode: code,
      compName: '济南凭证准入有限公司',
      usccCode: comp.uscc,
      state: 'saved',
      roles: ['holder'],
      userCode: null,
      openedAt: null,
    });

    // Roles cannot be set before it is opened.
    const early = await setRole('setCustRole', { bizCode: code, area: 'ec', roles: ['issuer'] });
    expect([early.status, early.msg]).toEqual([409, '该准入尚未开通，不能设置角色']);
    const earlyDisable = await act('custDisable', code, 'ec');
    expect([earlyDisable.status, earlyDisable.msg]).toEqual([409, '该准入尚未开通，不能停用']);

    expect((await act('custOpen', code, 'ec')).status).toBe(200);
    const twice = await act('custOpen', code, 'ec');
    expect([twice.status, twice.msg]).toEqual([409, '该准入已开通，不能重复开通']);

    const opened = await viewCust(code);
    expect(opened.state).toBe('open');
    expect(opened.openedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(opened.history).toMatchObject([{ kind: 'open', rolesBefore: [], rolesAfter: ['holder'] }]);

    // An opened admission is no longer edited through save.
    const edit = await saveCust({
      bizCode: code,
      version: opened.version,
      area: 'ec',
      compCode: comp.code,
      roles: ['issuer'],
    });
    expect([edit.status, edit.msg]).toEqual([409, '已开通过的准入不能再修改，请通过设置角色变更其角色']);

    const chg = await admin.ok<{ bizCode: string }>(permitApi.setCustRole, {
      bizCode: code,
      version: await versionOf(code),
      area: 'ec',
      roles: ['issuer', 'holder'],
      reason: '升级为开立方',
    });
    const same = await setRole('setCustRole', {
      bizCode: code,
      area: 'ec',
      roles: ['holder', 'issuer'],
    });
    expect([same.status, same.msg]).toEqual([400, '角色没有变化']);
    const roles = await admin.ok<CurrentRoles[]>(permitApi.getCustRole, undefined, {
      query: { CompCode: comp.code },
    });
    expect(roles).toEqual([{ area: 'ec', bizCode: code, state: 'open', roles: ['issuer', 'holder'] }]);

    const rc = await admin.ok<RoleChangeView>(permitApi.roleChgView, undefined, {
      query: { bizCode: chg.bizCode },
    });
    expect(rc).toMatchObject({
      permitCode: code,
      kind: 'change',
      rolesBefore: ['holder'],
      rolesAfter: ['issuer', 'holder'],
      reason: '升级为开立方',
      createdByName: 'admin',
      permit: { bizCode: code, state: 'open' },
    });
    const rcList = await admin.ok<Page<RoleChangeRow>>(permitApi.roleChgList, {
      area: 'ec',
      subject: 'cust',
      permitCode: code,
    });
    expect(rcList.list.map((r) => r.kind)).toEqual(['change', 'open']);

    expect((await act('custDisable', code, 'ec')).status).toBe(200);
    const disabledTwice = await act('custDisable', code, 'ec');
    expect([disabledTwice.status, disabledTwice.msg]).toEqual([409, '该准入已停用，不能重复停用']);
    const refused = await setRole('setCustRole', { bizCode: code, area: 'ec', roles: ['funder'] });
    expect([refused.status, refused.msg]).toEqual([409, '该准入已停用，不能设置角色']);
    expect(
      await admin.ok<CurrentRoles[]>(permitApi.getCustRole, undefined, { query: { CompCode: comp.code } }),
    ).toEqual([{ area: 'ec', bizCode: code, state: 'disabled', roles: [] }]);

    // Reopening keeps the record, its roles and first opening time; no new history row.
    expect((await act('custOpen', code, 'ec')).status).toBe(200);
    const reopened = await viewCust(code);
    expect(reopened).toMatchObject({ state: 'open', roles: ['issuer', 'holder'], openedAt: opened.openedAt });
    expect(reopened.disabledAt).toBeNull();
    expect(reopened.history).toHaveLength(2);

    const audits = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'permit'), eq(auditLog.entityCode, code)))
      .orderBy(asc(auditLog.id));
    expect(audits.map((a) => a.action)).toEqual(['create', 'open', 'setRole', 'disable', 'reopen']);
  });

  it('keeps one admission per area and customer: the service and the unique index', async () => {
    const comp = await newCustomer('唯一准入测试有限公司');
    await openCust(comp.code, 'dw', ['financier']);
    const dup = await saveCust({ area: 'dw', compCode: comp.code, roles: ['core'] });
    expect(dup.status).toBe(409);
    expect(dup.msg).toMatch(/^该企业客户在山高E融区域已有准入记录（\d{12}），不能重复新增$/);
    // Another area is another admission.
    expect((await saveCust({ area: 'fc', compCode: comp.code, roles: ['core'] })).status).toBe(200);
    // The database refuses a second row even if the service were bypassed.
    const direct = async (v: Partial<typeof permits.$inferInsert>) =>
      t.database.db.insert(permits).values({
        bizCode: await nextCode(t.database.db, 'permit'),
        subject: 'cust',
        area: 'dw',
        compCode: comp.code,
        roles: ['core'],
        ...v,
      });
    expect(await sqlStateOf(direct({}))).toBe('23505');
    // And roles outside the area's dictionary; every dictionary role is accepted.
    const other = await newCustomer('字典约束测试有限公司');
    expect(await sqlStateOf(direct({ compCode: other.code, area: 'ec', roles: ['core'] }))).toBe('23514');
    for (const area of PERMIT_AREAS) {
      const roles = Object.keys(CUST_ROLE_LABELS[area]);
      expect(await sqlStateOf(direct({ compCode: other.code, area, roles })), area).toBeUndefined();
    }
    const info = await admin.ok<CompInfoByDif>(permitApi.custByDif, undefined, {
      query: { compDif: comp.uscc },
    });
    expect(info).toMatchObject({
      compCode: comp.code,
      compName: '唯一准入测试有限公司',
      compState: 'enabled',
    });
    expect(info.permits.map((x) => [x.area, x.state])).toEqual([
      ['dw', 'open'],
      ['fc', 'saved'],
    ]);
    const missing = await admin.call(permitApi.custByDif, undefined, { query: { compDif: newUscc() } });
    expect([missing.status, missing.msg]).toEqual([404, '企业客户不存在']);
    const badDif = await admin.call(permitApi.custByDif, undefined, { query: { compDif: '123' } });
    expect(badDif.status).toBe(400);
    // A customer with admissions cannot be deleted.
    const del = await admin.call(`/api${COMPANY_PATHS.del}`, undefined, { query: { compCode: comp.code } });
    expect([del.status, del.msg]).toEqual([409, '该企业客户正在使用中，不能删除：存在2条准入记录']);
  });

  it('edits a saved admission with its version; a stale version changes nothing', async () => {
    const a = await newCustomer('编辑准入甲有限公司');
    const b = await newCustomer('编辑准入乙有限公司');
    const { bizCode } = await admin.ok<{ bizCode: string }>(permitApi.custSave, {
      area: 'fc',
      compCode: a.code,
      roles: ['member'],
    });
    const v0 = await viewCust(bizCode);
    await admin.ok(permitApi.custSave, {
      bizCode,
      version: v0.version,
      area: 'fc',
      compCode: b.code,
      roles: ['bank'],
    });
    const v1 = await viewCust(bizCode);
    expect(v1).toMatchObject({ compCode: b.code, roles: ['bank'], version: v0.version + 1 });
    const stale = await saveCust({
      bizCode,
      version: v0.version,
      area: 'fc',
      compCode: b.code,
      roles: ['core'],
    });
    expect([stale.status, stale.msg]).toEqual([409, '数据已被他人修改，请刷新后重试']);
    const moved = await saveCust({
      bizCode,
      version: v1.version,
      area: 'ec',
      compCode: b.code,
      roles: ['issuer'],
    });
    expect([moved.status, moved.msg]).toEqual([400, '准入区域不能修改']);
    expect((await viewCust(bizCode)).roles).toEqual(['bank']);
    const noVersion = await saveCust({ bizCode, area: 'fc', compCode: b.code, roles: ['core'] });
    expect([noVersion.status, noVersion.msg]).toEqual([400, '版本号不能为空']);
  });

  it('refuses bad input with a Chinese message naming the field, and writes nothing', async () => {
    const comp = await newCustomer('校验准入测试有限公司');
    const off = await newCustomer('停用客户准入测试有限公司');
    await admin.ok(`/api${COMPANY_PATHS.disable}`, undefined, { query: { compCode: off.code } });
    const before = await count(permits);
    const cases: [unknown, number, string | RegExp][] = [
      [{ area: 'ec', roles: ['holder'] }, 400, '企业客户不能为空'],
      [{ area: 'xx', compCode: comp.code, roles: ['holder'] }, 400, '准入区域取值不正确'],
      [{ compCode: comp.code, roles: ['holder'] }, 400, '准入区域不能为空'],
      [{ area: 'ec', compCode: comp.code, roles: [] }, 400, '角色不能为空'],
      [{ area: 'ec', compCode: comp.code, roles: ['holder', 'holder'] }, 400, '角色不能重复'],
      [{ area: 'ec', compCode: comp.code, roles: ['bank'] }, 400, '角色「bank」不是凭证区域的企业客户角色'],
      [{ area: 'ec', compCode: '999999999999', roles: ['holder'] }, 400, '企业客户不存在'],
      [
        { area: 'ec', compCode: off.code, roles: ['holder'] },
        400,
        '企业客户「停用客户准入测试有限公司」已停用',
      ],
      [
        { area: 'ec', compCode: comp.code, roles: ['holder'], remark: 'x'.repeat(501) },
        400,
        '备注不能超过500个字符',
      ],
    ];
    for (const [body, status, msg] of cases) {
      const r = await admin.call(permitApi.custSave, body);
      expect([r.status, r.msg], JSON.stringify(body)).toEqual([status, msg]);
    }
    const wrongArea = await admin.call(
      permitApi.custOpen,
      { area: 'dw', version: 1 },
      {
        query: { bizCode: await openCust(comp.code, 'ec', ['holder']) },
      },
    );
    expect([wrongArea.status, wrongArea.msg]).toEqual([400, '准入区域与准入记录不一致']);
    const notThere = await act('custOpen', '999999999998', 'ec');
    expect(notThere.status).toBe(404);
    expect(await count(permits)).toBe(before + 1);
  });
});

describe('enterprise-user admission (企业用户准入)', () => {
  it('needs the enterprise open in the area, a registered enabled user; roles only while open', async () => {
    const comp = await newCustomer('用户准入测试有限公司');
    const alice = await newUser(comp.code, '王小明');
    const pending = await newUser(comp.code, '待审用户', { regState: 'pending' });
    const off = await newUser(comp.code, '停用用户', { state: 'disabled' });

    const candidates = await admin.ok<UserCandidate[]>(permitApi.userCandidates, undefined, {
      query: { compCode: comp.code },
    });
    expect(candidates.map((c) => c.userName)).toEqual(['王小明']);

    const early = await saveUser({ area: 'ec', userCode: alice, roles: ['operator'] });
    expect([early.status, early.msg]).toEqual([409, '所属企业在凭证区域尚未开通准入，不能为其用户办理准入']);
    const custCode = await openCust(comp.code, 'ec', ['holder']);

    const p1 = await saveUser({ area: 'ec', userCode: pending, roles: ['operator'] });
    expect([p1.status, p1.msg]).toEqual([400, '企业用户「待审用户」尚未审核通过']);
    const p2 = await saveUser({ area: 'ec', userCode: off, roles: ['operator'] });
    expect([p2.status, p2.msg]).toEqual([400, '企业用户「停用用户」已停用']);
    const p3 = await saveUser({ area: 'ec', userCode: alice, roles: ['issuer'] });
    expect([p3.status, p3.msg]).toEqual([400, '角色「issuer」不是凭证区域的企业用户角色']);

    const { bizCode } = (await saveUser({ area: 'ec', userCode: alice, roles: ['operator'] })).data!;
    const dup = await saveUser({ area: 'ec', userCode: alice, roles: ['reviewer'] });
    expect(dup.status).toBe(409);
    const role0 = await setRole('setUserRole', { bizCode, area: 'ec', roles: ['reviewer'] });
    expect([role0.status, role0.msg]).toEqual([409, '该准入尚未开通，不能设置角色']);

    expect((await act('userOpen', bizCode, 'ec')).status).toBe(200);
    const twice = await act('userOpen', bizCode, 'ec');
    expect([twice.status, twice.msg]).toEqual([409, '该准入已开通，不能重复开通']);
    await admin.ok(permitApi.setUserRole, {
      bizCode,
      version: await versionOf(bizCode),
      area: 'ec',
      roles: ['operator', 'reviewer'],
      reason: '兼任复核',
    });

    const list = await admin.ok<Page<PermitRow>>(permitApi.userList, {
      compCode: comp.code,
      userName: '小明',
    });
    expect(list.list).toMatchObject([
      {
        bizCode,
        subject: 'user',
        userCode: alice,
        userName: '王小明',
        compName: '用户准入测试有限公司',
        state: 'open',
      },
    ]);
    expect(
      await admin.ok<CurrentRoles[]>(permitApi.getUserRole, undefined, { query: { userCode: alice } }),
    ).toEqual([{ area: 'ec', bizCode, state: 'open', roles: ['operator', 'reviewer'] }]);
    const view = await admin.ok<PermitView>(permitApi.userView, undefined, { query: { bizCode } });
    expect(view.history.map((h) => h.kind)).toEqual(['change', 'open']);

    // The enterprise cannot be disabled while a user is open; after the user, it can.
    const blocked = await act('custDisable', custCode, 'ec');
    expect([blocked.status, blocked.msg]).toEqual([
      409,
      '该企业尚有1个已开通的企业用户准入，请先停用企业用户准入',
    ]);
    expect((await act('userDisable', bizCode, 'ec')).status).toBe(200);
    const disabledRole = await setRole('setUserRole', { bizCode, area: 'ec', roles: ['approver'] });
    expect([disabledRole.status, disabledRole.msg]).toEqual([409, '该准入已停用，不能设置角色']);
    expect((await act('custDisable', custCode, 'ec')).status).toBe(200);
    // Reopening the user needs the enterprise open again.
    const reopen = await act('userOpen', bizCode, 'ec');
    expect([reopen.status, reopen.msg]).toEqual([
      409,
      '所属企业在凭证区域尚未开通准入，不能为其用户办理准入',
    ]);
    // A user record is not a customer record: the customer calls do not find it.
    const cross = await admin.call(permitApi.custView, undefined, { query: { bizCode } });
    expect(cross.status).toBe(404);
  });
});

describe('admission permissions', () => {
  it('checks the code of the area in the body; a refused call writes nothing', async () => {
    const comp = await newCustomer('权限准入测试有限公司');
    const ecCode = await openCust(comp.code, 'ec', ['holder']);
    await createUserWithCodes(t.database.db, 'dwpermit', PASSWORD, [
      'dw-permit-comp',
      'dw-permit-comp:add',
      'dw-permit-comp:open',
    ]);
    await createUserWithCodes(t.database.db, 'ecchg', PASSWORD, ['ec-permit-chg', 'ec-permit-chg:setRole']);
    await createUserWithCodes(t.database.db, 'nobody', PASSWORD, ['ft-bank']);
    const dw = await t.login('dwpermit', PASSWORD);
    const chg = await t.login('ecchg', PASSWORD);
    const nobody = await t.login('nobody', PASSWORD);

    const before = await count(permits);
    const hist = await count(permitRoleChanges);
    const ecSave = await saveCust({ area: 'ec', compCode: comp.code, roles: ['holder'] }, dw);
    expect(ecSave.status).toBe(401);
    expect((await act('custOpen', ecCode, 'ec', dw)).status).toBe(401);
    expect((await dw.call(permitApi.custView, undefined, { query: { bizCode: ecCode } })).status).toBe(401);
    expect((await dw.call(permitApi.custList, { area: 'ec' })).status).toBe(401);
    expect((await nobody.call(permitApi.custList, {})).status).toBe(401);
    expect((await nobody.call(permitApi.userList, {})).status).toBe(401);
    expect(
      (await setRole('setCustRole', { bizCode: ecCode, area: 'ec', roles: ['issuer'] }, dw)).status,
    ).toBe(401);
    expect((await setRole('setCustRole', { bizCode: ecCode, area: 'dw', roles: ['core'] }, chg)).status).toBe(
      401,
    );
    expect(await count(permits)).toBe(before);
    expect(await count(permitRoleChanges)).toBe(hist);

    // Within its own area the dw user works, and its list shows only dw.
    const dwSave = await saveCust({ area: 'dw', compCode: comp.code, roles: ['core'] }, dw);
    expect(dwSave.status).toBe(200);
    expect((await act('custOpen', dwSave.data!.bizCode, 'dw', dw)).status).toBe(200);
    const dwList = await dw.ok<Page<PermitRow>>(permitApi.custList, { compCode: comp.code });
    expect(dwList.list.map((r) => r.area)).toEqual(['dw']);
    const dwRoles = await dw.ok<CurrentRoles[]>(permitApi.getCustRole, undefined, {
      query: { CompCode: comp.code },
    });
    expect(dwRoles.map((r) => r.area)).toEqual(['dw']);

    // The role-change screen changes roles in ec and lists the changes.
    expect(
      (await setRole('setCustRole', { bizCode: ecCode, area: 'ec', roles: ['funder'] }, chg)).status,
    ).toBe(200);
    const chgList = await chg.ok<Page<RoleChangeRow>>(permitApi.roleChgList, { permitCode: ecCode });
    expect(chgList.list[0]).toMatchObject({ rolesAfter: ['funder'], createdByName: 'ecchg' });
    // An area code reads the history of its own area only (and not ec's, nor users').
    const dwHist = await dw.ok<Page<RoleChangeRow>>(permitApi.roleChgList, {});
    expect(dwHist.total).toBeGreaterThan(0);
    expect(new Set(dwHist.list.map((r) => `${r.subject}|${r.area}`))).toEqual(new Set(['cust|dw']));
    expect((await dw.call(permitApi.roleChgList, { area: 'ec' })).status).toBe(401);
    expect((await t.client().call(permitApi.custList, {})).status).toBe(403);
  });
});

describe('enterprise user disable check (CRM)', () => {
  it('refuses disabling an enterprise user with an open admission, until the admission is disabled', async () => {
    const comp = await newCustomer('停用用户准入检查有限公司');
    await openCust(comp.code, 'ec', ['holder']);
    await openCust(comp.code, 'dw', ['core']);
    const u = await newUser(comp.code, '准入中用户');
    const codes: string[] = [];
    for (const area of ['ec', 'dw'] as const) {
      const { bizCode } = (await saveUser({ area, userCode: u, roles: ['operator'] })).data!;
      expect((await act('userOpen', bizCode, area)).status).toBe(200);
      codes.push(bizCode);
    }
    const disableUser = () =>
      admin.call(`/api${CRM_PATHS.firmDisable}`, undefined, { query: { userCode: u } });
    const refused = await disableUser();
    expect([refused.status, refused.msg]).toEqual([
      409,
      '该企业用户不能停用：存在已开通的准入（凭证、山高E融），请先停用准入',
    ]);
    const [row] = await t.database.db.select().from(compUsers).where(eq(compUsers.userCode, u));
    expect(row!.state).toBe('enabled');
    expect((await act('userDisable', codes[0]!, 'ec')).status).toBe(200);
    expect((await disableUser()).msg).toBe('该企业用户不能停用：存在已开通的准入（山高E融），请先停用准入');
    expect((await act('userDisable', codes[1]!, 'dw')).status).toBe(200);
    expect((await disableUser()).status).toBe(200);
    // And a disabled user's admission is not reopened.
    const reopen = await act('userOpen', codes[0]!, 'ec');
    expect([reopen.status, reopen.msg]).toEqual([400, '企业用户「准入中用户」已停用']);
  });
});

describe('admission permissions per area (review fixes)', () => {
  const ALL = ['add', 'save', 'open', 'disable', 'setRole'];
  const withButtons = (menuCode: string) => [menuCode, ...ALL.map((a) => `${menuCode}:${a}`)];

  it('checks the user-admission code of the area: ec-only is refused on dw, dw-only works on dw', async () => {
    const comp = await newCustomer('跨区域用户准入有限公司');
    await openCust(comp.code, 'ec', ['holder']);
    await openCust(comp.code, 'dw', ['core']);
    const ecUser = await newUser(comp.code, '凭证用户');
    const dwUser = await newUser(comp.code, '融资用户');
    const ecPermit = (await saveUser({ area: 'ec', userCode: ecUser, roles: ['operator'] })).data!.bizCode;
    const dwOpen = (await saveUser({ area: 'dw', userCode: ecUser, roles: ['operator'] })).data!.bizCode;
    expect((await act('userOpen', dwOpen, 'dw')).status).toBe(200);
    const dwSaved = (await saveUser({ area: 'dw', userCode: dwUser, roles: ['operator'] })).data!.bizCode;

    await createUserWithCodes(t.database.db, 'ecpersonal', PASSWORD, withButtons('ec-permit-personal'));
    await createUserWithCodes(t.database.db, 'dwpersonal', PASSWORD, [
      'dw-permit-comp',
      ...withButtons('dw-permit-personal'),
    ]);
    const ec = await t.login('ecpersonal', PASSWORD);
    const dw = await t.login('dwpersonal', PASSWORD);

    // ec-only on dw user admissions: 401 everywhere, nothing changes.
    const before = await t.database.db.select().from(permits).orderBy(permits.id);
    const hist = await count(permitRoleChanges);
    expect((await act('userOpen', dwSaved, 'dw', ec)).status).toBe(401);
    expect((await act('userDisable', dwOpen, 'dw', ec)).status).toBe(401);
    expect(
      (await setRole('setUserRole', { bizCode: dwOpen, area: 'dw', roles: ['approver'] }, ec)).status,
    ).toBe(401);
    expect((await saveUser({ area: 'dw', userCode: dwUser, roles: ['reviewer'] }, ec)).status).toBe(401);
    expect(
      (
        await saveUser(
          { bizCode: dwSaved, version: 0, area: 'dw', userCode: dwUser, roles: ['reviewer'] },
          ec,
        )
      ).status,
    ).toBe(401);
    expect((await ec.call(permitApi.userList, { area: 'dw' })).status).toBe(401);
    expect((await ec.call(permitApi.userView, undefined, { query: { bizCode: dwOpen } })).status).toBe(401);
    expect(await t.database.db.select().from(permits).orderBy(permits.id)).toEqual(before);
    expect(await count(permitRoleChanges)).toBe(hist);
    // Its list and current roles hold only ec.
    const ecList = await ec.ok<Page<PermitRow>>(permitApi.userList, { compCode: comp.code });
    expect(ecList.list.map((r) => r.bizCode)).toEqual([ecPermit]);
    const ecRoles = await ec.ok<CurrentRoles[]>(permitApi.getUserRole, undefined, {
      query: { userCode: ecUser },
    });
    expect(ecRoles.map((r) => r.area)).toEqual(['ec']);
    // And ec's own work goes on.
    expect((await act('userOpen', ecPermit, 'ec', ec)).status).toBe(200);

    // dw-only: lists, views and acts on dw user admissions, not on ec ones.
    const dwList = await dw.ok<Page<PermitRow>>(permitApi.userList, { compCode: comp.code });
    expect(dwList.list.map((r) => r.bizCode).sort()).toEqual([dwOpen, dwSaved].sort());
    expect((await dw.call(permitApi.userView, undefined, { query: { bizCode: dwOpen } })).status).toBe(200);
    expect((await dw.call(permitApi.userView, undefined, { query: { bizCode: ecPermit } })).status).toBe(401);
    expect((await act('userOpen', dwSaved, 'dw', dw)).status).toBe(200);
    expect(
      (await setRole('setUserRole', { bizCode: dwOpen, area: 'dw', roles: ['approver'] }, dw)).status,
    ).toBe(200);
    expect((await act('userDisable', dwOpen, 'dw', dw)).status).toBe(200);
    expect((await act('userDisable', ecPermit, 'ec', dw)).status).toBe(401);
    const dwRoles = await dw.ok<CurrentRoles[]>(permitApi.getUserRole, undefined, {
      query: { userCode: ecUser },
    });
    expect(dwRoles.map((r) => r.area)).toEqual(['dw']);
    const dwHist = await dw.ok<Page<RoleChangeRow>>(permitApi.roleChgList, { subject: 'user' });
    expect(new Set(dwHist.list.map((r) => r.area))).toEqual(new Set(['dw']));

    // 银企链 has no user admissions.
    await openCust(comp.code, 'fc', ['core']);
    const fc = await saveUser({ area: 'fc', userCode: dwUser, roles: ['operator'] });
    expect([fc.status, fc.msg]).toEqual([400, '银企链区域不办理企业用户准入']);
    const fcList = await admin.call(permitApi.userList, { area: 'fc' });
    expect([fcList.status, fcList.msg]).toEqual([400, '银企链区域不办理企业用户准入']);
  });

  it('limits the role history to the subjects and areas the caller holds', async () => {
    const comp = await newCustomer('历史范围准入有限公司');
    const ecCode = await openCust(comp.code, 'ec', ['holder']);
    const dwCode = await openCust(comp.code, 'dw', ['core']);
    const dwChg = (await setRole('setCustRole', { bizCode: dwCode, area: 'dw', roles: ['guarantor'] })).data!;
    const u = await newUser(comp.code, '历史用户');
    const uCode = (await saveUser({ area: 'ec', userCode: u, roles: ['operator'] })).data!.bizCode;
    expect((await act('userOpen', uCode, 'ec')).status).toBe(200);
    await createUserWithCodes(t.database.db, 'chgonly', PASSWORD, ['ec-permit-chg']);
    const chg = await t.login('chgonly', PASSWORD);

    expect((await chg.call(permitApi.roleChgList, { area: 'dw' })).status).toBe(401);
    expect((await chg.call(permitApi.roleChgList, { subject: 'user' })).status).toBe(401);
    expect((await chg.call(permitApi.roleChgList, { permitCode: dwCode })).data).toMatchObject({ total: 0 });
    const mine = await chg.ok<Page<RoleChangeRow>>(permitApi.roleChgList, { compName: '历史范围' });
    expect(mine.list.map((r) => [r.subject, r.area, r.permitCode])).toEqual([['cust', 'ec', ecCode]]);
    const view = await chg.call(permitApi.roleChgView, undefined, { query: { bizCode: dwChg.bizCode } });
    expect(view.status).toBe(401);
    const userHist = await admin.ok<Page<RoleChangeRow>>(permitApi.roleChgList, { permitCode: uCode });
    const uView = await chg.call(permitApi.roleChgView, undefined, {
      query: { bizCode: userHist.list[0]!.bizCode },
    });
    expect(uView.status).toBe(401);
    expect(
      (await chg.call(permitApi.roleChgView, undefined, { query: { bizCode: mine.list[0]!.bizCode } }))
        .status,
    ).toBe(200);
  });

  it('needs the version shown: a stale open, disable or role change is 409 and changes nothing', async () => {
    const comp = await newCustomer('乐观锁准入有限公司');
    const code = await openCust(comp.code, 'ec', ['holder']);
    const v = await versionOf(code);
    const noVersion = await admin.call(permitApi.setCustRole, {
      bizCode: code,
      area: 'ec',
      roles: ['issuer'],
    });
    expect([noVersion.status, noVersion.msg]).toEqual([400, '版本号不能为空']);
    const noVersionAct = await admin.call(
      permitApi.custDisable,
      { area: 'ec' },
      { query: { bizCode: code } },
    );
    expect([noVersionAct.status, noVersionAct.msg]).toEqual([400, '版本号不能为空']);
    const a = await setRole('setCustRole', { bizCode: code, area: 'ec', roles: ['issuer'] }, admin, v);
    const b = await setRole('setCustRole', { bizCode: code, area: 'ec', roles: ['funder'] }, admin, v);
    expect(a.status).toBe(200);
    expect([b.status, b.msg]).toEqual([409, '数据已被他人修改，请刷新后重试']);
    expect((await viewCust(code)).roles).toEqual(['issuer']);
    const staleDisable = await act('custDisable', code, 'ec', admin, v);
    expect([staleDisable.status, staleDisable.msg]).toEqual([409, '数据已被他人修改，请刷新后重试']);
    expect((await viewCust(code)).state).toBe('open');
    expect((await act('custDisable', code, 'ec', admin, v + 1)).status).toBe(200);
    const staleOpen = await act('custOpen', code, 'ec', admin, v + 1);
    expect([staleOpen.status, staleOpen.msg]).toEqual([409, '数据已被他人修改，请刷新后重试']);
  });

  it('caps the history a view carries; the rest pages through roleChg/list', async () => {
    const comp = await newCustomer('历史分页准入有限公司');
    const code = await openCust(comp.code, 'ec', ['holder']);
    for (let i = 0; i < 22; i++)
      expect(
        (await setRole('setCustRole', { bizCode: code, area: 'ec', roles: i % 2 ? ['holder'] : ['issuer'] }))
          .status,
      ).toBe(200);
    const v = await viewCust(code);
    expect(v.history).toHaveLength(20);
    expect(v.historyTotal).toBe(23);
    const last = await admin.ok<Page<RoleChangeRow>>(permitApi.roleChgList, {
      permitCode: code,
      pageNum: 2,
      pageSize: 20,
    });
    expect(last).toMatchObject({ total: 23, pageNum: 2 });
    expect(last.list.map((r) => r.kind)).toEqual(['change', 'change', 'open']);
  });
});

describe('admission under concurrency (PostgreSQL)', () => {
  it.skipIf(!onPostgres)('opens once and creates once however many ask at the same time', async () => {
    const comp = await newCustomer('并发准入测试有限公司');
    const { bizCode } = await admin.ok<{ bizCode: string }>(permitApi.custSave, {
      area: 'ec',
      compCode: comp.code,
      roles: ['holder'],
    });
    const other = await t.login();
    const opens = await Promise.all(
      Array.from({ length: 20 }, (_, i) => act('custOpen', bizCode, 'ec', i % 2 ? admin : other)),
    );
    expect(opens.filter((r) => r.status === 200)).toHaveLength(1);
    expect(new Set(opens.filter((r) => r.status !== 200).map((r) => r.msg))).toEqual(
      new Set(['该准入已开通，不能重复开通']),
    );
    expect((await viewCust(bizCode)).history).toHaveLength(1);

    const comp2 = await newCustomer('并发新增准入有限公司');
    const saves = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        saveCust({ area: 'fc', compCode: comp2.code, roles: ['core'] }, i % 2 ? admin : other),
      ),
    );
    expect(saves.filter((r) => r.status === 200)).toHaveLength(1);
    expect(saves.filter((r) => r.status !== 200).every((r) => r.status === 409)).toBe(true);
    console.info(`permit: ${opens.length} concurrent opens and ${saves.length} saves, one of each succeeded`);
  });

  it.skipIf(!onPostgres)('never leaves a user open under a disabled enterprise', async () => {
    const comp = await newCustomer('并发停用准入有限公司');
    const custCode = await openCust(comp.code, 'dw', ['core']);
    const other = await t.login();
    let bothDone = 0;
    for (let round = 0; round < 10; round++) {
      const userCode = await newUser(comp.code, `并发用户${round}`);
      const { bizCode } = await admin.ok<{ bizCode: string }>(permitApi.userSave, {
        area: 'dw',
        userCode,
        roles: ['operator'],
      });
      const [u, c] = await Promise.all([
        act('userOpen', bizCode, 'dw', other),
        act('custDisable', custCode, 'dw', admin),
      ]);
      // One of the two wins; never both.
      expect([u.status, c.status].filter((s) => s === 200)).toHaveLength(1);
      if (u.status === 200) {
        expect(c.msg).toMatch(/^该企业尚有\d+个已开通的企业用户准入/);
        expect((await act('userDisable', bizCode, 'dw')).status).toBe(200);
        expect((await act('custDisable', custCode, 'dw')).status).toBe(200);
      } else {
        expect(u.msg).toBe('所属企业在山高E融区域尚未开通准入，不能为其用户办理准入');
      }
      bothDone++;
      expect((await act('custOpen', custCode, 'dw')).status).toBe(200);
    }
    const [bad] = await t.database.db
      .execute<{ n: number }>(
        sql`select count(*)::int as n from permits u join permits c on c.subject = 'cust'
          and c.area = u.area and c.comp_code = u.comp_code
          where u.subject = 'user' and u.state = 'open' and c.state <> 'open'`,
      )
      .then((r) => (r as unknown as { rows: { n: number }[] }).rows);
    expect(bad!.n).toBe(0);
    expect(bothDone).toBe(10);
  });

  it.skipIf(!onPostgres)('never leaves an admission open for a disabled enterprise user', async () => {
    const comp = await newCustomer('并发停用用户准入有限公司');
    await openCust(comp.code, 'ec', ['holder']);
    const other = await t.login();
    for (let round = 0; round < 10; round++) {
      const userCode = await newUser(comp.code, `并发停用用户${round}`);
      const { bizCode } = (await saveUser({ area: 'ec', userCode, roles: ['operator'] })).data!;
      const [o, d] = await Promise.all([
        act('userOpen', bizCode, 'ec', other, 0),
        admin.call(`/api${CRM_PATHS.firmDisable}`, undefined, { query: { userCode } }),
      ]);
      expect([o.status, d.status].filter((s) => s === 200)).toHaveLength(1);
    }
    const [bad] = await t.database.db
      .execute<{ n: number }>(
        sql`select count(*)::int as n from permits p join comp_users u on u.user_code = p.user_code
          where p.subject = 'user' and p.state = 'open' and u.state <> 'enabled'`,
      )
      .then((r) => (r as unknown as { rows: { n: number }[] }).rows);
    expect(bad!.n).toBe(0);
  });
});
