import { describe, expect, it } from 'vitest';
import type { CompanyView } from '@portal/contract/company';
import { companyBody, companyToForm } from './CompanyFields';

const view: CompanyView = {
  compCode: '000000000001',
  companyBizCode: '000000000001',
  compName: '测试企业有限公司',
  usccCode: '91310115MC2000001X',
  compType: 'private',
  roles: ['core'],
  legalPerson: '王五',
  regCapital: '5000000.00',
  establishDate: '2020-05-06',
  provinceCode: '310000',
  cityCode: '310100',
  areaCode: null,
  regionName: '上海市',
  address: null,
  industry: null,
  contactName: '李四',
  contactPhone: null,
  contactEmail: null,
  parentCompCode: '000000000009',
  parentCompName: '上级企业',
  state: 'enabled',
  admission: 'admitted',
  admissionCode: null,
  remark: null,
  version: 3,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  files: [],
};

describe('CompanyFields values', () => {
  it('turns a saved customer into form values and back into the same body', () => {
    const form = companyToForm(view);
    expect(form.region).toEqual(['310000', '310100']);
    expect(form.establishDate).toBe('2020-05-06');
    expect(companyBody(form)).toEqual({
      compName: '测试企业有限公司',
      usccCode: '91310115MC2000001X',
      compType: 'private',
      roles: ['core'],
      legalPerson: '王五',
      regCapital: '5000000.00',
      establishDate: '2020-05-06',
      provinceCode: '310000',
      cityCode: '310100',
      areaCode: undefined,
      address: undefined,
      industry: undefined,
      contactName: '李四',
      contactPhone: undefined,
      contactEmail: undefined,
      parentCompCode: '000000000009',
      remark: undefined,
    });
  });
});
