import { Col, Form, Input, Select, Switch } from 'antd';
import { CURRENCIES, CURRENCY_LABELS, PURPOSE_LABELS, PURPOSES, bankSaveSchema } from '@portal/contract/bank';
import { fieldRules } from '../form/zod-rule';
import { useBankDict } from './bank-dict';

const rules = fieldRules(bankSaveSchema);

const opts = <K extends string>(keys: readonly K[], labels: Record<K, string>) =>
  keys.map((k) => ({ value: k, label: labels[k] }));

/**
 * The fields of one bank account (开户银行 … 备注) as columns for a <Row> inside a <Form>: the
 * factoring bank list's editor and the CRM account tab and bank editor share them. The owner
 * fields stay with each screen.
 */
export function AccountFields() {
  const banks = useBankDict().data ?? [];
  return (
    <>
      <Col span={12}>
        <Form.Item name="bankCode" label="开户银行" rules={rules.bankCode}>
          <Select
            showSearch
            optionFilterProp="label"
            options={banks.map((b) => ({ value: b.code, label: `${b.label}（${b.code}）` }))}
          />
        </Form.Item>
      </Col>
      <Col span={12}>
        <Form.Item name="branchName" label="开户网点" rules={rules.branchName}>
          <Input maxLength={100} />
        </Form.Item>
      </Col>
      <Col span={12}>
        <Form.Item name="accountName" label="账户名称" rules={rules.accountName}>
          <Input maxLength={100} />
        </Form.Item>
      </Col>
      <Col span={12}>
        <Form.Item
          name="accountNo"
          label="银行账号"
          normalize={(v: string) => v?.replace(/\s+/g, '')}
          rules={rules.accountNo}
        >
          <Input maxLength={30} />
        </Form.Item>
      </Col>
      <Col span={8}>
        <Form.Item name="currency" label="币种" rules={rules.currency}>
          <Select options={opts(CURRENCIES, CURRENCY_LABELS)} />
        </Form.Item>
      </Col>
      <Col span={8}>
        <Form.Item name="purpose" label="账户用途" rules={rules.purpose}>
          <Select options={opts(PURPOSES, PURPOSE_LABELS)} />
        </Form.Item>
      </Col>
      <Col span={8}>
        <Form.Item name="isDefault" label="设为默认" valuePropName="checked" rules={rules.isDefault}>
          <Switch />
        </Form.Item>
      </Col>
      <Col span={24}>
        <Form.Item name="remark" label="备注" rules={rules.remark}>
          <Input.TextArea rows={2} maxLength={500} />
        </Form.Item>
      </Col>
    </>
  );
}
