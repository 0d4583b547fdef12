import { useMemo, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import {
  Button,
  Card,
  Col,
  Empty,
  Form,
  Input,
  InputNumber,
  Modal,
  Row,
  Select,
  Space,
  Spin,
  Tag,
  TreeSelect,
  type FormInstance,
  type TableColumnsType,
} from 'antd';
import { PURPOSE_LABELS, type BankAccountView } from '@portal/contract/bank';
import { COMPANY_PATHS, type CompanyAdd, type CompanyView } from '@portal/contract/company';
import {
  CRM_PATHS,
  HOLDER_TYPE_LABELS,
  HOLDER_TYPES,
  REG_STATE_LABELS,
  USER_STATE_LABELS,
  type AccountSave,
  type AddSave,
  type AddView,
  type ApprovalRow,
  type BillSave,
  type BillView,
  type CompRoleRow,
  type CompUserRow,
  type DesSave,
  type DesView,
  type EmployeeSave,
  type RoleSave,
} from '@portal/contract/crm';
import type { FileInfo } from '@portal/contract/files';
import { MONEY_PATTERN } from '@portal/contract/fields';
import { button } from '@portal/contract/menus';
import { AccountFields as SharedAccountFields } from '../../shared/bank/AccountFields';
import {
  CompanyFields,
  companyBody,
  companyToForm,
  NEW_COMPANY_VALUES,
  type CompanyFormValues,
} from '../../shared/company/CompanyFields';
import { FileList } from '../../shared/files/FileList';
import type { FileItem } from '../../shared/files/files-api';
import { ListPage, type ListPageHandle } from '../../shared/list/ListPage';
import { codeColumn, dateColumn } from '../../shared/list/columns';
import { Auth } from '../../shared/permission/Auth';
import { fetchList, type ListParams } from '../../shared/request/http';
import type { ScreenProps } from '../../shared/ui/screen';
import {
  call,
  change,
  CORP_EDIT_PATH,
  CORP_VIEW_PATH,
  deptOptions,
  M,
  useCompCode,
  useCustomer,
  useDeptTree,
} from './api';
import { CompUserSelect } from './CompUserSelect';

const SAVE = button(M.edit, 'save');
const isView = (meta: ScreenProps['meta']) => (meta.tabOf ?? meta.path).startsWith(CORP_VIEW_PATH);

/** The frame of every tab: the customer's name, and a hint while the customer is not saved yet. */
function TabFrame({
  title,
  compCode,
  children,
  testId,
}: {
  title: string;
  compCode: string | undefined;
  children: ReactNode;
  testId: string;
}) {
  const customer = useCustomer(compCode);
  return (
    <Card
      className="crm-tab"
      data-testid={testId}
      title={
        <Space>
          <span>{title}</span>
          {customer.data ? <Tag color="blue">{customer.data.compName}</Tag> : null}
        </Space>
      }
    >
      {compCode ? children : <Empty description="请先在「基本信息」中保存企业" />}
    </Card>
  );
}

/** A server-paged list of one customer's rows (PROTOCOL §4). */
function useCustomerFetcher<T>(path: string, compCode: string | undefined) {
  return useMemo(
    () => (p: ListParams) =>
      fetchList<T>(path, { ...p, compCode }).then((b) => b.data ?? { list: [] as T[], total: 0 }),
    [path, compCode],
  );
}

// ------------------------------------------------------------------ 基本信息

/** 基本信息: the customer itself (company calls, SPEC §7.9); a new customer is created here first. */
export function BasicTab({ meta }: ScreenProps) {
  const compCode = useCompCode();
  const customer = useCustomer(compCode);
  // The form mounts with the loaded values (no later overwrite of what the user types).
  if (compCode && !customer.data)
    return (
      <Card className="crm-tab" title="基本信息">
        <Spin />
      </Card>
    );
  return (
    <BasicForm key={compCode ?? 'new'} readOnly={isView(meta)} compCode={compCode} initial={customer.data} />
  );
}

function BasicForm({
  readOnly,
  compCode,
  initial,
}: {
  readOnly: boolean;
  compCode: string | undefined;
  initial: CompanyView | undefined;
}) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<CompanyFormValues>();
  const [saving, setSaving] = useState(false);

  const submit = async (v: CompanyFormValues) => {
    // The parent is kept as saved (this tab does not edit it).
    const body: CompanyAdd = { ...companyBody(v), parentCompCode: initial?.parentCompCode ?? undefined };
    setSaving(true);
    try {
      const r =
        compCode && initial
          ? await change<{ compCode: string }>(COMPANY_PATHS.update, {
              ...body,
              compCode,
              version: initial.version,
            })
          : await change<{ compCode: string }>(COMPANY_PATHS.add, body);
      if (r.ok && r.data) {
        await queryClient.invalidateQueries({ queryKey: ['crm', 'customer'] });
        if (!compCode)
          navigate(`${CORP_EDIT_PATH}/corporation?compCode=${r.data.compCode}`, { replace: true });
      }
    } catch {
      // the request layer has warned
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card
      className="crm-tab"
      data-testid="crm-tab-corporation"
      title={
        <Space>
          <span>{compCode ? '基本信息' : '新增企业'}</span>
          {initial ? <Tag color="blue">{initial.compName}</Tag> : null}
        </Space>
      }
    >
      <Form<CompanyFormValues>
        name="crmBasic"
        form={form}
        layout="vertical"
        disabled={readOnly}
        initialValues={initial ? companyToForm(initial) : NEW_COMPANY_VALUES}
        onFinish={(v) => void submit(v)}
      >
        <CompanyFields compCode={compCode} />
        {readOnly ? null : (
          <Auth code={SAVE}>
            <Button type="primary" htmlType="submit" loading={saving}>
              保存
            </Button>
          </Auth>
        )}
      </Form>
    </Card>
  );
}

// ------------------------------------------------------------------ 企业用户

type EmployeeValues = Omit<EmployeeSave, 'compCode' | 'userCode' | 'version'>;

/** 企业用户: the customer's people (add / edit / enable / disable), their department and roles. */
export function EmployeeTab({ meta }: ScreenProps) {
  const readOnly = isView(meta);
  const compCode = useCompCode();
  const list = useRef<ListPageHandle>(null);
  const queryClient = useQueryClient();
  const depts = useDeptTree(compCode).data ?? [];
  const [editing, setEditing] = useState<CompUserRow | 'new' | null>(null);
  const [form] = Form.useForm<EmployeeValues>();
  const fetcher = useCustomerFetcher<CompUserRow>(CRM_PATHS.employeeList, compCode);

  const open = (row: CompUserRow | 'new') => {
    form.resetFields();
    if (row !== 'new')
      form.setFieldsValue({
        userName: row.userName,
        mobile: row.mobile,
        idCardNo: row.idCardNo ?? undefined,
        email: row.email ?? undefined,
        deptCode: row.deptCode ?? undefined,
        post: row.post ?? undefined,
        remark: row.remark ?? undefined,
      });
    setEditing(row);
  };

  const save = async () => {
    const v = await form.validateFields();
    const row = editing === 'new' ? null : editing;
    const r = await change(CRM_PATHS.employeeSave, {
      ...v,
      compCode,
      ...(row ? { userCode: row.userCode, version: row.version } : {}),
    }).catch(() => null);
    if (r?.ok) {
      setEditing(null);
      list.current?.reload();
      void queryClient.invalidateQueries({ queryKey: ['crm', 'users', compCode] });
    }
  };

  const columns: TableColumnsType<CompUserRow> = [
    codeColumn('用户编号', 'userCode', { width: 130 }),
    {
      title: '姓名',
      dataIndex: 'userName',
      key: 'userName',
      width: 110,
      render: (v: string, r) => (
        <Space size={4}>
          {v}
          {r.isManager ? <Tag color="gold">管理员</Tag> : null}
        </Space>
      ),
    },
    { title: '手机号', dataIndex: 'mobile', key: 'mobile', width: 130 },
    { title: '部门', dataIndex: 'deptName', key: 'deptName', width: 120 },
    { title: '岗位', dataIndex: 'post', key: 'post', width: 110 },
    {
      title: '企业角色',
      dataIndex: 'roleNames',
      key: 'roleNames',
      width: 180,
      render: (names: string[]) => names.map((n) => <Tag key={n}>{n}</Tag>),
    },
    {
      title: '注册审核',
      dataIndex: 'regState',
      key: 'regState',
      width: 90,
      render: (s: CompUserRow['regState']) => REG_STATE_LABELS[s],
    },
    {
      title: '状态',
      dataIndex: 'state',
      key: 'state',
      width: 80,
      render: (s: CompUserRow['state']) => (
        <Tag color={s === 'enabled' ? 'green' : 'default'}>{USER_STATE_LABELS[s]}</Tag>
      ),
    },
    ...(readOnly
      ? []
      : [
          {
            title: '操作',
            key: 'actions',
            width: 140,
            render: (_: unknown, row: CompUserRow) => (
              <Auth code={SAVE}>
                <Space size={0}>
                  <Button type="link" size="small" onClick={() => open(row)}>
                    编辑
                  </Button>
                  <Button
                    type="link"
                    size="small"
                    onClick={async () => {
                      const enable = row.state !== 'enabled';
                      const r = await change(
                        enable ? CRM_PATHS.employeeEnable : CRM_PATHS.employeeDisable,
                        undefined,
                        {
                          query: { userCode: row.userCode },
                          confirm: `确定要${enable ? '启用' : '停用'}企业用户「${row.userName}」吗？`,
                        },
                      ).catch(() => null);
                      if (r?.ok) list.current?.reload();
                    }}
                  >
                    {row.state === 'enabled' ? '停用' : '启用'}
                  </Button>
                </Space>
              </Auth>
            ),
          },
        ]),
  ];

  return (
    <TabFrame title="企业用户" compCode={compCode} testId="crm-tab-employee">
      <ListPage<CompUserRow>
        ref={list}
        source={fetcher}
        queryKey={['crm', 'employees', compCode]}
        rowKey="userCode"
        columns={columns}
        tableProps={{ size: 'small', scroll: { x: 1100 } }}
        filters={
          <Form.Item name="userName" label="姓名">
            <Input allowClear style={{ width: 140 }} />
          </Form.Item>
        }
        toolbar={
          readOnly ? null : (
            <Auth code={SAVE}>
              <Button type="primary" icon={<PlusOutlined />} onClick={() => open('new')}>
                新增用户
              </Button>
            </Auth>
          )
        }
      />
      <Modal
        title={editing === 'new' ? '新增企业用户' : '编辑企业用户'}
        open={editing !== null}
        onOk={() => void save().catch(() => undefined)}
        onCancel={() => setEditing(null)}
        okText="保存"
        destroyOnHidden
        forceRender
      >
        <Form<EmployeeValues> form={form} layout="vertical" name="crmEmployee">
          <Form.Item
            name="userName"
            label="姓名"
            rules={[{ required: true, whitespace: true, message: '姓名不能为空' }]}
          >
            <Input maxLength={50} />
          </Form.Item>
          <Form.Item
            name="mobile"
            label="手机号"
            rules={[
              { required: true, message: '手机号不能为空' },
              { pattern: /^1[3-9]\d{9}$/, message: '手机号格式不正确' },
            ]}
          >
            <Input maxLength={11} />
          </Form.Item>
          <Form.Item
            name="idCardNo"
            label="身份证号"
            rules={[{ pattern: /^\d{17}[\dXx]$/, message: '身份证号格式不正确' }]}
          >
            <Input maxLength={18} />
          </Form.Item>
          <Form.Item name="email" label="邮箱" rules={[{ type: 'email', message: '邮箱格式不正确' }]}>
            <Input maxLength={100} />
          </Form.Item>
          <Form.Item name="deptCode" label="所属部门">
            <TreeSelect allowClear treeDefaultExpandAll treeData={deptOptions(depts)} />
          </Form.Item>
          <Form.Item name="post" label="岗位">
            <Input maxLength={50} />
          </Form.Item>
          <Form.Item name="remark" label="备注">
            <Input maxLength={500} />
          </Form.Item>
        </Form>
      </Modal>
    </TabFrame>
  );
}

// ------------------------------------------------------------------ 企业角色

type RoleValues = Pick<RoleSave, 'roleName' | 'remark' | 'userCodes'>;

/** 企业角色: the customer's internal roles (经办人, 复核人, 财务, …) and their members. */
export function RoleTab({ meta }: ScreenProps) {
  const readOnly = isView(meta);
  const compCode = useCompCode();
  const list = useRef<ListPageHandle>(null);
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<CompRoleRow | 'new' | null>(null);
  const [form] = Form.useForm<RoleValues>();
  const fetcher = useCustomerFetcher<CompRoleRow>(CRM_PATHS.roleList, compCode);

  const open = (row: CompRoleRow | 'new') => {
    form.resetFields();
    if (row !== 'new')
      form.setFieldsValue({
        roleName: row.roleName,
        remark: row.remark ?? undefined,
        userCodes: row.users.map((u) => u.userCode),
      });
    setEditing(row);
  };

  const save = async () => {
    const v = await form.validateFields();
    const row = editing === 'new' ? null : editing;
    const r = await change(CRM_PATHS.roleSave, {
      ...v,
      userCodes: v.userCodes ?? [],
      compCode,
      ...(row ? { roleCode: row.roleCode, version: row.version } : {}),
    }).catch(() => null);
    if (r?.ok) {
      setEditing(null);
      list.current?.reload();
      void queryClient.invalidateQueries({ queryKey: ['crm', 'employees', compCode] });
    }
  };

  const columns: TableColumnsType<CompRoleRow> = [
    codeColumn('角色编号', 'roleCode', { width: 130 }),
    { title: '角色名称', dataIndex: 'roleName', key: 'roleName', width: 140 },
    {
      title: '成员',
      dataIndex: 'users',
      key: 'users',
      render: (us: CompRoleRow['users']) => us.map((u) => <Tag key={u.userCode}>{u.userName}</Tag>),
    },
    { title: '备注', dataIndex: 'remark', key: 'remark', width: 160 },
    ...(readOnly
      ? []
      : [
          {
            title: '操作',
            key: 'actions',
            width: 130,
            render: (_: unknown, row: CompRoleRow) => (
              <Auth code={SAVE}>
                <Space size={0}>
                  <Button type="link" size="small" onClick={() => open(row)}>
                    编辑
                  </Button>
                  <Button
                    type="link"
                    size="small"
                    danger
                    onClick={async () => {
                      const r = await change(
                        CRM_PATHS.roleDel,
                        { version: row.version },
                        {
                          query: { roleCode: row.roleCode },
                          confirm: `确定要删除企业角色「${row.roleName}」吗？`,
                        },
                      ).catch(() => null);
                      if (r?.ok) list.current?.reload();
                    }}
                  >
                    删除
                  </Button>
                </Space>
              </Auth>
            ),
          },
        ]),
  ];

  return (
    <TabFrame title="企业角色" compCode={compCode} testId="crm-tab-role">
      <ListPage<CompRoleRow>
        ref={list}
        source={fetcher}
        queryKey={['crm', 'roles', compCode]}
        rowKey="roleCode"
        columns={columns}
        tableProps={{ size: 'small' }}
        toolbar={
          readOnly ? null : (
            <Auth code={SAVE}>
              <Button type="primary" icon={<PlusOutlined />} onClick={() => open('new')}>
                新增角色
              </Button>
            </Auth>
          )
        }
      />
      <Modal
        title={editing === 'new' ? '新增企业角色' : '编辑企业角色'}
        open={editing !== null}
        onOk={() => void save().catch(() => undefined)}
        onCancel={() => setEditing(null)}
        okText="保存"
        destroyOnHidden
        forceRender
      >
        <Form<RoleValues> form={form} layout="vertical" name="crmRole" initialValues={{ userCodes: [] }}>
          <Form.Item
            name="roleName"
            label="角色名称"
            rules={[{ required: true, whitespace: true, message: '角色名称不能为空' }]}
          >
            <Input maxLength={30} placeholder="如 经办人、复核人、财务" />
          </Form.Item>
          <Form.Item name="userCodes" label="角色成员">
            <CompUserSelect
              compCode={compCode}
              known={
                editing && editing !== 'new'
                  ? editing.users.map((u) => ({ value: u.userCode, label: u.userName }))
                  : []
              }
            />
          </Form.Item>
          <Form.Item name="remark" label="备注">
            <Input maxLength={200} />
          </Form.Item>
        </Form>
      </Modal>
    </TabFrame>
  );
}

// ------------------------------------------------------------------ 账户信息

export type AccountValues = Omit<AccountSave, 'compCode' | 'bizCode' | 'version'>;

/** 账户信息: the customer's bank accounts (bank module), one default per purpose. */
export function AccountTab({ meta }: ScreenProps) {
  const readOnly = isView(meta);
  const compCode = useCompCode();
  const list = useRef<ListPageHandle>(null);
  const [editing, setEditing] = useState<BankAccountView | 'new' | null>(null);
  const [form] = Form.useForm<AccountValues>();
  const fetcher = useCustomerFetcher<BankAccountView>(CRM_PATHS.accountList, compCode);

  const open = (row: BankAccountView | 'new') => {
    form.resetFields();
    if (row !== 'new')
      form.setFieldsValue({
        bankCode: row.bankCode,
        branchName: row.branchName,
        accountName: row.accountName,
        accountNo: row.accountNo,
        currency: row.currency,
        purpose: row.purpose,
        isDefault: row.isDefault,
        remark: row.remark ?? undefined,
      });
    setEditing(row);
  };

  const save = async () => {
    const v = await form.validateFields();
    const row = editing === 'new' ? null : editing;
    const r = await change(CRM_PATHS.accountSave, {
      ...v,
      compCode,
      ...(row ? { bizCode: row.bizCode, version: row.version } : {}),
    }).catch(() => null);
    if (r?.ok) {
      setEditing(null);
      list.current?.reload();
    }
  };

  const act = async (row: BankAccountView, path: string, confirm: string) => {
    const r = await change(path, undefined, {
      query: { compCode: compCode!, bizCode: row.bizCode },
      confirm,
    }).catch(() => null);
    if (r?.ok) list.current?.reload();
  };

  const columns: TableColumnsType<BankAccountView> = [
    codeColumn('账户编号', 'bizCode', { width: 130 }),
    { title: '开户银行', dataIndex: 'bankName', key: 'bankName', width: 150 },
    { title: '开户网点', dataIndex: 'branchName', key: 'branchName', width: 150 },
    { title: '账户名称', dataIndex: 'accountName', key: 'accountName', width: 180 },
    { title: '银行账号', dataIndex: 'accountNo', key: 'accountNo', width: 190 },
    {
      title: '用途',
      dataIndex: 'purpose',
      key: 'purpose',
      width: 100,
      render: (p: BankAccountView['purpose']) => PURPOSE_LABELS[p],
    },
    {
      title: '默认',
      dataIndex: 'isDefault',
      key: 'isDefault',
      width: 70,
      render: (d: boolean) => (d ? <Tag color="blue">默认</Tag> : null),
    },
    ...(readOnly
      ? []
      : [
          {
            title: '操作',
            key: 'actions',
            width: 190,
            render: (_: unknown, row: BankAccountView) => (
              <Auth code={SAVE}>
                <Space size={0}>
                  <Button type="link" size="small" onClick={() => open(row)}>
                    编辑
                  </Button>
                  {row.isDefault ? null : (
                    <Button
                      type="link"
                      size="small"
                      onClick={() =>
                        void act(row, CRM_PATHS.accountSetDefault, `确定将账户 ${row.accountNo} 设为默认吗？`)
                      }
                    >
                      设为默认
                    </Button>
                  )}
                  <Button
                    type="link"
                    size="small"
                    danger
                    onClick={() =>
                      void act(row, CRM_PATHS.accountDel, `确定要删除账户 ${row.accountNo} 吗？`)
                    }
                  >
                    删除
                  </Button>
                </Space>
              </Auth>
            ),
          },
        ]),
  ];

  return (
    <TabFrame title="账户信息" compCode={compCode} testId="crm-tab-account">
      <ListPage<BankAccountView>
        ref={list}
        source={fetcher}
        queryKey={['crm', 'accounts', compCode]}
        rowKey="bizCode"
        columns={columns}
        tableProps={{ size: 'small', scroll: { x: 1200 } }}
        toolbar={
          readOnly ? null : (
            <Auth code={SAVE}>
              <Button type="primary" icon={<PlusOutlined />} onClick={() => open('new')}>
                新增账户
              </Button>
            </Auth>
          )
        }
      />
      <Modal
        title={editing === 'new' ? '新增银行账户' : '编辑银行账户'}
        open={editing !== null}
        onOk={() => void save().catch(() => undefined)}
        onCancel={() => setEditing(null)}
        okText="保存"
        destroyOnHidden
        forceRender
      >
        <AccountFields form={form} />
      </Modal>
    </TabFrame>
  );
}

/** A customer bank account's form (the shared account fields; also the bank-editor basic info). */
export function AccountFields({
  form,
  disabled = false,
}: {
  form: FormInstance<AccountValues>;
  disabled?: boolean;
}) {
  return (
    <Form<AccountValues>
      form={form}
      layout="vertical"
      name="crmAccount"
      disabled={disabled}
      initialValues={{ currency: 'CNY', purpose: 'collect', isDefault: false }}
    >
      <Row gutter={16}>
        <SharedAccountFields />
      </Row>
    </Form>
  );
}

// ------------------------------------------------------------------ one-record tabs

function useRecord<T>(path: string, compCode: string | undefined) {
  return useQuery({
    queryKey: ['crm', path, compCode],
    queryFn: () => call<T | null>(path, undefined, { compCode: compCode! }),
    enabled: !!compCode,
  });
}

function SaveBar({ readOnly, saving }: { readOnly: boolean; saving: boolean }) {
  if (readOnly) return null;
  return (
    <Auth code={SAVE}>
      <Button type="primary" htmlType="submit" loading={saving}>
        保存
      </Button>
    </Auth>
  );
}

/** Saves a one-per-customer record with the version read, then reloads it. */
function useRecordSave(path: string, viewPath: string, compCode: string | undefined) {
  const queryClient = useQueryClient();
  const [saving, setSaving] = useState(false);
  const save = async (body: Record<string, unknown>, version: number | undefined) => {
    setSaving(true);
    try {
      const r = await change(path, { ...body, compCode, ...(version !== undefined ? { version } : {}) });
      if (r.ok) await queryClient.invalidateQueries({ queryKey: ['crm', viewPath, compCode] });
    } catch {
      // the request layer has warned
    } finally {
      setSaving(false);
    }
  };
  return { save, saving };
}

type BillValues = Omit<BillSave, 'compCode' | 'version'>;

/** 开票信息: invoice title, taxpayer number, address/phone and bank for invoices. */
export function BillTab({ meta }: ScreenProps) {
  const readOnly = isView(meta);
  const compCode = useCompCode();
  const [form] = Form.useForm<BillValues>();
  const rec = useRecord<BillView>(CRM_PATHS.billView, compCode);
  const { save, saving } = useRecordSave(CRM_PATHS.billSave, CRM_PATHS.billView, compCode);
  const initial = rec.data
    ? {
        invoiceTitle: rec.data.invoiceTitle,
        taxNo: rec.data.taxNo,
        address: rec.data.address ?? undefined,
        phone: rec.data.phone ?? undefined,
        bankName: rec.data.bankName,
        bankAccountNo: rec.data.bankAccountNo,
        remark: rec.data.remark ?? undefined,
      }
    : undefined;
  return (
    <TabFrame title="开票信息" compCode={compCode} testId="crm-tab-bill">
      {rec.isLoading ? (
        <Spin />
      ) : (
        <Form<BillValues>
          initialValues={initial}
          form={form}
          name="crmBill"
          layout="vertical"
          disabled={readOnly}
          onFinish={(v) => void save(v, rec.data?.version)}
        >
          <Row gutter={24}>
            <Col span={12}>
              <Form.Item
                name="invoiceTitle"
                label="发票抬头"
                rules={[{ required: true, whitespace: true, message: '发票抬头不能为空' }]}
              >
                <Input maxLength={100} />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item
                name="taxNo"
                label="纳税人识别号"
                normalize={(v: string) => v?.toUpperCase().trim()}
                rules={[
                  { required: true, message: '纳税人识别号不能为空' },
                  { pattern: /^[0-9A-Z]{15,20}$/, message: '纳税人识别号必须是15到20位数字或大写字母' },
                ]}
              >
                <Input maxLength={20} />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item name="address" label="注册地址">
                <Input maxLength={200} />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item
                name="phone"
                label="注册电话"
                rules={[{ pattern: /^[0-9+\-() ]{5,30}$/, message: '注册电话格式不正确' }]}
              >
                <Input maxLength={30} />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item
                name="bankName"
                label="开户银行"
                rules={[{ required: true, whitespace: true, message: '开户银行不能为空' }]}
              >
                <Input maxLength={100} />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item
                name="bankAccountNo"
                label="开票银行账号"
                rules={[
                  { required: true, message: '银行账号不能为空' },
                  { pattern: /^[\d\s]{8,40}$/, message: '银行账号必须是8到30位数字' },
                ]}
              >
                <Input maxLength={40} />
              </Form.Item>
            </Col>
            <Col span={24}>
              <Form.Item name="remark" label="备注">
                <Input maxLength={500} />
              </Form.Item>
            </Col>
          </Row>
          <SaveBar readOnly={readOnly} saving={saving} />
        </Form>
      )}
    </TabFrame>
  );
}

type DesValues = Omit<DesSave, 'compCode' | 'version'>;

/** 企业介绍. */
export function DesTab({ meta }: ScreenProps) {
  const readOnly = isView(meta);
  const compCode = useCompCode();
  const [form] = Form.useForm<DesValues>();
  const rec = useRecord<DesView>(CRM_PATHS.desView, compCode);
  const { save, saving } = useRecordSave(CRM_PATHS.desSave, CRM_PATHS.desView, compCode);
  const initial = rec.data
    ? {
        intro: rec.data.intro,
        mainBusiness: rec.data.mainBusiness ?? undefined,
        website: rec.data.website ?? undefined,
      }
    : undefined;
  return (
    <TabFrame title="企业介绍" compCode={compCode} testId="crm-tab-des">
      {rec.isLoading ? (
        <Spin />
      ) : (
        <Form<DesValues>
          initialValues={initial}
          form={form}
          name="crmDes"
          layout="vertical"
          disabled={readOnly}
          onFinish={(v) => void save(v, rec.data?.version)}
        >
          <Form.Item
            name="intro"
            label="企业简介"
            rules={[{ required: true, whitespace: true, message: '企业简介不能为空' }]}
          >
            <Input.TextArea rows={6} maxLength={5000} showCount />
          </Form.Item>
          <Form.Item name="mainBusiness" label="主营业务">
            <Input.TextArea rows={3} maxLength={1000} />
          </Form.Item>
          <Form.Item
            name="website"
            label="企业网址"
            rules={[{ pattern: /^https?:\/\/\S+$/, message: '企业网址必须以http://或https://开头' }]}
          >
            <Input maxLength={200} />
          </Form.Item>
          <SaveBar readOnly={readOnly} saving={saving} />
        </Form>
      )}
    </TabFrame>
  );
}

type AddValues = Omit<AddSave, 'compCode' | 'version' | 'staffCount'> & { staffCount?: number | null };

/** corporationAdd: actual controller, staff, business scope and shareholders (ratios ≤ 100 %). */
export function CorporationAddTab({ meta }: ScreenProps) {
  const readOnly = isView(meta);
  const compCode = useCompCode();
  const [form] = Form.useForm<AddValues>();
  const rec = useRecord<AddView>(CRM_PATHS.addView, compCode);
  const { save, saving } = useRecordSave(CRM_PATHS.addSave, CRM_PATHS.addView, compCode);
  const initial = rec.data
    ? {
        actualController: rec.data.actualController,
        controllerIdNo: rec.data.controllerIdNo ?? undefined,
        staffCount: rec.data.staffCount,
        businessScope: rec.data.businessScope ?? undefined,
        shareholders: rec.data.shareholders.map((h) => ({ ...h, contribution: h.contribution ?? undefined })),
      }
    : undefined;
  return (
    <TabFrame title="股东及实际控制人" compCode={compCode} testId="crm-tab-corporationAdd">
      {rec.isLoading ? (
        <Spin />
      ) : (
        <Form<AddValues>
          form={form}
          name="crmAdd"
          layout="vertical"
          disabled={readOnly}
          initialValues={initial ?? { shareholders: [] }}
          onFinish={(v) => void save({ ...v, staffCount: v.staffCount ?? undefined }, rec.data?.version)}
        >
          <Row gutter={24}>
            <Col span={8}>
              <Form.Item
                name="actualController"
                label="实际控制人"
                rules={[{ required: true, whitespace: true, message: '实际控制人不能为空' }]}
              >
                <Input maxLength={50} />
              </Form.Item>
            </Col>
            <Col span={8}>
              <Form.Item name="controllerIdNo" label="实际控制人证件号">
                <Input maxLength={30} />
              </Form.Item>
            </Col>
            <Col span={8}>
              <Form.Item name="staffCount" label="员工人数">
                <InputNumber min={0} precision={0} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col span={24}>
              <Form.Item name="businessScope" label="经营范围">
                <Input.TextArea rows={2} maxLength={2000} />
              </Form.Item>
            </Col>
          </Row>
          <Form.List name="shareholders">
            {(fields, { add, remove }) => (
              <>
                {fields.map((f) => (
                  <Space key={f.key} align="baseline" wrap data-testid="shareholder-row">
                    <Form.Item
                      name={[f.name, 'holderName']}
                      label="股东名称"
                      rules={[{ required: true, whitespace: true, message: '股东名称不能为空' }]}
                    >
                      <Input maxLength={100} style={{ width: 220 }} />
                    </Form.Item>
                    <Form.Item
                      name={[f.name, 'holderType']}
                      label="股东类型"
                      initialValue="person"
                      rules={[{ required: true, message: '股东类型不能为空' }]}
                    >
                      <Select
                        style={{ width: 110 }}
                        options={HOLDER_TYPES.map((h) => ({ value: h, label: HOLDER_TYPE_LABELS[h] }))}
                      />
                    </Form.Item>
                    <Form.Item
                      name={[f.name, 'ratio']}
                      label="持股比例（%）"
                      rules={[
                        { required: true, message: '持股比例不能为空' },
                        { pattern: /^\d{1,3}(\.\d{1,4})?$/, message: '持股比例必须是最多4位小数的百分比' },
                      ]}
                    >
                      <Input style={{ width: 120 }} />
                    </Form.Item>
                    <Form.Item
                      name={[f.name, 'contribution']}
                      label="认缴出资额（元）"
                      rules={[{ pattern: MONEY_PATTERN, message: '认缴出资额必须是最多两位小数的非负金额' }]}
                    >
                      <Input style={{ width: 160 }} />
                    </Form.Item>
                    {readOnly ? null : (
                      <MinusCircleOutlined onClick={() => remove(f.name)} aria-label="删除股东" />
                    )}
                  </Space>
                ))}
                {readOnly ? null : (
                  <Form.Item>
                    <Button type="dashed" icon={<PlusOutlined />} onClick={() => add()}>
                      添加股东
                    </Button>
                  </Form.Item>
                )}
              </>
            )}
          </Form.List>
          <SaveBar readOnly={readOnly} saving={saving} />
        </Form>
      )}
    </TabFrame>
  );
}

/** 资料文件: the customer's documents through the shared file component. */
export function FileTab({ meta }: ScreenProps) {
  const readOnly = isView(meta);
  const compCode = useCompCode();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ files: FileItem[] }>();
  const [saving, setSaving] = useState(false);
  const files = useQuery({
    queryKey: ['crm', 'files', compCode],
    queryFn: () => call<FileInfo[]>(CRM_PATHS.fileList, undefined, { compCode: compCode! }),
    enabled: !!compCode,
  });
  const submit = async (v: { files: FileItem[] }) => {
    setSaving(true);
    try {
      const r = await change(CRM_PATHS.fileSave, {
        compCode,
        fileTokens: (v.files ?? []).map((f) => f.fileToken),
      });
      if (r.ok) await queryClient.invalidateQueries({ queryKey: ['crm', 'files', compCode] });
    } catch {
      // the request layer has warned
    } finally {
      setSaving(false);
    }
  };
  return (
    <TabFrame title="资料文件" compCode={compCode} testId="crm-tab-file">
      {files.isLoading ? (
        <Spin />
      ) : (
        <Form
          form={form}
          name="crmFiles"
          initialValues={{ files: files.data ?? [] }}
          onFinish={(v) => void submit(v)}
        >
          <Form.Item name="files">
            <FileList readOnly={readOnly} />
          </Form.Item>
          <SaveBar readOnly={readOnly} saving={saving} />
        </Form>
      )}
    </TabFrame>
  );
}

/**
 * 审核信息 (view only): the customer's recorded history. Workflow instances carry no customer, so
 * the tab lists the audit log of the customer and its sub-pages (see the server's customerHistory).
 */
export function ApprovalTab(_props: ScreenProps) {
  const compCode = useCompCode();
  const fetcher = useCustomerFetcher<ApprovalRow>(CRM_PATHS.approvalList, compCode);
  const columns: TableColumnsType<ApprovalRow> = [
    dateColumn('时间', 'at', { withTime: true, width: 170 }),
    { title: '操作人', dataIndex: 'actorName', key: 'actorName', width: 110 },
    { title: '内容', dataIndex: 'entityLabel', key: 'entityLabel', width: 150 },
    { title: '操作', dataIndex: 'actionLabel', key: 'actionLabel', width: 100 },
    {
      title: '说明',
      dataIndex: 'detail',
      key: 'detail',
      ellipsis: true,
      render: (d: unknown) => {
        if (d && typeof d === 'object' && 'comment' in d)
          return String((d as { comment: unknown }).comment ?? '');
        return d ? JSON.stringify(d).slice(0, 120) : '';
      },
    },
  ];
  return (
    <TabFrame title="审核信息" compCode={compCode} testId="crm-tab-approval">
      <ListPage<ApprovalRow>
        source={fetcher}
        queryKey={['crm', 'history', compCode]}
        rowKey="id"
        columns={columns}
        tableProps={{ size: 'small' }}
      />
    </TabFrame>
  );
}
