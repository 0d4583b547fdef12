import { useEffect, useState } from 'react';
import { z } from 'zod';
import { Cascader, Col, Form, Input, Row, Select } from 'antd';
import { type CompanyAdd, type CompanyView, companyAddSchema } from '@portal/contract/company';
import { usccProblem } from '@portal/contract/uscc';
import { DateInput } from '../form/DateInput';
import { MoneyInput } from '../form/MoneyInput';
import { fieldRules, zodRule } from '../form/zod-rule';
import { useLinkage } from '../geo/linkage';
import { checkUscc, findSupComp, useInfoDict } from './api';

/** The form values of a customer's own fields (企业客户编辑, CRM 基本信息). */
export interface CompanyFormValues {
  compName: string;
  usccCode: string;
  compType: CompanyAdd['compType'];
  roles: CompanyAdd['roles'];
  legalPerson: string;
  regCapital: string;
  /** 'YYYY-MM-DD' (DateInput). */
  establishDate?: string | undefined;
  region: string[];
  address?: string;
  industry?: CompanyAdd['industry'];
  contactName?: string;
  contactPhone?: string;
  contactEmail?: string;
  parentCompCode?: string;
  remark?: string;
}

export const NEW_COMPANY_VALUES: Partial<CompanyFormValues> = { roles: [], compType: 'private', region: [] };

export function companyToForm(v: CompanyView): CompanyFormValues {
  return {
    compName: v.compName,
    usccCode: v.usccCode,
    compType: v.compType,
    roles: v.roles,
    legalPerson: v.legalPerson,
    regCapital: v.regCapital,
    establishDate: v.establishDate ?? undefined,
    region: [v.provinceCode, v.cityCode, v.areaCode].filter((c): c is string => !!c),
    address: v.address ?? undefined,
    industry: v.industry ?? undefined,
    contactName: v.contactName ?? undefined,
    contactPhone: v.contactPhone ?? undefined,
    contactEmail: v.contactEmail ?? undefined,
    parentCompCode: v.parentCompCode ?? undefined,
    remark: v.remark ?? undefined,
  };
}

/** The add / update body (without files, code and version) from the form values. */
export function companyBody(v: CompanyFormValues): CompanyAdd {
  return {
    compName: v.compName,
    usccCode: v.usccCode,
    compType: v.compType,
    roles: v.roles,
    legalPerson: v.legalPerson,
    regCapital: v.regCapital,
    establishDate: v.establishDate || undefined,
    provinceCode: v.region[0] ?? '',
    cityCode: v.region[1],
    areaCode: v.region[2],
    address: v.address,
    industry: v.industry,
    contactName: v.contactName,
    contactPhone: v.contactPhone,
    contactEmail: v.contactEmail,
    parentCompCode: v.parentCompCode,
    remark: v.remark,
  };
}

const rules = fieldRules(companyAddSchema);
/** The cascader's path is checked as the body's 所在省份 / 所在城市 / 所在区县 (companyBody). */
export const regionRule = zodRule(
  z.preprocess(
    (v) => (Array.isArray(v) ? { provinceCode: v[0], cityCode: v[1], areaCode: v[2] } : {}),
    companyAddSchema.pick({ provinceCode: true, cityCode: true, areaCode: true }),
  ),
);

const options = (items?: { code: string; label: string }[]) =>
  items?.map((d) => ({ value: d.code, label: d.label }));

/**
 * The customer's fields, to be placed inside a <Form> whose values are CompanyFormValues: name,
 * USCC (checksum, then taken-by-another on blur), type, roles, legal person, capital, date,
 * region cascader, address, industry, the parent picker (`withParent`), contacts and remark.
 */
export function CompanyFields({
  compCode,
  withParent = false,
  initialParent,
}: {
  /** The customer being edited (its own USCC and itself are not "another"). */
  compCode?: string | undefined;
  withParent?: boolean;
  initialParent?: { value: string; label: string } | undefined;
}) {
  const dict = useInfoDict().data;
  const linkage = useLinkage().data ?? [];
  const [parents, setParents] = useState<{ value: string; label: string }[]>([]);
  // The saved parent shows by its name even before any search (it may arrive after mount).
  const parentValue = initialParent?.value;
  const parentLabel = initialParent?.label;
  useEffect(() => {
    if (parentValue) setParents([{ value: parentValue, label: parentLabel ?? parentValue }]);
  }, [parentValue, parentLabel]);
  const searchParents = async (name: string) => {
    const found = await findSupComp(name).catch(() => []);
    setParents(
      found.filter((f) => f.compCode !== compCode).map((f) => ({ value: f.compCode, label: f.compName })),
    );
  };

  return (
    <Row gutter={24}>
      <Col span={12}>
        <Form.Item name="compName" label="企业名称" rules={rules.compName}>
          <Input placeholder="请输入企业全称" maxLength={100} />
        </Form.Item>
      </Col>
      <Col span={12}>
        <Form.Item
          name="usccCode"
          label="统一社会信用代码"
          validateTrigger="onBlur"
          normalize={(v: string) => v?.toUpperCase().trim()}
          rules={[
            ...rules.usccCode,
            {
              // Only a code the schema takes is asked about: taken by another customer.
              validator: async (_, v: string | undefined) => {
                if (!v || usccProblem(v)) return;
                const hit = await checkUscc(v, compCode);
                if (hit.exists) throw new Error(`统一社会信用代码已被企业「${hit.compName ?? ''}」使用`);
              },
            },
          ]}
        >
          <Input placeholder="18位统一社会信用代码" maxLength={18} />
        </Form.Item>
      </Col>
      <Col span={8}>
        <Form.Item name="compType" label="企业类型" rules={rules.compType}>
          <Select options={options(dict?.compTypes)} />
        </Form.Item>
      </Col>
      <Col span={16}>
        <Form.Item name="roles" label="客户角色" rules={rules.roles}>
          <Select mode="multiple" placeholder="可多选" options={options(dict?.roles)} />
        </Form.Item>
      </Col>
      <Col span={8}>
        <Form.Item name="legalPerson" label="法定代表人" rules={rules.legalPerson}>
          <Input maxLength={50} />
        </Form.Item>
      </Col>
      <Col span={8}>
        <Form.Item name="regCapital" label="注册资本（元）" rules={rules.regCapital}>
          <MoneyInput placeholder="如 10,000,000.00" style={{ width: '100%' }} />
        </Form.Item>
      </Col>
      <Col span={8}>
        <Form.Item name="establishDate" label="成立日期" rules={rules.establishDate}>
          <DateInput allowClear style={{ width: '100%' }} />
        </Form.Item>
      </Col>
      <Col span={12}>
        <Form.Item name="region" label="所在地区" rules={[regionRule]}>
          <Cascader options={linkage} changeOnSelect placeholder="省 / 市 / 区" showSearch />
        </Form.Item>
      </Col>
      <Col span={12}>
        <Form.Item name="address" label="详细地址" rules={rules.address}>
          <Input maxLength={200} />
        </Form.Item>
      </Col>
      <Col span={8}>
        <Form.Item name="industry" label="所属行业" rules={rules.industry}>
          <Select allowClear showSearch optionFilterProp="label" options={options(dict?.industries)} />
        </Form.Item>
      </Col>
      {withParent ? (
        <Col span={16}>
          <Form.Item name="parentCompCode" label="上级企业 / 核心企业" rules={rules.parentCompCode}>
            <Select
              allowClear
              showSearch
              filterOption={false}
              placeholder="输入名称搜索"
              onSearch={(v) => void searchParents(v)}
              onFocus={() => void searchParents('')}
              options={parents}
            />
          </Form.Item>
        </Col>
      ) : null}
      <Col span={8}>
        <Form.Item name="contactName" label="联系人" rules={rules.contactName}>
          <Input maxLength={50} />
        </Form.Item>
      </Col>
      <Col span={8}>
        <Form.Item name="contactPhone" label="联系电话" rules={rules.contactPhone}>
          <Input maxLength={30} />
        </Form.Item>
      </Col>
      <Col span={8}>
        <Form.Item name="contactEmail" label="联系邮箱" rules={rules.contactEmail}>
          <Input maxLength={100} />
        </Form.Item>
      </Col>
      <Col span={24}>
        <Form.Item name="remark" label="备注" rules={rules.remark}>
          <Input.TextArea rows={2} maxLength={500} />
        </Form.Item>
      </Col>
    </Row>
  );
}
