import { useState } from 'react';
import { Col, Form, Input, Modal, Radio, Row, Select, Tag } from 'antd';
import {
  CURRENCY_LABELS,
  formatAccountNo,
  OWNER_TYPE_LABELS,
  OWNER_TYPES,
  PURPOSE_LABELS,
  PURPOSES,
  type BankAccountView,
  type BankSave,
  BANK_PATHS,
  bankSaveSchema,
} from '@portal/contract/bank';
import { button } from '@portal/contract/menus';
import { actionsColumn } from '../../shared/list/RowActions';
import { ListPage } from '../../shared/list/ListPage';
import { codeColumn } from '../../shared/list/columns';
import { KEY, type ListColumn } from '../../shared/list/fit-columns';
import type { ScreenProps } from '../../shared/ui/screen';
import { AccountFields } from '../../shared/bank/AccountFields';
import { formRules } from '../../shared/form/zod-rule';
import { useCompanyDict } from '../../shared/company/api';
import { deleteAccount, saveAccount, setDefaultAccount, useBankDict } from './api';
import { AddButton } from '../../shared/list/AddButton';

const MENU = 'ft-bank';
/** bankSaveSchema's rules; 所属客户 is required for a customer's account by its superRefine. */
const rules = formRules(bankSaveSchema);
const opts = <K extends string>(keys: readonly K[], labels: Record<K, string>) =>
  keys.map((k) => ({ value: k, label: labels[k] }));

function AccountForm({ editing, onClose }: { editing: BankAccountView | 'new'; onClose: () => void }) {
  const [form] = Form.useForm<BankSave>();
  const customers = useCompanyDict(true).data ?? [];
  const ownerType = Form.useWatch('ownerType', form);
  const [saving, setSaving] = useState(false);
  const current = editing === 'new' ? undefined : editing;
  const submit = async (v: BankSave) => {
    setSaving(true);
    try {
      const body: BankSave = {
        ...v,
        ownerCode: v.ownerType === 'customer' ? v.ownerCode : undefined,
        ...(current ? { bizCode: current.bizCode, version: current.version } : {}),
      };
      const r = await saveAccount(body);
      if (r.ok) onClose();
    } catch {
      // warned by the request layer
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open
      title={current ? '编辑银行账户' : '新增银行账户'}
      width={720}
      okText="保存"
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form<BankSave>
        name="bankAccount"
        form={form}
        layout="vertical"
        initialValues={
          current
            ? { ...current, ownerCode: current.ownerCode ?? undefined, remark: current.remark ?? undefined }
            : { ownerType: 'customer', currency: 'CNY', purpose: 'collect', isDefault: false }
        }
        onFinish={(v) => void submit(v)}
      >
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item name="ownerType" label="账户归属" rules={rules.ownerType}>
              <Radio.Group options={opts(OWNER_TYPES, OWNER_TYPE_LABELS)} />
            </Form.Item>
          </Col>
          <Col span={12}>
            {ownerType === 'customer' ? (
              <Form.Item name="ownerCode" label="所属客户" required rules={rules.ownerCode}>
                <Select
                  showSearch
                  optionFilterProp="label"
                  options={customers.map((c) => ({ value: c.code, label: c.label }))}
                />
              </Form.Item>
            ) : null}
          </Col>
          <AccountFields />
        </Row>
      </Form>
    </Modal>
  );
}

/** 银行账户: list, add/edit, 设为默认 and delete, each with confirmation. */
export default function BankListPage(_props: ScreenProps) {
  const banks = useBankDict().data ?? [];
  const customers = useCompanyDict(true).data ?? [];
  const [editing, setEditing] = useState<BankAccountView | 'new' | null>(null);

  const columns: ListColumn<BankAccountView>[] = [
    codeColumn('账户编号', 'bizCode', { width: 130 }),
    { title: '账户归属', dataIndex: 'ownerName', key: 'ownerName', ellipsis: true },
    { title: '开户银行', dataIndex: 'bankName', key: 'bankName', width: 140 },
    { title: '开户网点', dataIndex: 'branchName', key: 'branchName', ellipsis: true },
    { title: '账户名称', dataIndex: 'accountName', key: 'accountName', ellipsis: true },
    {
      title: '银行账号',
      dataIndex: 'accountNo',
      key: 'accountNo',
      width: 220,
      priority: KEY,
      render: (v: string) => formatAccountNo(v),
    },
    {
      title: '币种',
      dataIndex: 'currency',
      key: 'currency',
      width: 80,
      render: (v: BankAccountView['currency']) => CURRENCY_LABELS[v],
    },
    {
      title: '用途',
      dataIndex: 'purpose',
      key: 'purpose',
      width: 100,
      render: (v: BankAccountView['purpose']) => PURPOSE_LABELS[v],
    },
    {
      title: '默认',
      dataIndex: 'isDefault',
      key: 'isDefault',
      width: 70,
      priority: KEY,
      render: (v: boolean) => (v ? <Tag color="blue">默认</Tag> : null),
    },
    actionsColumn<BankAccountView>((row) => [
      { label: '编辑', code: button(MENU, 'save'), onClick: () => setEditing(row) },
      {
        label: '设为默认',
        code: button(MENU, 'setDefault'),
        hidden: row.isDefault,
        onClick: () => void setDefaultAccount(row).catch(() => null),
      },
      {
        label: '删除',
        code: button(MENU, 'delete'),
        danger: true,
        onClick: () => void deleteAccount(row).catch(() => null),
      },
    ]),
  ];

  return (
    <>
      <ListPage<BankAccountView>
        source={BANK_PATHS.list}
        rowKey="bizCode"
        columns={columns}
        tableProps={{ scroll: { x: 1400 }, size: 'middle' }}
        filters={
          <>
            <Form.Item name="ownerType" label="账户归属">
              <Select
                allowClear
                placeholder="全部"
                style={{ width: 110 }}
                options={opts(OWNER_TYPES, OWNER_TYPE_LABELS)}
              />
            </Form.Item>
            <Form.Item name="ownerCode" label="所属客户">
              <Select
                allowClear
                showSearch
                optionFilterProp="label"
                placeholder="全部"
                style={{ width: 200 }}
                options={customers.map((c) => ({ value: c.code, label: c.label }))}
              />
            </Form.Item>
            <Form.Item name="bankCode" label="开户银行">
              <Select
                allowClear
                showSearch
                optionFilterProp="label"
                placeholder="全部"
                style={{ width: 160 }}
                options={banks.map((b) => ({ value: b.code, label: b.label }))}
              />
            </Form.Item>
            <Form.Item name="accountName" label="账户名称">
              <Input allowClear style={{ width: 160 }} />
            </Form.Item>
            <Form.Item name="accountNo" label="银行账号">
              <Input allowClear style={{ width: 180 }} />
            </Form.Item>
            <Form.Item name="purpose" label="用途">
              <Select
                allowClear
                placeholder="全部"
                style={{ width: 120 }}
                options={opts(PURPOSES, PURPOSE_LABELS)}
              />
            </Form.Item>
          </>
        }
        toolbar={<AddButton code={button(MENU, 'add')} onClick={() => setEditing('new')} />}
      />
      {editing ? <AccountForm editing={editing} onClose={() => setEditing(null)} /> : null}
    </>
  );
}
