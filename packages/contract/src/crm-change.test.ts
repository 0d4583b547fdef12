import { describe, expect, it } from 'vitest';
import {
  changedFields,
  companyHistoryListSchema,
  managerCandidateListSchema,
  infoChangeSaveSchema,
  isValidIdCardNo,
  managerChangeSaveSchema,
  type CompanyValues,
} from './crm-change';

const values: CompanyValues = {
  compName: '甲有限公司',
  usccCode: '91310115MA1K4Q1X5C',
  legalPerson: '王五',
  regCapital: '100.00',
  establishDate: null,
  compType: 'private',
  provinceCode: '310000',
  cityCode: null,
  areaCode: null,
  address: null,
  industry: null,
  roles: ['supplier'],
  contactName: null,
  contactPhone: null,
  contactEmail: null,
  remark: null,
};

describe('crm change contract', () => {
  it('checks resident id numbers (GB 11643 check character)', () => {
    expect(isValidIdCardNo('310115198001010016')).toBe(true);
    expect(isValidIdCardNo('310115198001010017')).toBe(false);
    expect(isValidIdCardNo('11010519491231002X')).toBe(true);
    expect(isValidIdCardNo('11010519491231002x')).toBe(false);
    expect(isValidIdCardNo('3101151980010100')).toBe(false);
  });

  it('compares money exactly and blanks as equal', () => {
    expect(changedFields(values, { ...values, regCapital: '100' })).toEqual([]);
    expect(changedFields(values, { ...values, regCapital: '100.01' })).toEqual(['regCapital']);
    expect(changedFields(values, { ...values, remark: '' })).toEqual([]);
    expect(changedFields(values, { ...values, roles: ['supplier', 'core'] })).toEqual(['roles']);
  });

  it('names the field in Chinese when a body is wrong', () => {
    const info = infoChangeSaveSchema.safeParse({ compCode: '1', ...values });
    expect(info.success).toBe(false);
    expect(info.error?.issues[0]?.message).toBe('企业客户必须是12位数字编号');
    const mg = managerChangeSaveSchema.safeParse({
      compCode: '000000000001',
      kind: 'new',
      newUserName: '新人',
      newMobile: '13800138000',
      reason: '离职',
    });
    expect(mg.error?.issues.map((i) => i.message)).toEqual(['新管理员身份证号不能为空']);
    const ok = managerChangeSaveSchema.safeParse({
      compCode: '000000000001',
      kind: 'new',
      newUserName: '新人',
      newMobile: '13800138000',
      newIdCardNo: '11010519491231002x',
      reason: '离职',
    });
    expect(ok.success && ok.data.newIdCardNo).toBe('11010519491231002X');
  });
});

describe('paged history and candidate lists', () => {
  it('take a page and the customer, naming the missing field', () => {
    const h = companyHistoryListSchema.safeParse({ pageNum: 2, pageSize: 10 });
    expect(h.success ? '' : h.error.issues[0]?.message).toBe('企业客户不能为空');
    const ok = companyHistoryListSchema.parse({ compCode: '000000000001', changeType: '' });
    expect([ok.pageNum, ok.pageSize, ok.changeType]).toEqual([1, 20, undefined]);
    const big = managerCandidateListSchema.safeParse({ compCode: '000000000001', pageSize: 1000 });
    expect(big.success).toBe(false);
    const c = managerCandidateListSchema.parse({ compCode: '000000000001', keyword: '  张 ' });
    expect(c.keyword).toBe('张');
  });
});
