import { describe, expect, it } from 'vitest';
import {
  accountBizCodeQuery,
  addSaveSchema,
  deleteVersionBody,
  employeeSaveSchema,
  relationCodeQuery,
  relationSaveSchema,
} from './crm';

const msg = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.success ? null : r.error!.issues.map((i) => i.message);

describe('crm schemas', () => {
  it('refuses a self relation and reversed validity dates with Chinese messages', () => {
    const base = {
      relType: 'supplier',
      coreCompCode: '000000000001',
      relCompCode: '000000000002',
      startDate: '2026-01-01',
      endDate: '2026-12-31',
    };
    expect(relationSaveSchema.safeParse(base).success).toBe(true);
    expect(msg(relationSaveSchema.safeParse({ ...base, relCompCode: '000000000001' }))).toEqual([
      '关联企业不能与核心企业相同',
    ]);
    expect(msg(relationSaveSchema.safeParse({ ...base, endDate: '2025-12-31' }))).toEqual([
      '失效日期不能早于生效日期',
    ]);
    expect(msg(relationSaveSchema.safeParse({ ...base, bizCode: '000000000009' }))).toEqual([
      '版本号不能为空',
    ]);
  });

  it('normalises an ID card number and checks mobile and share ratios', () => {
    const r = employeeSaveSchema.parse({
      compCode: '000000000001',
      userName: ' 张三 ',
      mobile: '13800138000',
      idCardNo: '11010519491231002x',
    });
    expect(r).toMatchObject({ userName: '张三', idCardNo: '11010519491231002X' });
    expect(
      msg(employeeSaveSchema.safeParse({ compCode: '000000000001', userName: '张三', mobile: '12345' })),
    ).toEqual(['手机号格式不正确']);
    const add = { compCode: '000000000001', actualController: '张三', shareholders: [] as unknown[] };
    const holder = (ratio: string) => ({ holderName: '甲', holderType: 'person', ratio });
    expect(addSaveSchema.safeParse({ ...add, shareholders: [holder('100')] }).success).toBe(true);
    expect(msg(addSaveSchema.safeParse({ ...add, shareholders: [holder('100.5')] }))).toEqual([
      '持股比例必须大于0且不超过100',
    ]);
    expect(msg(addSaveSchema.safeParse({ ...add, shareholders: [holder('0')] }))).toEqual([
      '持股比例必须大于0且不超过100',
    ]);
  });
});

describe('crm delete and code queries', () => {
  it('names the code per route and requires the version of a delete', () => {
    expect(msg(relationCodeQuery.safeParse({ bizCode: '12' }))).toEqual(['关系编号必须是12位数字编号']);
    expect(msg(accountBizCodeQuery.safeParse({}))).toEqual(['账户编号不能为空']);
    expect(msg(deleteVersionBody.safeParse({}))).toEqual(['版本号不能为空']);
    expect(deleteVersionBody.parse({ version: 3 })).toEqual({ version: 3 });
  });
});
