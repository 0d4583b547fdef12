import Decimal from 'decimal.js';
import ExcelJS from 'exceljs';
import { eq, sql } from 'drizzle-orm';
import type { PgInsertValue } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sealRequest } from '@portal/contract/envelope';
import {
  COMPANY_EXPORT_FILE_NAME,
  COMPANY_PATHS,
  type CompanyAdd,
  type CompanyRow,
  type CompanyView,
} from '@portal/contract/company';
import type { Page } from '@portal/contract/api';
import { usccCheckChar } from '@portal/contract/uscc';
import { auditLog } from '../../platform/db/audit';
import { MONEY_FMT } from '../../platform/http/xlsx';
import { codeSql, nextCode } from '../../platform/db/codes';
import { hashPassword } from '../../platform/auth/password-hash';
import {
  createTestPortal,
  createUserWithCodes,
  type TestClient,
  type TestPortal,
  servedPaths,
  TEST_PASSWORD_HASH_COST,
} from '../../testing/harness';
import { companies } from './schema';
import { demoUscc } from './demo';
import { requireActiveCustomer } from './service';

const companyApi = servedPaths(COMPANY_PATHS);

let t: TestPortal;
let admin: TestClient;
beforeAll(async () => {
  t = await createTestPortal();
  admin = await t.login();
});
afterAll(() => t.close());

let seq = 0;
/** A fresh valid USCC each call. */
function newUscc(): string {
  seq++;
  const first17 = `91310115MA${String(1_000_000 + seq).slice(-7)}`;
  return first17 + usccCheckChar(first17);
}

const base = (over: Partial<CompanyAdd> = {}): CompanyAdd => ({
  compName: '上海测试供应链有限公司',
  usccCode: newUscc(),
  compType: 'private',
  roles: ['supplier'],
  legalPerson: '王五',
  regCapital: '10000000.00',
  establishDate: '2015-06-01',
  provinceCode: '310000',
  cityCode: '310100',
  areaCode: '310115',
  address: '浦东新区世纪大道1号',
  industry: 'F',
  contactName: '张三',
  contactPhone: '13800138000',
  ...over,
});

async function add(over: Partial<CompanyAdd> = {}): Promise<string> {
  const r = await admin.ok<{ compCode: string }>(companyApi.add, base(over));
  return r.compCode;
}

describe('enterprise customers', () => {
  it('adds, views and lists a customer with region names', async () => {
    const code = await add({ compName: '查看测试有限公司' });
    expect(code).toMatch(/^\d{12}$/);
    const v = await admin.ok<CompanyView>(companyApi.view, undefined, { query: { compCode: code } });
    expect(v).toMatchObject({
      compName: '查看测试有限公司',
      regCapital: '10000000.00',
      regionName: '上海市 / 市辖区 / 浦东新区',
      state: 'enabled',
      version: 0,
      files: [],
    });
    const page = await admin.ok<Page<CompanyRow>>(companyApi.list, { compName: '查看测试' });
    expect(page.total).toBe(1);
    expect(page.list[0]!.compCode).toBe(code);
    const audits = await t.database.db.select().from(auditLog).where(eq(auditLog.entityCode, code));
    expect(audits.map((a) => a.action)).toContain('create');
  });

  it('refuses bad input with a Chinese message naming the field, and writes nothing', async () => {
    const before = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(companies);
    const cases: [Partial<CompanyAdd>, RegExp][] = [
      [{ compName: '' }, /企业名称不能为空/],
      [{ usccCode: '91310115MA1234567X' }, /统一社会信用代码校验位不正确/],
      [{ usccCode: '12345' }, /统一社会信用代码应为18位/],
      [{ regCapital: '-1.00' }, /注册资本不能为负数/],
      [{ regCapital: '1.234' }, /注册资本必须是最多两位小数的金额/],
      [{ roles: [] }, /客户角色不能为空/],
      [{ compType: 'x' as never }, /企业类型取值不正确/],
      [{ establishDate: '2024-02-30' }, /成立日期必须是有效日期/],
      [{ provinceCode: '990000' }, /所在省份不存在/],
      [{ cityCode: '320100' }, /所在城市不属于所选省份/],
      [{ areaCode: '320105' }, /所在区县不属于所选城市/],
      [{ contactEmail: 'not-mail' }, /联系邮箱格式不正确/],
      [{ parentCompCode: '000000999999' }, /上级企业不存在/],
      [{ fileTokens: ['unknownTokenUnknownToken'] }, /附件不存在/],
    ];
    for (const [over, msg] of cases) {
      const r = await admin.call(companyApi.add, base(over));
      expect([r.httpStatus, r.msg], JSON.stringify(over)).toEqual([400, expect.stringMatching(msg)]);
    }
    const after = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(companies);
    expect(after).toEqual(before);
  });

  it('keeps USCC unique among live customers; checkCompByUsccCode says who has it', async () => {
    const uscc = newUscc();
    const code = await add({ usccCode: uscc.toLowerCase(), compName: '唯一性测试有限公司' });
    const dup = await admin.call(companyApi.add, base({ usccCode: uscc }));
    expect([dup.httpStatus, dup.msg]).toEqual([409, '统一社会信用代码已被企业「唯一性测试有限公司」使用']);
    expect(await admin.ok(companyApi.checkUscc, { usccCode: uscc })).toEqual({
      exists: true,
      compCode: code,
      compName: '唯一性测试有限公司',
    });
    expect(await admin.ok(companyApi.checkUscc, { usccCode: uscc, compCode: code })).toEqual({
      exists: false,
    });
    // GB 32100 check characters of published codes (华为, 腾讯, 招商银行) and corrupted ones.
    for (const real of ['914403001922038216', '91440300708461136T', '9144030010001686XA'])
      expect(await admin.ok(companyApi.checkUscc, { usccCode: real })).toEqual({ exists: false });
    for (const wrong of ['914403001922038217', '91440300708461136U', '9144030010001686XB']) {
      const r = await admin.call(companyApi.checkUscc, { usccCode: wrong });
      expect([r.httpStatus, r.msg]).toEqual([400, '统一社会信用代码校验位不正确']);
    }
    const bad = await admin.call(companyApi.checkUscc, { usccCode: '91350100M000100Y44' });
    expect([bad.httpStatus, bad.msg]).toEqual([400, '统一社会信用代码校验位不正确']);
    // Deleted customers free their code.
    await admin.ok(companyApi.del, undefined, { query: { compCode: code } });
    expect(await admin.ok(companyApi.checkUscc, { usccCode: uscc })).toEqual({ exists: false });
    await add({ usccCode: uscc });
  });

  it('updates with the optimistic lock: a stale version answers 409 and changes nothing', async () => {
    const code = await add({ compName: '版本测试有限公司' });
    const v = await admin.ok<CompanyView>(companyApi.view, undefined, { query: { compCode: code } });
    const body = {
      ...base({ usccCode: v.usccCode }),
      compCode: code,
      version: v.version,
      compName: '版本测试（已改名）有限公司',
      regCapital: '20000000.50',
    };
    await admin.ok(companyApi.update, body);
    const stale = await admin.call(companyApi.update, { ...body, compName: '不该生效' });
    expect([stale.httpStatus, stale.msg]).toEqual([409, '数据已被他人修改，请刷新后重试']);
    const after = await admin.ok<CompanyView>(companyApi.view, undefined, { query: { compCode: code } });
    expect(after).toMatchObject({
      compName: '版本测试（已改名）有限公司',
      regCapital: '20000000.50',
      version: 1,
    });
    const missing = await admin.call(companyApi.update, { ...body, compCode: '000000888888' });
    expect([missing.httpStatus, missing.msg]).toEqual([404, '企业客户不存在']);
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.entityCode, code));
    expect(audit.find((a) => a.action === 'update')?.detail).toMatchObject({
      before: { compName: '版本测试有限公司' },
      after: { compName: '版本测试（已改名）有限公司' },
    });
  });

  it('parents: lookup by name, no cycles, a parent cannot be deleted', async () => {
    const top = await add({ compName: '核心集团股份有限公司', roles: ['core'] });
    const child = await add({ compName: '核心集团子公司', parentCompCode: top });
    const found = await admin.ok<{ compCode: string; compName: string }[]>(
      companyApi.supCompFind,
      undefined,
      {
        query: { compName: '核心集团' },
      },
    );
    expect(found.map((f) => f.compCode).sort()).toEqual([top, child].sort());
    const topView = await admin.ok<CompanyView>(companyApi.view, undefined, { query: { compCode: top } });
    const cycle = await admin.call(companyApi.update, {
      ...base({ usccCode: topView.usccCode, roles: ['core'] }),
      compCode: top,
      version: topView.version,
      parentCompCode: child,
    });
    expect([cycle.httpStatus, cycle.msg]).toEqual([400, '上级企业不能是本企业的下级企业']);
    const del = await admin.call(companyApi.del, undefined, { query: { compCode: top } });
    expect([del.httpStatus, del.msg]).toEqual([409, '该企业是「核心集团子公司」的上级企业，不能删除']);
    const childView = await admin.ok<CompanyView>(companyApi.view, undefined, { query: { compCode: child } });
    expect(childView.parentCompName).toBe('核心集团股份有限公司');
  });

  it('enables and disables; a disabled customer cannot be used by new documents', async () => {
    const code = await add({ compName: '启停测试有限公司' });
    const again = await admin.call(companyApi.enable, undefined, { query: { compCode: code } });
    expect([again.httpStatus, again.msg]).toEqual([409, '该企业客户已是启用状态']);
    await admin.ok(companyApi.disable, undefined, { query: { compCode: code } });
    const page = await admin.ok<Page<CompanyRow>>(companyApi.list, {
      compName: '启停测试',
      state: 'disabled',
    });
    expect(page.total).toBe(1);
    const dict = await admin.ok<{ code: string }[]>(companyApi.dict, {});
    expect(dict.some((d) => d.code === code)).toBe(false);
    await expect(requireActiveCustomer(t.database.db, code)).rejects.toThrow(
      '客户「启停测试有限公司」已停用',
    );
    await admin.ok(companyApi.enable, undefined, { query: { compCode: code } });
    expect((await requireActiveCustomer(t.database.db, code)).compName).toBe('启停测试有限公司');
    const gone = await admin.call(companyApi.disable, undefined, { query: { compCode: '000000777777' } });
    expect(gone.httpStatus).toBe(404);
  });

  it('filters by type, role, region and created range; infoDict lists the choices', async () => {
    await add({
      compName: '筛选-浙江担保',
      compType: 'state',
      roles: ['guarantor'],
      provinceCode: '330000',
      cityCode: '330100',
      areaCode: '330106',
    });
    const q = (body: object) => admin.ok<Page<CompanyRow>>(companyApi.list, { compName: '筛选-', ...body });
    expect((await q({ compType: 'state' })).total).toBe(1);
    expect((await q({ role: 'guarantor' })).total).toBe(1);
    expect((await q({ regionCode: '330100' })).total).toBe(1);
    expect((await q({ regionCode: '310000' })).total).toBe(0);
    expect((await q({ createdStart: '2000-01-01', createdEnd: '2199-12-31' })).total).toBe(1);
    expect((await q({ createdEnd: '2000-01-01' })).total).toBe(0);
    const bad = await admin.call(companyApi.list, { createdStart: '2024-13-01' });
    expect([bad.httpStatus, bad.msg]).toEqual([400, '创建日期起必须是有效日期（YYYY-MM-DD）']);
    const dict = await admin.ok<{ compTypes: unknown[]; roles: { code: string; label: string }[] }>(
      companyApi.infoDict,
    );
    expect(dict.roles).toContainEqual({ code: 'core', label: '核心企业' });
  });

  it('answers 401 to a user without the customer codes, 200 to a CRM user', async () => {
    const { db } = t.database;
    await db.execute(
      sql`insert into roles (biz_code, name, code) values (${await nextCode(db, 'role')}, 'crm', 'crm')`,
    );
    await db.execute(sql`insert into users (user_code, user_name, real_name, password_hash)
      values (${await nextCode(db, 'user')}, 'crm-user', 'CRM', ${await hashPassword('Crmuser@123456', TEST_PASSWORD_HASH_COST)})`);
    await db.execute(
      sql`insert into user_roles select u.id, r.id from users u, roles r where u.user_name = 'crm-user' and r.code = 'crm'`,
    );
    const crm = await t.login('crm-user', 'Crmuser@123456');
    expect((await crm.call(companyApi.list, {})).httpStatus).toBe(401);
    await db.execute(sql`insert into role_menus select id, 'crm-cor-cor' from roles where code = 'crm'`);
    expect((await crm.call(companyApi.list, {})).httpStatus).toBe(200);
    expect((await crm.call(companyApi.add, base())).httpStatus).toBe(401);
    expect((await t.client().call(companyApi.list, {})).httpStatus).toBe(403);
  });
});

describe('customer export (企业客户明细表.xlsx)', () => {
  it('streams every row of 10,000 the filter matches, with Chinese headers and exact totals', async () => {
    const { db } = t.database;
    // Each row's code drawn by its insert from the kind's sequence, as nextCode draws it: a
    // statement per row before made 10,000 round trips (bench/README.md "Fifteenth pass").
    const rows: PgInsertValue<typeof companies>[] = [];
    let expectedTotal = new Decimal(0);
    for (let i = 0; i < 10_000; i++) {
      const capital = new Decimal(1_000_000 + i * 37).plus(new Decimal(i % 100).div(100));
      if (i % 2 === 0) expectedTotal = expectedTotal.plus(capital);
      rows.push({
        compCode: codeSql('comp'),
        compName: `导出测试企业${i}`,
        usccCode: demoUscc('310115', `E${String(i).padStart(7, '0')}`),
        compType: i % 2 === 0 ? 'collective' : 'other',
        roles: ['supplier'],
        legalPerson: '法人',
        regCapital: capital.toFixed(2),
        establishDate: '2020-01-01',
        provinceCode: '310000',
        cityCode: '310100',
        areaCode: '310115',
      });
    }
    for (let i = 0; i < rows.length; i += 1000) await db.insert(companies).values(rows.slice(i, i + 1000));

    const url = companyApi.listExport;
    // The list's sort applies (smallest capital first; the list's default is newest first).
    const body = { compType: 'collective', orderBy: 'regCapital', order: 'asc', pageNum: 1, pageSize: 20 };
    const sealed = await sealRequest(await admin.envelopeKey(), 'POST', url, body);
    const started = Date.now();
    const res = await t.portal.app.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${admin.token!}`, ...sealed.headers },
      payload: sealed.body,
    });
    console.info(`export of 5,000 rows: ${Date.now() - started} ms, ${res.rawPayload.length} bytes`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['content-disposition']).toContain(
      `filename*=UTF-8''${encodeURIComponent(COMPANY_EXPORT_FILE_NAME)}`,
    );

    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect(ws.rowCount).toBe(1 + 5000 + 1);
    expect(ws.getRow(1).getCell(2).value).toBe('企业名称');
    expect(ws.getRow(1).getCell(7).value).toBe('注册资本（元）');
    let sum = new Decimal(0);
    let previous = new Decimal(-1);
    const names = new Set<string>();
    for (let r = 2; r <= 5001; r++) {
      const row = ws.getRow(r);
      names.add(String(row.getCell(2).value));
      // A numeric cell with the 2-decimal format, so that Excel sums the column; added up here
      // as decimals from the cell's shortest form (exact to the cent).
      const capital = row.getCell(7);
      expect(typeof capital.value).toBe('number');
      expect(capital.numFmt).toBe(MONEY_FMT);
      expect(new Decimal(String(capital.value)).gt(previous)).toBe(true);
      previous = new Decimal(String(capital.value));
      sum = sum.plus(previous);
      expect(row.getCell(4).value).toBe('集体企业');
    }
    expect(names.size).toBe(5000);
    expect(sum.toFixed(2)).toBe(expectedTotal.toFixed(2));
    const total = ws.getRow(5002);
    expect(total.getCell(1).value).toBe('合计');
    expect(total.getCell(2).value).toBe('5000户');
    expect(new Decimal(String(total.getCell(7).value)).toFixed(2)).toBe(expectedTotal.toFixed(2));
    expect(total.getCell(7).numFmt).toBe(MONEY_FMT);
    expect(ws.getRow(2).getCell(8).value).toBe('2020-01-01');

    // Without the export button: 401, as JSON.
    const anon = await t.client().call(url, body);
    expect(anon.httpStatus).toBe(403);
  }, 180_000);
});

describe('企业列表 导出 (crm-cor-cor)', () => {
  it('exports for a CRM user holding only the CRM list and its export button, with the filters applied', async () => {
    const name = 'CRM导出筛选';
    const guarantor = await add({ compName: `${name}担保有限公司`, roles: ['guarantor'] });
    await add({ compName: `${name}供应有限公司`, roles: ['supplier'] });
    await createUserWithCodes(t.database.db, 'crmexport', 'Export@12345678', [
      'crm-cor-cor',
      'crm-cor-cor:export',
    ]);
    const crm = await t.login('crmexport', 'Export@12345678');
    const url = companyApi.listExport;
    const body = { compName: name, role: 'guarantor', pageNum: 1, pageSize: 20 };
    const sealed = await sealRequest(await crm.envelopeKey(), 'POST', url, body);
    const res = await t.portal.app.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${crm.token!}`, ...sealed.headers },
      payload: sealed.body,
    });
    expect(res.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    // Header, the one guarantor, 合计.
    expect(ws.rowCount).toBe(3);
    expect(ws.getRow(2).getCell(1).value).toBe(guarantor);
    expect(ws.getRow(2).getCell(2).value).toBe(`${name}担保有限公司`);
    expect(ws.getRow(3).getCell(2).value).toBe('1户');
    // The list alone does not allow the export.
    await createUserWithCodes(t.database.db, 'crmlist', 'Export@12345678', ['crm-cor-cor']);
    const lister = await t.login('crmlist', 'Export@12345678');
    expect((await lister.call(url, body)).status).toBe(401);
  });
});
