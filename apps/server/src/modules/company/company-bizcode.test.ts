import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPANY_PATHS, type CompanyRow, type CompanyView } from '@portal/contract/company';
import type { Page } from '@portal/contract/api';
import { usccCheckChar } from '@portal/contract/uscc';
import { createTestPortal, type TestClient, type TestPortal, servedPaths } from '../../testing/harness';

const companyApi = servedPaths(COMPANY_PATHS);
const first17 = '91310115MB9000001';
const uscc = first17 + usccCheckChar(first17);

let t: TestPortal;
let admin: TestClient;
beforeAll(async () => {
  t = await createTestPortal();
  admin = await t.login();
});
afterAll(() => t.close());

// SPEC's companyBizCode (docs/protocol.md "companyBizCode"): the company record's code by that name.
describe('companyBizCode', () => {
  it('is carried by every company record and names the customer in requests, as compCode does', async () => {
    const { compCode } = await admin.ok<{ compCode: string }>(companyApi.add, {
      compName: '别名测试有限公司',
      usccCode: uscc,
      compType: 'private',
      roles: ['supplier'],
      legalPerson: '王五',
      regCapital: '1000000.00',
      provinceCode: '310000',
    });
    const byAlias = { query: { companyBizCode: compCode } };
    const v = await admin.ok<CompanyView>(companyApi.view, undefined, byAlias);
    expect([v.compCode, v.companyBizCode, v.compName]).toEqual([compCode, compCode, '别名测试有限公司']);
    const page = await admin.ok<Page<CompanyRow>>(companyApi.list, { compName: '别名测试' });
    expect(page.list.map((r) => [r.compCode, r.companyBizCode])).toEqual([[compCode, compCode]]);

    // Named by companyBizCode alone: updated, disabled, enabled.
    const { companyBizCode: _c, compCode: _code, ...fields } = v;
    const body = {
      compName: '别名测试（改）有限公司',
      usccCode: fields.usccCode,
      compType: fields.compType,
      roles: fields.roles,
      legalPerson: fields.legalPerson,
      regCapital: fields.regCapital,
      provinceCode: '310000',
      version: v.version,
    };
    await admin.ok(companyApi.update, { ...body, companyBizCode: compCode });
    await admin.ok(companyApi.disable, undefined, byAlias);
    expect((await admin.ok<CompanyView>(companyApi.view, undefined, byAlias)).state).toBe('disabled');
    await admin.ok(companyApi.enable, undefined, byAlias);
    const after = await admin.ok<CompanyView>(companyApi.view, undefined, { query: { compCode } });
    expect([after.compName, after.state]).toEqual(['别名测试（改）有限公司', 'enabled']);

    // Both names that disagree: refused, and nothing changes.
    const clash = await admin.call(companyApi.update, {
      ...body,
      version: after.version,
      compCode,
      companyBizCode: '000000000999',
      compName: '不应保存',
    });
    expect([clash.status, clash.msg]).toEqual([400, '企业编号与companyBizCode不一致']);
    expect((await admin.ok<CompanyView>(companyApi.view, undefined, byAlias)).compName).toBe(
      '别名测试（改）有限公司',
    );
  });
});
