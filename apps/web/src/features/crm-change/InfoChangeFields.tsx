import type { ReactNode } from 'react';
import { Cascader, Col, Form, Input, Row, Select, type FormItemProps } from 'antd';
import { COMPANY_INFO_DICT, companyAddSchema } from '@portal/contract/company';
import type { ChangeField } from '@portal/contract/crm-change';
import { DateInput } from '../../shared/form/DateInput';
import { MoneyInput } from '../../shared/form/MoneyInput';
import { fieldRules } from '../../shared/form/zod-rule';
import { regionRule } from '../../shared/company/CompanyFields';
import { displayValue } from './diff';
import { toValues, type Draft } from './info-draft';

// The 企业信息变更 editor's fields, tab by tab, each with the customer's 原值 under it once changed.

/** The company schema's rule of each changeable field (the server checks the change with it). */
const companyRules = fieldRules(companyAddSchema);

const dictOptions = (items: { code: string; label: string }[]) =>
  items.map((d) => ({ value: d.code, label: d.label }));

/** 原值 under a field whose value differs from the customer's (snapshot) value. */
function OldValue({ draft, field }: { draft: Draft | undefined; field: ChangeField }) {
  if (!draft) return null;
  const now = toValues(draft.values);
  const before = displayValue(field, draft.before);
  if (displayValue(field, now) === before) return null;
  return <span style={{ color: '#d46b08' }}>原值：{before || '（空）'}</span>;
}

/** One changeable field in its column, its 原值 under it. */
function ChangeItem({
  draft,
  field,
  span,
  children,
  ...item
}: Omit<FormItemProps, 'name' | 'extra' | 'children'> & {
  draft: Draft;
  field: ChangeField;
  span: number;
  children: ReactNode;
}) {
  return (
    <Col span={span}>
      <Form.Item
        name={field}
        extra={<OldValue draft={draft} field={field} />}
        rules={companyRules[field]}
        {...item}
      >
        {children}
      </Form.Item>
    </Col>
  );
}

export function AtInfoFields({
  draft,
  linkage,
}: {
  draft: Draft;
  linkage: { value: string; label: string }[];
}) {
  return (
    <Row gutter={24}>
      <ChangeItem draft={draft} span={12} field="compName" label="企业名称">
        <Input maxLength={100} />
      </ChangeItem>
      <ChangeItem
        draft={draft}
        span={12}
        field="usccCode"
        label="统一社会信用代码"
        normalize={(v: string) => v?.toUpperCase().trim()}
        rules={companyRules.usccCode}
      >
        <Input maxLength={18} />
      </ChangeItem>
      <ChangeItem draft={draft} span={8} field="legalPerson" label="法定代表人">
        <Input maxLength={50} />
      </ChangeItem>
      <ChangeItem draft={draft} span={8} field="regCapital" label="注册资本（元）">
        <MoneyInput style={{ width: '100%' }} />
      </ChangeItem>
      <ChangeItem draft={draft} span={8} field="establishDate" label="成立日期">
        <DateInput allowClear style={{ width: '100%' }} />
      </ChangeItem>
      <ChangeItem draft={draft} span={8} field="compType" label="企业类型">
        <Select options={dictOptions(COMPANY_INFO_DICT.compTypes)} />
      </ChangeItem>
      <Col span={16}>
        <Form.Item name="region" label="所在地区" rules={[regionRule]}>
          <Cascader options={linkage} changeOnSelect placeholder="省 / 市 / 区" showSearch />
        </Form.Item>
      </Col>
      <ChangeItem draft={draft} span={24} field="address" label="详细地址">
        <Input maxLength={200} />
      </ChangeItem>
    </Row>
  );
}

export function OtherInfoFields({ draft }: { draft: Draft }) {
  return (
    <Row gutter={24}>
      <ChangeItem draft={draft} span={8} field="industry" label="所属行业">
        <Select
          allowClear
          showSearch
          optionFilterProp="label"
          options={dictOptions(COMPANY_INFO_DICT.industries)}
        />
      </ChangeItem>
      <ChangeItem draft={draft} span={16} field="roles" label="客户角色">
        <Select mode="multiple" options={dictOptions(COMPANY_INFO_DICT.roles)} />
      </ChangeItem>
      <ChangeItem draft={draft} span={8} field="contactName" label="联系人">
        <Input maxLength={50} />
      </ChangeItem>
      <ChangeItem draft={draft} span={8} field="contactPhone" label="联系电话">
        <Input maxLength={30} />
      </ChangeItem>
      <ChangeItem draft={draft} span={8} field="contactEmail" label="联系邮箱">
        <Input maxLength={100} />
      </ChangeItem>
      <ChangeItem draft={draft} span={24} field="remark" label="备注">
        <Input.TextArea rows={2} maxLength={500} />
      </ChangeItem>
    </Row>
  );
}
