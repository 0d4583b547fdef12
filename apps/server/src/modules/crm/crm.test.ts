import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { Page } from '@portal/contract/api';
import type { BankAccountView } from '@portal/contract/bank';
import { COMPANY_PATHS, type CompanyAdd } from '@portal/contract/company';
import {
  CRM_PATHS,
  type AddView,
  type ApprovalRow,
  type BankUserList,
  type BillView,
  type CompRoleRow,
  type CompUserRow,
  type DeptNode,
  type DesView,
  type RelationGraph,
  type RelationRow,
} from '@portal/contract/crm';
import type { FileInfo } from '@portal/contract/files';
import { usccCheckChar } from '@portal/contract/uscc';
import {
  createTestPortal,
  createUserWithCodes,
  onPostgres,
  type TestClient,
  type TestPortal,
  servedPaths,
} from '../../testing/harness';
import { uploadPdf } from '../../testing/xlsx-upload';
import { companies } from '../company/schema';
import { compBankAccountUsers, compRelations, compUsers } from './schema';
import { registerUserDisableCheck } from './users';

const crmApi = servedPaths(CRM_PATHS);
const companyApi = servedPaths(COMPANY_PATHS);

let t: TestPortal;
let admin: TestClient;
let comp: string;
let other: string;
let seq = 0;

function newUscc(): string {
  seq++;
  const first17 = `91310115MC${String(2_000_000 + seq).slice(-7)}`;
  return first17 + usccCheckChar(first17);
}

async function newCustomer(name: string): Promise<string> {
  const body: CompanyAdd = {
    compName: name,
    usccCode: newUscc(),
    compType: 'private',
    roles: ['core', 'supplier'],
    legalPerson: '王五',
    regCapital: '5000000.00',
    provinceCode: '310000',
  };
  return (await admin.ok<{ compCode: string }>(companyApi.add, body)).compCode;
}

let mobileSeq = 0;
const mobile = () => `137${String(10_000_000 + ++mobileSeq).padStart(8, '0')}`;

async function addUser(compCode: string, userName = '赵六', extra: Record<string, unknown> = {}) {
  return (
    await admin.ok<{ userCode: string }>(crmApi.employeeSave, {
      compCode,
      userName,
      mobile: mobile(),
      ...extra,
    })
  ).userCode;
}

beforeAll(async () => {
  t = await createTestPortal();
  admin = await t.login();
  comp = await newCustomer('客户管理测试有限公司');
  other = await newCustomer('关联方测试有限公司');
});
afterAll(() => t.close());

describe('企业用户 tab and /crm/frim', () => {
  it('adds, lists, edits, checks and disables users with Chinese messages', async () => {
    const code = await addUser(comp, '孙七', { post: '出纳', idCardNo: '11010519491231002x' });
    const page = await admin.ok<Page<CompUserRow>>(crmApi.employeeList, { compCode: comp, pageSize: 10 });
    expect(page.total).toBe(1);
    expect(page.list[0]).toMatchObject({
      userCode: code,
      userName: '孙七',
      idCardNo: '11010519491231002X',
      regState: 'pending',
      state: 'enabled',
      compName: '客户管理测试有限公司',
    });
    // Same mobile: refused.
    const dup = await admin.call(crmApi.employeeSave, {
      compCode: comp,
      userName: '重复',
      mobile: page.list[0]!.mobile,
    });
    expect(dup.status).toBe(409);
    expect(dup.msg).toContain('手机号已被企业用户「孙七」使用');
    const bad = await admin.call(crmApi.employeeSave, { compCode: comp, userName: '', mobile: '123' });
    expect(bad.status).toBe(400);
    expect(bad.msg).toMatch(/姓名不能为空|手机号格式不正确/);

    // frimcheck: reject needs a comment; only pending can be checked.
    const noComment = await admin.call(crmApi.firmUnAudit, {}, { query: { userCode: code } });
    expect(noComment.status).toBe(400);
    expect(noComment.msg).toBe('审核意见不能为空');
    await admin.ok(crmApi.firmUnAudit, { comment: '身份证号与姓名不符' }, { query: { userCode: code } });
    const again = await admin.call(crmApi.firmAudit, {}, { query: { userCode: code } });
    expect(again.status).toBe(409);
    expect(again.msg).toContain('只有待审核的注册才能审核');
    // Editing a rejected registration sends it back to 待审核.
    const v = await admin.ok<CompUserRow>(crmApi.firmView, undefined, { query: { userCode: code } });
    expect(v.regState).toBe('rejected');
    expect(v.regComment).toBe('身份证号与姓名不符');
    await admin.ok(crmApi.employeeSave, {
      compCode: comp,
      userCode: code,
      version: v.version,
      userName: '孙七',
      mobile: v.mobile,
    });
    const stale = await admin.call(crmApi.employeeSave, {
      compCode: comp,
      userCode: code,
      version: v.version,
      userName: '孙七七',
      mobile: v.mobile,
    });
    expect(stale.status).toBe(409);
    await admin.ok(crmApi.firmAudit, { comment: '通过' }, { query: { userCode: code } });
    const list = await admin.ok<Page<CompUserRow>>(crmApi.firmList, {
      regState: 'approved',
      compName: '客户管理',
    });
    expect(list.list.map((u) => u.userCode)).toContain(code);

    await admin.ok(crmApi.employeeDisable, undefined, { query: { userCode: code } });
    const twice = await admin.call(crmApi.firmDisable, undefined, { query: { userCode: code } });
    expect(twice.status).toBe(409);
    expect(twice.msg).toBe('该企业用户已是停用状态');
    await admin.ok(crmApi.firmEnable, undefined, { query: { userCode: code } });
  });

  it('refuses a user for a department of another enterprise and disabling the administrator', async () => {
    const { deptCode } = await admin.ok<{ deptCode: string }>(crmApi.orgAdd, {
      compCode: other,
      deptName: '外部门',
    });
    const r = await admin.call(crmApi.employeeSave, {
      compCode: comp,
      userName: '钱八',
      mobile: mobile(),
      deptCode,
    });
    expect(r.status).toBe(400);
    expect(r.msg).toBe('所属部门不存在或不属于本企业');
    const code = await addUser(comp, '管理员');
    await t.database.db.update(compUsers).set({ isManager: true }).where(eq(compUsers.userCode, code));
    const d = await admin.call(crmApi.employeeDisable, undefined, { query: { userCode: code } });
    expect(d.status).toBe(409);
    expect(d.msg).toContain('企业管理员不能停用');
  });
});

describe('企业角色 tab', () => {
  it('defines roles, assigns users, refuses duplicates and users of other enterprises', async () => {
    const u1 = await addUser(comp, '经办甲');
    const u2 = await addUser(comp, '复核乙');
    const foreign = await addUser(other, '外人');
    const { roleCode } = await admin.ok<{ roleCode: string }>(crmApi.roleSave, {
      compCode: comp,
      roleName: '经办人',
      userCodes: [u1, u2],
    });
    const dup = await admin.call(crmApi.roleSave, { compCode: comp, roleName: '经办人', userCodes: [] });
    expect(dup.status).toBe(409);
    expect(dup.msg).toBe('企业角色「经办人」已存在');
    const bad = await admin.call(crmApi.roleSave, {
      compCode: comp,
      roleName: '复核人',
      userCodes: [foreign],
    });
    expect(bad.status).toBe(400);
    expect(bad.msg).toBe('角色成员不存在或不属于本企业');
    let roles = await admin.ok<Page<CompRoleRow>>(crmApi.roleList, { compCode: comp });
    expect(roles.list[0]!.users.map((u) => u.userName).sort()).toEqual(['复核乙', '经办甲'].sort());
    await admin.ok(crmApi.roleSave, {
      compCode: comp,
      roleCode,
      version: roles.list[0]!.version,
      roleName: '经办人',
      userCodes: [u1],
    });
    roles = await admin.ok<Page<CompRoleRow>>(crmApi.roleList, { compCode: comp });
    expect(roles.list[0]!.users.map((u) => u.userCode)).toEqual([u1]);
    const users = await admin.ok<Page<CompUserRow>>(crmApi.employeeList, {
      compCode: comp,
      userName: '经办甲',
    });
    expect(users.list[0]!.roleNames).toEqual(['经办人']);
    // Deleting needs the version read: a stale one answers 409 and keeps the role.
    const read = roles.list[0]!.version;
    const staleDel = await admin.call(crmApi.roleDel, { version: read - 1 }, { query: { roleCode } });
    expect(staleDel.status).toBe(409);
    expect(staleDel.msg).toBe('数据已被他人修改，请刷新后重试');
    expect((await admin.call(crmApi.roleDel, {}, { query: { roleCode } })).msg).toBe('版本号不能为空');
    expect((await admin.ok<Page<CompRoleRow>>(crmApi.roleList, { compCode: comp })).total).toBe(1);
    await admin.ok(crmApi.roleDel, { version: read }, { query: { roleCode } });
    expect((await admin.ok<Page<CompRoleRow>>(crmApi.roleList, { compCode: comp })).total).toBe(0);
    expect((await admin.call(crmApi.roleDel, { version: read }, { query: { roleCode } })).status).toBe(404);
  });

  it('offers and accepts only enabled users as new members', async () => {
    const on = await addUser(comp, '在职丙');
    const off = await addUser(comp, '停用丁');
    await admin.ok(crmApi.employeeDisable, undefined, { query: { userCode: off } });
    // The picker lists enabled users only.
    const offered = await admin.ok<Page<CompUserRow>>(crmApi.employeeList, {
      compCode: comp,
      state: 'enabled',
      pageSize: 100,
    });
    expect(offered.list.map((u) => u.userCode)).toContain(on);
    expect(offered.list.map((u) => u.userCode)).not.toContain(off);
    const refused = await admin.call(crmApi.roleSave, {
      compCode: comp,
      roleName: '出纳',
      userCodes: [on, off],
    });
    expect(refused.status).toBe(400);
    expect(refused.msg).toBe('企业用户「停用丁」已停用，不能加入角色');
    await admin.ok(crmApi.roleSave, { compCode: comp, roleName: '出纳', userCodes: [on] });
  });
});

describe('开票信息, 企业介绍, corporationAdd', () => {
  it('saves the invoice info once, then with the version read', async () => {
    expect(
      await admin.ok<BillView | null>(crmApi.billView, undefined, { query: { compCode: comp } }),
    ).toBeNull();
    const body = {
      compCode: comp,
      invoiceTitle: '客户管理测试有限公司',
      taxNo: '91310115mc0000001x',
      bankName: '招商银行上海分行',
      bankAccountNo: '6222 0210 0000 1234',
    };
    await admin.ok(crmApi.billSave, body);
    const v = await admin.ok<BillView>(crmApi.billView, undefined, { query: { compCode: comp } });
    expect(v).toMatchObject({ taxNo: '91310115MC0000001X', bankAccountNo: '6222021000001234', version: 0 });
    // A second "first save" (no version) is stale.
    expect((await admin.call(crmApi.billSave, body)).status).toBe(409);
    await admin.ok(crmApi.billSave, { ...body, version: 0, phone: '021-12345678' });
    expect((await admin.call(crmApi.billSave, { ...body, version: 0 })).status).toBe(409);
    const badTax = await admin.call(crmApi.billSave, { ...body, version: 1, taxNo: '12' });
    expect(badTax.status).toBe(400);
    expect(badTax.msg).toBe('纳税人识别号必须是15到20位数字或大写字母');
  });

  it('saves the introduction', async () => {
    await admin.ok(crmApi.desSave, { compCode: comp, intro: '一家测试企业', website: 'https://example.com' });
    const v = await admin.ok<DesView>(crmApi.desView, undefined, { query: { compCode: comp } });
    expect(v).toMatchObject({ intro: '一家测试企业', website: 'https://example.com', version: 0 });
    const bad = await admin.call(crmApi.desSave, { compCode: comp, version: 0, intro: '', website: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.msg).toMatch(/企业简介不能为空|企业网址/);
  });

  it('saves shareholders whose ratios sum to at most 100 %', async () => {
    const body = {
      compCode: comp,
      actualController: '王五',
      staffCount: 120,
      shareholders: [
        { holderName: '王五', holderType: 'person', ratio: '60.5', contribution: '3025000.00' },
        { holderName: '上海某投资有限公司', holderType: 'company', ratio: '39.5' },
      ],
    };
    await admin.ok(crmApi.addSave, body);
    const v = await admin.ok<AddView>(crmApi.addView, undefined, { query: { compCode: comp } });
    expect(v.shareholders).toEqual([
      { holderName: '王五', holderType: 'person', ratio: '60.5000', contribution: '3025000.00' },
      { holderName: '上海某投资有限公司', holderType: 'company', ratio: '39.5000', contribution: null },
    ]);
    const over = await admin.call(crmApi.addSave, {
      ...body,
      version: 0,
      shareholders: [...body.shareholders, { holderName: '第三方', holderType: 'person', ratio: '0.0001' }],
    });
    expect(over.status).toBe(400);
    expect(over.msg).toBe('持股比例合计100.0001%，不能超过100%');
    const dupName = await admin.call(crmApi.addSave, {
      ...body,
      version: 0,
      shareholders: [body.shareholders[0], body.shareholders[0]],
    });
    expect(dupName.msg).toBe('股东名称不能重复');
    // Nothing changed by the refused calls.
    expect((await admin.ok<AddView>(crmApi.addView, undefined, { query: { compCode: comp } })).version).toBe(
      0,
    );
    await admin.ok(crmApi.addSave, { ...body, version: 0, shareholders: [] });
    const after = await admin.ok<AddView>(crmApi.addView, undefined, { query: { compCode: comp } });
    expect(after).toMatchObject({ version: 1, shareholders: [] });
  });

  it('answers 404 for an unknown customer', async () => {
    const r = await admin.call(crmApi.billView, undefined, { query: { compCode: '999999999999' } });
    expect(r.status).toBe(404);
    expect(r.msg).toBe('企业客户不存在');
  });
});

describe('账户信息 tab and the account operators (银行信息管理)', () => {
  it('adds, lists, sets default and deletes the customer accounts through the bank module', async () => {
    const acc = {
      compCode: comp,
      bankCode: '308',
      branchName: '上海分行',
      accountName: '客户管理测试有限公司',
      accountNo: '6214830000000001',
      purpose: 'collect',
    };
    const a1 = (await admin.ok<{ bizCode: string }>(crmApi.accountSave, acc)).bizCode;
    const a2 = (
      await admin.ok<{ bizCode: string }>(crmApi.accountSave, { ...acc, accountNo: '6214830000000002' })
    ).bizCode;
    let list = await admin.ok<Page<BankAccountView>>(crmApi.accountList, { compCode: comp });
    expect(list.total).toBe(2);
    expect(list.list.find((a) => a.bizCode === a1)!.isDefault).toBe(true);
    await admin.ok(crmApi.accountSetDefault, undefined, { query: { compCode: comp, bizCode: a2 } });
    list = await admin.ok<Page<BankAccountView>>(crmApi.accountList, { compCode: comp });
    expect(list.list.find((a) => a.bizCode === a2)!.isDefault).toBe(true);
    expect(list.list.find((a) => a.bizCode === a1)!.isDefault).toBe(false);
    // Another customer's tab cannot reach the account.
    const foreign = await admin.call(crmApi.accountDel, undefined, {
      query: { compCode: other, bizCode: a1 },
    });
    expect(foreign.status).toBe(404);
    await admin.ok(crmApi.accountDel, undefined, { query: { compCode: comp, bizCode: a1 } });
    expect((await admin.ok<Page<BankAccountView>>(crmApi.accountList, { compCode: comp })).total).toBe(1);

    // Operators: approved, enabled users of the owner only.
    const pending = await addUser(comp, '待审用户');
    const r = await admin.call(crmApi.bankUserSave, { bizCode: a2, userCodes: [pending] });
    expect(r.status).toBe(400);
    expect(r.msg).toBe('企业用户「待审用户」的注册尚未审核通过，不能授权');
    await admin.ok(crmApi.firmAudit, {}, { query: { userCode: pending } });
    const foreignUser = await addUser(other, '别家用户');
    const r2 = await admin.call(crmApi.bankUserSave, { bizCode: a2, userCodes: [foreignUser] });
    expect(r2.msg).toBe('授权用户不存在或不属于本企业');
    await admin.ok(crmApi.bankUserSave, { bizCode: a2, userCodes: [pending] });
    const ops = await admin.ok<BankUserList>(crmApi.bankUserList, undefined, { query: { bizCode: a2 } });
    expect(ops.users.map((u) => u.userName)).toEqual(['待审用户']);
    await admin.ok(crmApi.bankUserSave, { bizCode: a2, userCodes: [] });
    expect(
      (await admin.ok<BankUserList>(crmApi.bankUserList, undefined, { query: { bizCode: a2 } })).users,
    ).toEqual([]);
  });
});

describe('资料文件 and 审核信息', () => {
  it('attaches files to the customer and removes them', async () => {
    const token = await uploadPdf(admin, 'a.pdf');
    await admin.ok(crmApi.fileSave, { compCode: comp, fileTokens: [token] });
    let files = await admin.ok<FileInfo[]>(crmApi.fileList, undefined, { query: { compCode: comp } });
    expect(files.map((f) => f.fileToken)).toEqual([token]);
    await admin.ok(crmApi.fileSave, { compCode: comp, fileTokens: [] });
    files = await admin.ok<FileInfo[]>(crmApi.fileList, undefined, { query: { compCode: comp } });
    expect(files).toEqual([]);
  });

  it('lists the customer history, newest first, paged', async () => {
    const page = await admin.ok<Page<ApprovalRow>>(crmApi.approvalList, { compCode: comp, pageSize: 5 });
    expect(page.total).toBeGreaterThan(5);
    expect(page.list).toHaveLength(5);
    const all = await admin.ok<Page<ApprovalRow>>(crmApi.approvalList, { compCode: comp, pageSize: 500 });
    const labels = new Set(all.list.map((r) => r.entityLabel));
    for (const l of ['企业基本信息', '企业用户', '开票信息', '企业介绍', '股东及实际控制人', '银行账户'])
      expect(labels).toContain(l);
    expect(all.list.some((r) => r.actionLabel === '审核驳回')).toBe(true);
    // Codes of other kinds that happen to equal a compCode (users, accounts) do not leak in.
    const theirs = await admin.ok<Page<ApprovalRow>>(crmApi.approvalList, { compCode: other, pageSize: 500 });
    for (const r of theirs.list) {
      if (r.entity === 'compUser') expect(r.changes.find((c) => c.field === 'compCode')?.after).toBe(other);
      expect(['company', 'compUser', 'compRelation', 'compDept', 'bankAccount']).toContain(r.entity);
    }
    // Another customer's history does not leak in.
    expect(all.list.some((r) => r.entity === 'compUser' && JSON.stringify(r.changes).includes(other))).toBe(
      false,
    );
  });

  it('shows each record as labelled fields, before and after, files by name and never a token', async () => {
    const c = await newCustomer('审核信息测试有限公司');
    const token = await uploadPdf(admin, '营业执照.pdf');
    await admin.ok(crmApi.fileSave, { compCode: c, fileTokens: [token] });
    await admin.ok(crmApi.fileSave, { compCode: c, fileTokens: [] });
    const view = await admin.ok<{ version: number; usccCode: string }>(companyApi.view, undefined, {
      query: { compCode: c },
    });
    await admin.ok(companyApi.update, {
      compCode: c,
      version: view.version,
      compName: '审核信息测试有限公司',
      usccCode: view.usccCode,
      compType: 'private',
      roles: ['core', 'supplier'],
      legalPerson: '赵七',
      regCapital: '5000000.00',
      provinceCode: '310000',
    });
    const rows = (await admin.ok<Page<ApprovalRow>>(crmApi.approvalList, { compCode: c, pageSize: 50 })).list;
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows[0]).not.toHaveProperty('detail');
    const attach = rows.find((r) => r.action === 'attachFiles')!;
    expect(attach.changes).toEqual([
      { field: 'files', label: '资料文件', before: null, after: '营业执照.pdf' },
    ]);
    const remove = rows.find((r) => r.action === 'removeFiles')!;
    expect(remove.changes[0]!.after).toBe('营业执照.pdf');
    const update = rows.find((r) => r.entity === 'company' && r.action === 'update')!;
    expect(update.hasBefore).toBe(true);
    expect(update.changes).toEqual([
      { field: 'legalPerson', label: '法定代表人', before: '王五', after: '赵七' },
    ]);
  });

  it('shows the change of any field before and after: a user’s mobile, the invoice phone, a relation, shareholders', async () => {
    const c = await newCustomer('前后对照测试有限公司');
    const partner = await newCustomer('前后对照伙伴有限公司');
    const history = async () =>
      (await admin.ok<Page<ApprovalRow>>(crmApi.approvalList, { compCode: c, pageSize: 50 })).list;
    const changeOf = async (entity: string) => {
      const row = (await history()).find((r) => r.entity === entity && r.action === 'update')!;
      expect(row.hasBefore).toBe(true);
      return row.changes;
    };

    // 企业用户: only the mobile changes; the row names it, before and after (never 无字段变化).
    const first = mobile();
    const userCode = await addUser(c, '钱七', { mobile: first });
    const user = (await admin.ok<Page<CompUserRow>>(crmApi.employeeList, { compCode: c })).list.find(
      (u) => u.userCode === userCode,
    )!;
    const next = mobile();
    await admin.ok(crmApi.employeeSave, {
      compCode: c,
      userCode,
      userName: '钱七',
      mobile: next,
      version: user.version,
    });
    expect((await changeOf('compUser')).filter((x) => x.field !== 'compCode')).toEqual([
      { field: 'mobile', label: '手机号', before: first, after: next },
    ]);

    // 开票信息: the phone added.
    const bill = {
      compCode: c,
      invoiceTitle: '前后对照测试有限公司',
      taxNo: '91310115MC0000009X',
      bankName: '招商银行上海分行',
      bankAccountNo: '6222021000009999',
    };
    await admin.ok(crmApi.billSave, bill);
    await admin.ok(crmApi.billSave, { ...bill, version: 0, phone: '021-87654321' });
    expect(await changeOf('compInvoice')).toEqual([
      { field: 'phone', label: '注册电话', before: null, after: '021-87654321' },
    ]);

    // 企业关系: the end date moved; the relation type in words, the record it names beside it.
    const rel = {
      relType: 'supplier',
      coreCompCode: c,
      relCompCode: partner,
      startDate: '2026-01-01',
      endDate: '2026-06-30',
    };
    const { bizCode } = await admin.ok<{ bizCode: string }>(crmApi.relationSave, rel);
    await admin.ok(crmApi.relationSave, { ...rel, bizCode, version: 0, endDate: '2026-12-31' });
    expect(await changeOf('compRelation')).toEqual([
      { field: 'endDate', label: '结束日期', before: '2026-06-30', after: '2026-12-31' },
      { field: 'bizCode', label: '编号', before: bizCode, after: bizCode },
    ]);

    // 股东: the same shareholders read back as sent compare equal; a new one shows.
    const holder = { holderName: '王五', holderType: 'person', ratio: '60.5' };
    await admin.ok(crmApi.addSave, { compCode: c, actualController: '王五', shareholders: [holder] });
    await admin.ok(crmApi.addSave, {
      compCode: c,
      version: 0,
      actualController: '王五',
      shareholders: [holder, { holderName: '赵六', holderType: 'person', ratio: '10' }],
    });
    const [holders, ...rest] = await changeOf('compAddInfo');
    expect(rest).toEqual([]);
    expect(holders).toMatchObject({ field: 'shareholders', label: '股东' });
    // As the stored row reads (jsonb orders the keys its own way): 60.5, never 60.5000.
    expect(holders!.before?.split('；').sort()).toEqual(
      ['股东名称：王五', '股东类型：自然人', '持股比例：60.5', '出资额：'].sort(),
    );
    expect(holders!.after).toContain('股东名称：赵六');
  });
});

describe('组织架构', () => {
  it('builds a tree, renames, moves, refuses cycles and deleting a department in use', async () => {
    const c = await newCustomer('组织架构测试有限公司');
    const add = async (deptName: string, parentDeptCode?: string) =>
      (await admin.ok<{ deptCode: string }>(crmApi.orgAdd, { compCode: c, deptName, parentDeptCode }))
        .deptCode;
    const head = await add('总经办');
    const fin = await add('财务部', head);
    const acct = await add('会计科', fin);
    const dup = await admin.call(crmApi.orgAdd, { compCode: c, deptName: '财务部', parentDeptCode: head });
    expect(dup.status).toBe(409);
    expect(dup.msg).toBe('同一上级下已存在部门「财务部」');
    let tree = await admin.ok<DeptNode[]>(crmApi.orgTree, undefined, { query: { compCode: c } });
    expect(tree[0]!.children[0]!.children[0]!.deptName).toBe('会计科');
    // Moving 总经办 under 会计科 would make a cycle.
    const cyc = await admin.call(crmApi.orgUpdate, {
      deptCode: head,
      version: 0,
      deptName: '总经办',
      parentDeptCode: acct,
    });
    expect(cyc.status).toBe(400);
    expect(cyc.msg).toBe('上级部门不能是本部门的下级部门');
    const self = await admin.call(crmApi.orgUpdate, {
      deptCode: fin,
      version: 0,
      deptName: '财务部',
      parentDeptCode: fin,
    });
    expect(self.msg).toBe('上级部门不能是本部门');
    // Rename and move 会计科 to the top.
    await admin.ok(crmApi.orgUpdate, { deptCode: acct, version: 0, deptName: '会计中心' });
    tree = await admin.ok<DeptNode[]>(crmApi.orgTree, undefined, { query: { compCode: c } });
    expect(tree.map((n) => n.deptName).sort()).toEqual(['会计中心', '总经办'].sort());
    // 财务部 has no children now but gets a user: refused; 总经办 has a child: refused.
    await addUser(c, '财务人员', { deptCode: fin });
    const withUser = await admin.call(crmApi.orgDel, undefined, { query: { deptCode: fin } });
    expect(withUser.status).toBe(409);
    expect(withUser.msg).toBe('该部门下还有企业用户「财务人员」，不能删除');
    const withChild = await admin.call(crmApi.orgDel, undefined, { query: { deptCode: head } });
    expect(withChild.msg).toBe('该部门下还有下级部门「财务部」，不能删除');
    await admin.ok(crmApi.orgDel, undefined, { query: { deptCode: acct } });
    tree = await admin.ok<DeptNode[]>(crmApi.orgTree, undefined, { query: { compCode: c } });
    expect(tree.map((n) => n.deptName)).toEqual(['总经办']);
    expect(tree[0]!.children[0]!.userCount).toBe(1);
  });

  it('counts in each department only its own users', async () => {
    const c = await newCustomer('部门人数测试有限公司');
    const add = async (deptName: string) =>
      (await admin.ok<{ deptCode: string }>(crmApi.orgAdd, { compCode: c, deptName })).deptCode;
    const sales = await add('销售部');
    const hr = await add('人事部');
    await add('空部门');
    await addUser(c, '销售一', { deptCode: sales });
    await addUser(c, '销售二', { deptCode: sales });
    await addUser(c, '人事一', { deptCode: hr });
    await addUser(c, '无部门');
    const tree = await admin.ok<DeptNode[]>(crmApi.orgTree, undefined, { query: { compCode: c } });
    const counts = Object.fromEntries(tree.map((n) => [n.deptName, n.userCount]));
    expect(counts).toEqual({ 销售部: 2, 人事部: 1, 空部门: 0 });
  });
});

describe('企业关系维护', () => {
  it('saves relations with validity dates, refusing self, reversed dates and overlaps', async () => {
    const a = await newCustomer('核心企业甲有限公司');
    const b = await newCustomer('供应商乙有限公司');
    const g = await newCustomer('担保方丙有限公司');
    const base = {
      relType: 'supplier',
      coreCompCode: a,
      relCompCode: b,
      startDate: '2026-01-01',
      endDate: '2026-06-30',
    };
    const r1 = (await admin.ok<{ bizCode: string }>(crmApi.relationSave, base)).bizCode;
    const overlap = await admin.call(crmApi.relationSave, {
      ...base,
      startDate: '2026-06-30',
      endDate: '2026-12-31',
    });
    expect(overlap.status).toBe(409);
    expect(overlap.msg).toContain('有效期不能重叠');
    // Adjacent period and another type are fine.
    await admin.ok(crmApi.relationSave, { ...base, startDate: '2026-07-01', endDate: '2026-12-31' });
    await admin.ok(crmApi.relationSave, { ...base, relType: 'distributor' });
    await admin.ok(crmApi.relationSave, { ...base, relType: 'guarantor', relCompCode: g });
    const selfRel = await admin.call(crmApi.relationSave, { ...base, relCompCode: a });
    expect(selfRel.status).toBe(400);
    expect(selfRel.msg).toBe('关联企业不能与核心企业相同');
    const reversed = await admin.call(crmApi.relationSave, {
      ...base,
      startDate: '2026-02-01',
      endDate: '2026-01-01',
    });
    expect(reversed.msg).toBe('失效日期不能早于生效日期');

    // Business date of the test portal is 2026-01-15.
    const list = await admin.ok<Page<RelationRow>>(crmApi.relationList, { compCode: a, relState: 'valid' });
    expect(list.total).toBe(3);
    expect(list.list.every((r) => r.relState === 'valid')).toBe(true);
    const future = await admin.ok<Page<RelationRow>>(crmApi.relationList, {
      compCode: a,
      relState: 'future',
    });
    expect(future.total).toBe(1);

    const graph = await admin.ok<RelationGraph>(crmApi.relationGraph, { compCode: a });
    expect(graph.nodes.map((n) => n.compName).sort()).toEqual(
      ['核心企业甲有限公司', '供应商乙有限公司', '担保方丙有限公司'].sort(),
    );
    expect(graph.links).toHaveLength(4);
    const valid = await admin.ok<RelationGraph>(crmApi.relationGraph, { compCode: a, validOnly: true });
    expect(valid.links).toHaveLength(3);

    // Editing: stale version 409; moving into an overlap refused.
    const row = list.list.find((r) => r.bizCode === r1)!;
    const moved = await admin.call(crmApi.relationSave, {
      ...base,
      bizCode: r1,
      version: row.version,
      endDate: '2026-07-31',
    });
    expect(moved.status).toBe(409);
    await admin.ok(crmApi.relationSave, { ...base, bizCode: r1, version: row.version, remark: '续签' });
    expect(
      (await admin.call(crmApi.relationSave, { ...base, bizCode: r1, version: row.version })).status,
    ).toBe(409);
    const delStale = await admin.call(
      crmApi.relationDel,
      { version: row.version },
      { query: { bizCode: r1 } },
    );
    expect(delStale.status).toBe(409);
    await admin.ok(crmApi.relationDel, { version: row.version + 1 }, { query: { bizCode: r1 } });
    expect(
      (await admin.call(crmApi.relationDel, { version: row.version + 1 }, { query: { bizCode: r1 } })).status,
    ).toBe(404);
    const [dbRow] = await t.database.db.select().from(compRelations).where(eq(compRelations.bizCode, r1));
    expect(dbRow!.deletedAt).not.toBeNull();
  });

  it.skipIf(!onPostgres)('two concurrent overlapping saves: exactly one wins (PostgreSQL)', async () => {
    const a = await newCustomer('并发核心企业有限公司');
    const b = await newCustomer('并发供应商有限公司');
    const second = await t.login();
    const body = {
      relType: 'supplier',
      coreCompCode: a,
      relCompCode: b,
      startDate: '2026-01-01',
      endDate: '2026-12-31',
    };
    const res = await Promise.all([
      admin.call(crmApi.relationSave, body),
      second.call(crmApi.relationSave, body),
    ]);
    expect(res.map((r) => r.status).sort()).toEqual([200, 409]);
  });
});

describe('permissions', () => {
  it('a viewer reads the tabs but cannot save; relations need their own buttons', async () => {
    await createUserWithCodes(t.database.db, 'crmviewer', 'Viewer@12345678', ['crm-cor-cor-v']);
    const viewer = await t.login('crmviewer', 'Viewer@12345678');
    await viewer.ok(crmApi.billView, undefined, { query: { compCode: comp } });
    await viewer.ok(crmApi.approvalList, { compCode: comp });
    const save = await viewer.call(crmApi.desSave, { compCode: comp, intro: '越权' });
    expect(save.status).toBe(401);
    expect((await viewer.call(crmApi.firmList, {})).status).toBe(401);
    expect((await viewer.call(crmApi.relationList, {})).status).toBe(401);

    await createUserWithCodes(t.database.db, 'reladder', 'Adder@123456789', [
      'crm-cor-rel',
      'crm-cor-rel:add',
    ]);
    const adder = await t.login('reladder', 'Adder@123456789');
    const a = await newCustomer('权限核心企业有限公司');
    const b = await newCustomer('权限供应商有限公司');
    const body = {
      relType: 'supplier',
      coreCompCode: a,
      relCompCode: b,
      startDate: '2026-01-01',
      endDate: '2026-12-31',
    };
    const { bizCode } = await adder.ok<{ bizCode: string }>(crmApi.relationSave, body);
    const upd = await adder.call(crmApi.relationSave, { ...body, bizCode, version: 0, remark: '改' });
    expect(upd.status).toBe(401);
    expect((await t.client().call(crmApi.relationList, {})).status).toBe(403);
  });
});

describe('review fixes: customer delete, administrator identity, disabling users', () => {
  it('refuses deleting a customer with enterprise users or relations, naming every reason, and changes nothing', async () => {
    const c = await newCustomer('删除检查企业有限公司');
    const partner = await newCustomer('删除检查伙伴有限公司');
    await addUser(c, '用户甲');
    await addUser(c, '用户乙');
    await admin.ok(crmApi.orgAdd, { compCode: c, deptName: '财务部' });
    await admin.ok(crmApi.accountSave, {
      compCode: c,
      bankCode: '308',
      branchName: '上海分行',
      accountName: '删除检查企业有限公司',
      accountNo: '6214830000009901',
      purpose: 'collect',
    });
    const rel = await admin.ok<{ bizCode: string }>(crmApi.relationSave, {
      relType: 'supplier',
      coreCompCode: partner,
      relCompCode: c,
      startDate: '2026-01-01',
      endDate: '2026-12-31',
    });
    const r = await admin.call(companyApi.del, undefined, { query: { compCode: c } });
    expect(r.status).toBe(409);
    expect(r.msg).toMatch(/^该企业客户正在使用中，不能删除：/);
    for (const reason of ['存在1个银行账户', '存在2名企业用户', '存在1个部门', '存在1条企业关系'])
      expect(r.msg).toContain(reason);
    expect(r.msg.split('：')[1]!.split('；')).toHaveLength(4);
    // The partner is in use only through the relation (as core enterprise).
    const r2 = await admin.call(companyApi.del, undefined, { query: { compCode: partner } });
    expect(r2.status).toBe(409);
    expect(r2.msg).toBe('该企业客户正在使用中，不能删除：存在1条企业关系');
    const [row] = await t.database.db.select().from(companies).where(eq(companies.compCode, c));
    expect(row!.deletedAt).toBeNull();
    expect(
      (await admin.ok<Page<CompUserRow>>(crmApi.employeeList, { compCode: c })).list.map((u) => u.userName),
    ).toHaveLength(2);
    // Once the relation is gone the partner can be deleted.
    const relRow = (await admin.ok<Page<RelationRow>>(crmApi.relationList, { compCode: partner })).list[0]!;
    await admin.ok(crmApi.relationDel, { version: relRow.version }, { query: { bizCode: rel.bizCode } });
    await admin.ok(companyApi.del, undefined, { query: { compCode: partner } });
  });

  it.skipIf(!onPostgres)('a customer deleted while a user is added: never both (PostgreSQL)', async () => {
    for (let i = 0; i < 5; i++) {
      const c = await newCustomer(`并发删除企业${i}有限公司`);
      const second = await t.login();
      const [del, add] = await Promise.all([
        admin.call(companyApi.del, undefined, { query: { compCode: c } }),
        second.call(crmApi.employeeSave, { compCode: c, userName: '并发用户', mobile: mobile() }),
      ]);
      expect([del.status, add.status].filter((st) => st === 200)).toHaveLength(1);
      const [row] = await t.database.db.select().from(companies).where(eq(companies.compCode, c));
      const users = await t.database.db.select().from(compUsers).where(eq(compUsers.compCode, c));
      expect(row!.deletedAt === null).toBe(users.length === 1);
    }
  });

  it('lists no relation whose enterprise was deleted (rows from before the usage check)', async () => {
    const a = await newCustomer('图谱核心企业有限公司');
    const b = await newCustomer('图谱已删企业有限公司');
    await admin.ok(crmApi.relationSave, {
      relType: 'supplier',
      coreCompCode: a,
      relCompCode: b,
      startDate: '2026-01-01',
      endDate: '2026-12-31',
    });
    await t.database.db
      .update(companies)
      .set({ deletedAt: sql`now()` })
      .where(eq(companies.compCode, b));
    expect((await admin.ok<Page<RelationRow>>(crmApi.relationList, { compCode: a })).total).toBe(0);
    const g = await admin.ok<RelationGraph>(crmApi.relationGraph, { compCode: a });
    expect(g.nodes).toEqual([]);
    expect(g.links).toEqual([]);
  });

  it('keeps the administrator identity for 管理员变更: name, mobile and ID card number', async () => {
    const c = await newCustomer('管理员身份企业有限公司');
    const code = await addUser(c, '管理员甲', { idCardNo: '11010519491231002X' });
    await t.database.db.update(compUsers).set({ isManager: true }).where(eq(compUsers.userCode, code));
    const v = await admin.ok<CompUserRow>(crmApi.firmView, undefined, { query: { userCode: code } });
    const base = {
      compCode: c,
      userCode: code,
      version: v.version,
      userName: v.userName,
      mobile: v.mobile,
      idCardNo: v.idCardNo,
    };
    for (const change of [
      { userName: '冒名顶替' },
      { mobile: mobile() },
      { idCardNo: '110105194912310021' },
    ]) {
      const r = await admin.call(crmApi.employeeSave, { ...base, ...change });
      expect(r.status).toBe(409);
      expect(r.msg).toBe('企业管理员的身份信息须通过管理员变更办理');
    }
    const after = await admin.ok<CompUserRow>(crmApi.firmView, undefined, { query: { userCode: code } });
    expect(after).toMatchObject({ userName: '管理员甲', mobile: v.mobile, version: v.version });
    // Other fields stay editable here.
    await admin.ok(crmApi.employeeSave, { ...base, post: '总经理' });
    expect(
      (await admin.ok<CompUserRow>(crmApi.firmView, undefined, { query: { userCode: code } })).post,
    ).toBe('总经理');
  });

  it('refuses disabling a user a registered check names; disabling drops the bank-account grants', async () => {
    const c = await newCustomer('停用检查企业有限公司');
    const held = await addUser(c, '准入用户');
    const plain = await addUser(c, '普通用户');
    for (const u of [held, plain]) await admin.ok(crmApi.firmAudit, {}, { query: { userCode: u } });
    const { bizCode } = await admin.ok<{ bizCode: string }>(crmApi.accountSave, {
      compCode: c,
      bankCode: '308',
      branchName: '上海分行',
      accountName: '停用检查企业有限公司',
      accountNo: '6214830000009902',
      purpose: 'collect',
    });
    await admin.ok(crmApi.bankUserSave, { bizCode, userCodes: [held, plain] });
    // Taken back when the test ends: the list is the process's, and a later test file's portal
    // may give another user the same code.
    onTestFinished(
      registerUserDisableCheck(async (_ex, userCode) =>
        userCode === held ? '存在1条已开通的用户准入' : null,
      ),
    );

    const r = await admin.call(crmApi.employeeDisable, undefined, { query: { userCode: held } });
    expect(r.status).toBe(409);
    expect(r.msg).toBe('该企业用户不能停用：存在1条已开通的用户准入');
    const grants = () =>
      t.database.db
        .select()
        .from(compBankAccountUsers)
        .where(eq(compBankAccountUsers.accountBizCode, bizCode))
        .then((rows) => rows.map((g) => g.userCode).sort());
    expect(await grants()).toEqual([held, plain].sort());
    expect(
      (await admin.ok<CompUserRow>(crmApi.firmView, undefined, { query: { userCode: held } })).state,
    ).toBe('enabled');

    await admin.ok(crmApi.firmDisable, undefined, { query: { userCode: plain } });
    expect(await grants()).toEqual([held]);
    const ops = await admin.ok<BankUserList>(crmApi.bankUserList, undefined, { query: { bizCode } });
    expect(ops.users.map((u) => u.userCode)).toEqual([held]);
  });
});
