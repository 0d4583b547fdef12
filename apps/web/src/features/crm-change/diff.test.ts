import { describe, expect, it } from 'vitest';
import { changedFields, type CompanyValues } from '@portal/contract/crm-change';
import { diffRows } from './diff';

const before: CompanyValues = {
  compName: '甲有限公司',
  usccCode: '91310115MA1K4Q1X5C',
  legalPerson: '王五',
  regCapital: '10000000.00',
  establishDate: '2015-06-01',
  compType: 'private',
  provinceCode: '310000',
  cityCode: '310100',
  areaCode: '310115',
  address: null,
  industry: 'F',
  roles: ['supplier', 'core'],
  contactName: '张三',
  contactPhone: null,
  contactEmail: null,
  remark: null,
};

describe('change diff rows', () => {
  it('marks changed fields, compares money exactly and roles as a set, and folds the region', () => {
    const after: CompanyValues = {
      ...before,
      regCapital: '10000000.0',
      roles: ['core', 'supplier'],
      areaCode: '310104',
      industry: 'C',
      legalPerson: '李四',
    };
    const changed = changedFields(before, after);
    expect(changed).toEqual(['legalPerson', 'areaCode', 'industry']);
    const rows = diffRows({
      before,
      after,
      beforeRegion: '上海市 / 浦东新区',
      afterRegion: '上海市 / 徐汇区',
      changedFields: changed,
    });
    const byKey = Object.fromEntries(rows.map((r) => [r.key, r]));
    expect(rows.map((r) => r.key)).not.toContain('cityCode');
    expect(byKey.region).toMatchObject({ section: 'at-info', changed: true, after: '上海市 / 徐汇区' });
    expect(byKey.regCapital).toMatchObject({ changed: false, before: '10,000,000.00' });
    expect(byKey.industry).toMatchObject({
      section: 'other-info',
      before: '批发和零售业',
      after: '制造业',
      changed: true,
    });
    expect(byKey.roles).toMatchObject({ changed: false });
    expect(byKey.compType!.before).toBe('民营企业');
    // 认证信息 rows first, then 其他信息.
    const sections = rows.map((r) => r.section);
    expect(sections.indexOf('other-info')).toBeGreaterThan(sections.lastIndexOf('at-info'));
  });
});
