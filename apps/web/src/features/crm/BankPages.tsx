import { useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Empty, Form, Input, Select, Space, Table, type TableColumnsType } from 'antd';
import { BANK_PATHS, type BankAccountView } from '@portal/contract/bank';
import { CRM_PATHS, REG_STATE_LABELS, type CompUserRow } from '@portal/contract/crm';
import { button } from '@portal/contract/menus';
import { useCompanyDict } from '../../shared/company/api';
import { UnsavedInput } from '../../shared/editor/UnsavedInput';
import { InputGate } from '../../shared/editor/fill-gate';
import { useFormFill } from '../../shared/editor/use-form-fill';
import { AddButton } from '../../shared/list/AddButton';
import { ListPage } from '../../shared/list/ListPage';
import { actionsColumn } from '../../shared/list/RowActions';
import { updateThen } from '../../shared/list/update-then';
import { codeColumn } from '../../shared/list/columns';
import { Auth } from '../../shared/permission/Auth';
import type { ScreenProps } from '../../shared/ui/screen';
import { AccountFields, accountToForm, type AccountValues } from './corporation/AccountFields';
import { BANK_EDIT_PATH, BANK_VIEW_PATH, change, CRM_MENUS, crmKeys, crmQueries } from './api';
import { CompUserSelect, userLabel } from './CompUserSelect';
import { ACCOUNT_PURPOSE_COLUMNS } from './corporation/account-columns';
import { validValues } from '../../shared/ui/valid-values';

/** Only enabled users whose registration passed can operate an account. */
const operatorOption = (u: CompUserRow) => ({
  disabled: u.state !== 'enabled' || u.regState !== 'approved',
  title: u.regState !== 'approved' ? `注册${REG_STATE_LABELS[u.regState]}` : undefined,
});

const isView = (meta: ScreenProps['meta']) => (meta.tabOf ?? meta.path).startsWith(BANK_VIEW_PATH);
const useBizCode = () => useSearchParams()[0].get('bizCode') ?? undefined;

function useAccount(bizCode: string | undefined) {
  return useQuery(crmQueries.bankAccount(bizCode));
}

/** 银行信息管理 (crm-cor-bank): every customer bank account, server-paged. */
export function BankListPage(_props: ScreenProps) {
  const navigate = useNavigate();
  const customers = useCompanyDict().data ?? [];
  const act = (path: string, row: BankAccountView, confirm: string) =>
    void updateThen(path, undefined, { query: { bizCode: row.bizCode }, confirm });
  const columns: TableColumnsType<BankAccountView> = [
    codeColumn('账户编号', 'bizCode', { width: 130 }),
    { title: '所属客户', dataIndex: 'ownerName', key: 'ownerName', width: 220, ellipsis: true },
    { title: '开户银行', dataIndex: 'bankName', key: 'bankName', width: 150 },
    { title: '账户名称', dataIndex: 'accountName', key: 'accountName', width: 200 },
    { title: '银行账号', dataIndex: 'accountNo', key: 'accountNo', width: 190 },
    ...ACCOUNT_PURPOSE_COLUMNS,
    actionsColumn<BankAccountView>((row) => [
      {
        label: '查看',
        onClick: () => navigate(`${BANK_VIEW_PATH}/basic-info?bizCode=${row.bizCode}`),
      },
      {
        label: '编辑',
        code: button(CRM_MENUS.bank, 'save'),
        onClick: () => navigate(`${BANK_EDIT_PATH}/basic-info?bizCode=${row.bizCode}`),
      },
      {
        label: '设为默认',
        code: button(CRM_MENUS.bank, 'setDefault'),
        hidden: row.isDefault,
        onClick: () => act(BANK_PATHS.setDefault, row, `确定将账户 ${row.accountNo} 设为默认吗？`),
      },
      {
        label: '删除',
        code: button(CRM_MENUS.bank, 'delete'),
        danger: true,
        onClick: () => act(BANK_PATHS.del, row, `确定要删除账户 ${row.accountNo} 吗？`),
      },
    ]),
  ];
  return (
    <div data-testid="crm-bank-list">
      <ListPage<BankAccountView>
        source={BANK_PATHS.list}
        queryKey={crmKeys.list(BANK_PATHS.list)}
        initialFilters={{ ownerType: 'customer' }}
        toFilters={(v) => ({ ...v, ownerType: 'customer' })}
        rowKey="bizCode"
        columns={columns}
        tableProps={{ size: 'middle', scroll: { x: 1400 } }}
        filters={
          <>
            <Form.Item name="ownerCode" label="所属客户">
              <Select
                allowClear
                showSearch
                optionFilterProp="label"
                style={{ width: 220 }}
                options={customers.map((c) => ({ value: c.code, label: c.label }))}
              />
            </Form.Item>
            <Form.Item name="accountName" label="账户名称">
              <Input allowClear style={{ width: 160 }} />
            </Form.Item>
            <Form.Item name="accountNo" label="银行账号">
              <Input allowClear style={{ width: 180 }} />
            </Form.Item>
          </>
        }
        toolbar={
          <AddButton
            code={button(CRM_MENUS.bank, 'add')}
            onClick={() => navigate(`${BANK_EDIT_PATH}/basic-info`)}
          />
        }
      />
    </div>
  );
}

/** bank-editor / bank-view basic-info: one customer account. */
export function BankBasicTab({ meta }: ScreenProps) {
  const readOnly = isView(meta);
  const bizCode = useBizCode();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const account = useAccount(bizCode);
  const customers = useCompanyDict().data ?? [];
  const [owner, setOwner] = useState<string | undefined>();
  const [form] = Form.useForm<AccountValues>();
  const [saving, setSaving] = useState(false);

  // Once per record, not from a plain effect: the tab kept while 授权企业用户 shows runs its effects
  // again when it comes back, and would put the record over typed input (docs/architecture.md
  // "Editors keep their input").
  useFormFill(account, (a) => {
    setOwner(a.ownerCode ?? undefined);
    form.setFieldsValue(accountToForm(a));
  });

  const save = async () => {
    const v = await validValues(form);
    if (!v) return;
    if (!owner) return;
    setSaving(true);
    try {
      const r = await change<{ bizCode: string }>(BANK_PATHS.save, {
        ...v,
        ownerType: 'customer',
        ownerCode: owner,
        ...(account.data ? { bizCode: account.data.bizCode, version: account.data.version } : {}),
      });
      if (r.ok && r.data) {
        await queryClient.invalidateQueries({ queryKey: crmKeys.part('bank') });
        if (!bizCode) navigate(`${BANK_EDIT_PATH}/basic-info?bizCode=${r.data.bizCode}`, { replace: true });
      }
    } catch {
      // the request layer has warned
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card title="银行账户基本信息" className="crm-tab" data-testid="crm-bank-basic">
      {/* The unsaved-input guard of the editors: leaving the record with typed input asks first. */}
      <UnsavedInput>
        <Form layout="vertical" disabled={readOnly || !!bizCode}>
          <Form.Item label="所属客户" required validateStatus={owner ? undefined : 'warning'}>
            <Select
              aria-label="所属客户"
              showSearch
              optionFilterProp="label"
              value={owner}
              onChange={setOwner}
              options={customers.map((c) => ({ value: c.code, label: c.label }))}
              placeholder="请选择客户"
            />
          </Form.Item>
        </Form>
        <AccountFields form={form} disabled={readOnly} />
      </UnsavedInput>
      {readOnly ? null : (
        <Auth code={button(CRM_MENUS.bank, bizCode ? 'save' : 'add')}>
          <Button
            type="primary"
            loading={saving}
            disabled={!owner}
            onClick={() => void save().catch(() => undefined)}
          >
            保存
          </Button>
        </Auth>
      )}
    </Card>
  );
}

/** bank-editor / bank-view employee: the enterprise users authorised to operate the account. */
export function BankEmployeeTab({ meta }: ScreenProps) {
  const readOnly = isView(meta);
  const bizCode = useBizCode();
  const queryClient = useQueryClient();
  const ops = useQuery(crmQueries.bankUsers(bizCode));
  const [chosen, setChosen] = useState<string[]>([]);
  const known = useMemo(
    () => (ops.data?.users ?? []).map((u) => ({ value: u.userCode, label: userLabel(u) })),
    [ops.data],
  );
  useFormFill(ops, (d) => setChosen(d.users.map((u) => u.userCode)));
  const save = async () => {
    const r = await change(CRM_PATHS.bankUserSave, { bizCode, userCodes: chosen }).catch(() => null);
    if (r?.ok) await queryClient.invalidateQueries({ queryKey: crmQueries.bankUsers(bizCode).queryKey });
  };
  const columns: TableColumnsType<CompUserRow> = [
    codeColumn('用户编号', 'userCode', { width: 130 }),
    { title: '姓名', dataIndex: 'userName', key: 'userName', width: 120 },
    { title: '手机号', dataIndex: 'mobile', key: 'mobile', width: 130 },
    { title: '部门', dataIndex: 'deptName', key: 'deptName', width: 120 },
    { title: '岗位', dataIndex: 'post', key: 'post', width: 120 },
    { title: '企业角色', dataIndex: 'roleNames', key: 'roleNames', render: (n: string[]) => n.join('、') },
  ];
  if (!bizCode)
    return (
      <Card title="授权企业用户" className="crm-tab">
        <Empty description="请先保存银行账户基本信息" />
      </Card>
    );
  return (
    <Card title="授权企业用户" className="crm-tab" data-testid="crm-bank-employee">
      {readOnly ? null : (
        <Auth code={button(CRM_MENUS.bank, 'save')}>
          {/* Closed until the authorised users have arrived: a 保存 before them would save none. */}
          <InputGate closed={ops.data === undefined}>
            <Space style={{ marginBottom: 16 }} wrap>
              <CompUserSelect
                aria-label="授权用户"
                style={{ minWidth: 420 }}
                compCode={ops.data?.ownerCode}
                value={chosen}
                onChange={setChosen}
                known={known}
                optionProps={operatorOption}
              />
              <Button type="primary" onClick={() => void save()}>
                保存
              </Button>
            </Space>
          </InputGate>
        </Auth>
      )}
      <Table<CompUserRow>
        rowKey="userCode"
        size="small"
        loading={ops.isFetching}
        columns={columns}
        dataSource={ops.data?.users ?? []}
        pagination={false}
      />
    </Card>
  );
}
