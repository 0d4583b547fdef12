import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { PlusOutlined, TeamOutlined } from '@ant-design/icons';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Descriptions,
  Empty,
  Form,
  Input,
  Modal,
  Select,
  Space,
  Table,
  Tag,
  type TableColumnsType,
} from 'antd';
import type { Page } from '@portal/contract/api';
import { formatDateTime } from '@portal/contract/format';
import { buttonCode, type Action } from '@portal/contract/menus';
import {
  judgeOf,
  PERMIT_AREA_LABELS,
  PERMIT_AREA_MENU,
  PERMIT_CHG_MENU,
  PERMIT_PATHS,
  PERMIT_STATE_LABELS,
  PERMIT_SUBJECT_LABELS,
  PERMIT_USER_AREA_MENU,
  roleNames,
  userAreaMenu,
  custSaveSchema,
  setRoleSchema,
  userSaveSchema,
  type PermitArea,
  type PermitRow,
  type PermitState,
  type PermitSubject,
  type RoleChangeRow,
} from '@portal/contract/permit';
import { fieldRules } from '../../shared/form/zod-rule';
import { ListPage, type ListPageHandle } from '../../shared/list/ListPage';
import { codeColumn, dateColumn } from '../../shared/list/columns';
import { useButtons, type Buttons } from '../../shared/permission/use-buttons';
import { post } from '../../shared/request/http';
import type { ScreenProps } from '../../shared/ui/screen';
import { listKey, permitApi, PERMIT_ROUTES, useCustomers, usePermitDict } from './api';
import { validValues } from '../../shared/ui/valid-values';

const custRules = fieldRules(custSaveSchema);
const userRules = fieldRules(userSaveSchema);
const setRoleRules = fieldRules(setRoleSchema);

const STATE_COLORS: Record<PermitState, string> = { saved: 'blue', open: 'green', disabled: 'default' };

/** The area a screen serves, from its path (/ec…, /dw…, /fc…). */
function areaOfPath(path: string): PermitArea {
  if (path.startsWith('/dw')) return 'dw';
  if (path.startsWith('/fc')) return 'fc';
  return 'ec';
}

/** The menu whose buttons allow an action on a record of this subject and area (none: 银企链 users). */
function menuOf(subject: PermitSubject, area: PermitArea): string | undefined {
  return subject === 'user' ? userAreaMenu(area) : PERMIT_AREA_MENU[area];
}

/** Every admission menu's buttons, so that a screen can ask for any area's. */
function usePermitButtons() {
  const ec = useButtons(PERMIT_AREA_MENU.ec);
  const dw = useButtons(PERMIT_AREA_MENU.dw);
  const fc = useButtons(PERMIT_AREA_MENU.fc);
  const ecUser = useButtons(PERMIT_USER_AREA_MENU.ec ?? '');
  const dwUser = useButtons(PERMIT_USER_AREA_MENU.dw ?? '');
  const chg = useButtons(PERMIT_CHG_MENU);
  const byMenu: Record<string, Buttons> = {
    [PERMIT_AREA_MENU.ec]: ec,
    [PERMIT_AREA_MENU.dw]: dw,
    [PERMIT_AREA_MENU.fc]: fc,
    ...(PERMIT_USER_AREA_MENU.ec ? { [PERMIT_USER_AREA_MENU.ec]: ecUser } : {}),
    ...(PERMIT_USER_AREA_MENU.dw ? { [PERMIT_USER_AREA_MENU.dw]: dwUser } : {}),
  };
  return (subject: PermitSubject, area: PermitArea, action: Action): boolean => {
    const menu = menuOf(subject, area);
    if (menu && byMenu[menu]?.has(buttonCode(menu, action))) return true;
    return (
      subject === 'cust' &&
      area === 'ec' &&
      action === 'setRole' &&
      chg.has(buttonCode(PERMIT_CHG_MENU, 'setRole'))
    );
  };
}

/** The record page of each area: under its own section's header and sidebar. */
const RECORD_ROUTES: Record<PermitArea, string> = {
  ec: PERMIT_ROUTES.record,
  dw: PERMIT_ROUTES.dwRecord,
  fc: PERMIT_ROUTES.fcRecord,
};

export const recordLink = (row: Pick<PermitRow, 'bizCode' | 'subject' | 'area'>) => {
  const judge = judgeOf(row.subject, row.area);
  const q = new URLSearchParams({ subject: row.subject, bizCode: row.bizCode, ...(judge ? { judge } : {}) });
  return `${RECORD_ROUTES[row.area]}?${q.toString()}`;
};

function RoleTags({
  subject,
  area,
  roles,
}: {
  subject: PermitSubject;
  area: PermitArea;
  roles: readonly string[];
}) {
  return (
    <>
      {roleNames(subject, area, roles)
        .split('、')
        .filter(Boolean)
        .map((r) => (
          <Tag key={r}>{r}</Tag>
        ))}
    </>
  );
}

function StateTag({ state }: { state: PermitState }) {
  return <Tag color={STATE_COLORS[state]}>{PERMIT_STATE_LABELS[state]}</Tag>;
}

interface EditTarget {
  row?: PermitRow;
}

/** 新增 / 编辑 of a saved admission: the subject, its roles, a remark. */
function SaveDialog({
  subject,
  area,
  target,
  onClose,
}: {
  subject: PermitSubject;
  area: PermitArea;
  target: EditTarget | null;
  onClose: (saved: boolean) => void;
}) {
  const [form] = Form.useForm<{ compCode?: string; userCode?: string; roles: string[]; remark?: string }>();
  const dict = usePermitDict(subject).data;
  const customers = useCustomers().data ?? [];
  const compCode = Form.useWatch('compCode', form);
  const candidates = useQuery({
    queryKey: ['permit', 'candidates', compCode],
    queryFn: () => permitApi.candidates(compCode!),
    enabled: subject === 'user' && !!compCode,
  });
  const [saving, setSaving] = useState(false);
  const row = target?.row;

  const submit = async () => {
    const v = await validValues(form);
    if (!v) return;
    setSaving(true);
    try {
      const common = {
        ...(row ? { bizCode: row.bizCode, version: row.version } : {}),
        area,
        roles: v.roles,
        remark: v.remark,
      };
      const r =
        subject === 'cust'
          ? await permitApi.saveCust({ ...common, compCode: v.compCode ?? '' })
          : await permitApi.saveUser({ ...common, userCode: v.userCode ?? '' });
      if (r.ok) onClose(true);
    } catch {
      // the request layer has warned
    } finally {
      setSaving(false);
    }
  };

  const userOptions = [
    ...(candidates.data ?? []).map((u) => ({ value: u.userCode, label: `${u.userName}（${u.mobile}）` })),
    ...(row?.userCode && !(candidates.data ?? []).some((u) => u.userCode === row.userCode)
      ? [{ value: row.userCode, label: row.userName ?? row.userCode }]
      : []),
  ];

  return (
    <Modal
      open={!!target}
      title={`${row ? '编辑' : '新增'}${PERMIT_AREA_LABELS[area]}${PERMIT_SUBJECT_LABELS[subject]}准入`}
      onCancel={() => onClose(false)}
      onOk={() => void submit()}
      okText="保存"
      confirmLoading={saving}
      destroyOnHidden
      width={560}
    >
      <Form
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={
          row
            ? { compCode: row.compCode, userCode: row.userCode, roles: row.roles, remark: row.remark }
            : { roles: [] }
        }
        data-testid="permit-save-form"
      >
        <Form.Item name="compCode" label="企业客户" rules={custRules.compCode}>
          <Select
            showSearch
            optionFilterProp="label"
            placeholder="选择企业客户"
            options={customers.map((c) => ({ value: c.code, label: c.label }))}
            onChange={() => form.setFieldValue('userCode', undefined)}
          />
        </Form.Item>
        {subject === 'user' ? (
          <Form.Item name="userCode" label="企业用户" rules={userRules.userCode}>
            <Select
              placeholder={compCode ? '选择已审核通过的企业用户' : '请先选择企业客户'}
              options={userOptions}
              loading={candidates.isFetching}
              notFoundContent="该企业没有可准入的企业用户"
            />
          </Form.Item>
        ) : null}
        <Form.Item name="roles" label="角色" rules={custRules.roles}>
          <Checkbox.Group
            options={(dict?.roles[area] ?? []).map((r) => ({ value: r.code, label: r.label }))}
          />
        </Form.Item>
        <Form.Item name="remark" label="备注" rules={custRules.remark}>
          <Input.TextArea rows={3} maxLength={500} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** The list of one area's admissions of customers or users, with 新增/编辑/开通/停用/查看. */
function PermitList({ subject, area }: { subject: PermitSubject; area: PermitArea }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const list = useRef<ListPageHandle>(null);
  const allowed = usePermitButtons();
  const dict = usePermitDict(subject).data;
  const [editing, setEditing] = useState<EditTarget | null>(null);
  const reload = () => void queryClient.invalidateQueries({ queryKey: listKey(subject) });
  const nameOf = (row: PermitRow) => (subject === 'cust' ? row.compName : (row.userName ?? ''));

  const act = async (fn: () => Promise<{ ok: boolean }>) => {
    const r = await fn().catch(() => null);
    if (r?.ok) reload();
  };

  const columns: TableColumnsType<PermitRow> = [
    codeColumn('准入编号', 'bizCode', { width: 130 }),
    ...(subject === 'user'
      ? [
          { title: '用户姓名', dataIndex: 'userName', key: 'userName', width: 110 },
          { title: '手机号', dataIndex: 'mobile', key: 'mobile', width: 130 },
        ]
      : []),
    { title: '企业名称', dataIndex: 'compName', key: 'compName', width: 220, ellipsis: true },
    ...(subject === 'cust'
      ? [{ title: '统一社会信用代码', dataIndex: 'usccCode', key: 'usccCode', width: 190 }]
      : []),
    {
      title: '角色',
      dataIndex: 'roles',
      key: 'roles',
      width: 220,
      render: (roles: string[], row) => <RoleTags subject={subject} area={row.area} roles={roles} />,
    },
    {
      title: '状态',
      dataIndex: 'state',
      key: 'state',
      width: 90,
      render: (s: PermitState) => <StateTag state={s} />,
    },
    dateColumn('开通时间', 'openedAt', { withTime: true, width: 170 }),
    dateColumn('创建时间', 'createdAt', { withTime: true, width: 170 }),
    {
      title: '操作',
      key: 'actions',
      fixed: 'right',
      width: 210,
      render: (_: unknown, row) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => navigate(recordLink(row))}>
            查看
          </Button>
          {row.state === 'saved' && allowed(subject, area, 'save') ? (
            <Button type="link" size="small" onClick={() => setEditing({ row })}>
              编辑
            </Button>
          ) : null}
          {row.state !== 'open' && allowed(subject, area, 'open') ? (
            <Button
              type="link"
              size="small"
              onClick={() => void act(() => permitApi.open(subject, row, nameOf(row)))}
            >
              {row.state === 'disabled' ? '重新开通' : '开通'}
            </Button>
          ) : null}
          {row.state === 'open' && allowed(subject, area, 'disable') ? (
            <Button
              type="link"
              size="small"
              danger
              onClick={() => void act(() => permitApi.disable(subject, row, nameOf(row)))}
            >
              停用
            </Button>
          ) : null}
        </Space>
      ),
    },
  ];

  return (
    <div data-testid={`permit-list-${subject}-${area}`}>
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 12 }}
        message={`${PERMIT_AREA_LABELS[area]} · ${PERMIT_SUBJECT_LABELS[subject]}准入`}
        description={
          subject === 'cust'
            ? '保存后开通即生效；开通后的角色通过“查看”中的设置角色变更，每次变更都有记录。'
            : '企业用户须已审核通过，且其所属企业已在本区域开通准入。'
        }
      />
      <ListPage<PermitRow>
        ref={list}
        source={subject === 'cust' ? PERMIT_PATHS.custList : PERMIT_PATHS.userList}
        queryKey={[...listKey(subject), area]}
        rowKey="bizCode"
        columns={columns}
        initialFilters={{ area }}
        toFilters={(v) => ({ ...v, area })}
        tableProps={{ scroll: { x: subject === 'cust' ? 1450 : 1520 }, size: 'middle' }}
        filters={
          <>
            <Form.Item name="compName" label="企业名称">
              <Input placeholder="企业名称" allowClear style={{ width: 180 }} />
            </Form.Item>
            {subject === 'user' ? (
              <Form.Item name="userName" label="用户姓名">
                <Input placeholder="用户姓名" allowClear style={{ width: 130 }} />
              </Form.Item>
            ) : (
              <Form.Item name="usccCode" label="信用代码">
                <Input placeholder="统一社会信用代码" allowClear style={{ width: 200 }} maxLength={18} />
              </Form.Item>
            )}
            <Form.Item name="state" label="状态">
              <Select
                placeholder="全部"
                allowClear
                style={{ width: 110 }}
                options={dict?.states.map((d) => ({ value: d.code, label: d.label }))}
              />
            </Form.Item>
          </>
        }
        toolbar={
          <Space>
            {allowed(subject, area, 'add') ? (
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({})}>
                新增
              </Button>
            ) : null}
            {subject === 'cust' && area !== 'fc' ? (
              <Button
                icon={<TeamOutlined />}
                onClick={() => navigate(area === 'dw' ? PERMIT_ROUTES.dwPersonal : PERMIT_ROUTES.ecPersonal)}
              >
                企业用户准入
              </Button>
            ) : null}
          </Space>
        }
      />
      <SaveDialog
        subject={subject}
        area={area}
        target={editing}
        onClose={(saved) => {
          setEditing(null);
          if (saved) reload();
        }}
      />
    </div>
  );
}

/** /ec/permit/comp, /dw/permit/comp, /fc/fc: customer admissions of the screen's area. */
export function CustPermitListPage({ meta }: ScreenProps) {
  return <PermitList subject="cust" area={areaOfPath(meta.path)} />;
}

/** /ec/permit/personal (and the hidden /dw/permit/personal): enterprise-user admissions. */
export function UserPermitListPage({ meta }: ScreenProps) {
  return <PermitList subject="user" area={areaOfPath(meta.path)} />;
}

/**
 * The role change columns. Each row's roles are named from its own subject and area (a list may
 * hold several: a cust row's `core` is 核心企业 in dw and fc, a user row's `operator` is 经办人).
 */
const historyColumns = (onView?: (code: string) => void): TableColumnsType<RoleChangeRow> => [
  codeColumn('变更编号', 'bizCode', { width: 130 }),
  {
    title: '类型',
    dataIndex: 'kind',
    key: 'kind',
    width: 80,
    render: (k: RoleChangeRow['kind']) => (k === 'open' ? '开通' : '变更'),
  },
  {
    title: '变更前角色',
    dataIndex: 'rolesBefore',
    key: 'rolesBefore',
    render: (r: string[], row: RoleChangeRow) => roleNames(row.subject, row.area, r) || '—',
  },
  {
    title: '变更后角色',
    dataIndex: 'rolesAfter',
    key: 'rolesAfter',
    render: (r: string[], row: RoleChangeRow) => roleNames(row.subject, row.area, r),
  },
  { title: '变更原因', dataIndex: 'reason', key: 'reason', ellipsis: true },
  { title: '操作人', dataIndex: 'createdByName', key: 'createdByName', width: 100 },
  dateColumn('时间', 'createdAt', { withTime: true, width: 170 }),
  ...(onView
    ? [
        {
          title: '操作',
          key: 'actions',
          width: 80,
          render: (_: unknown, r: RoleChangeRow) => (
            <Button type="link" size="small" onClick={() => onView(r.bizCode)}>
              查看
            </Button>
          ),
        },
      ]
    : []),
];

/** The value as it was `ms` milliseconds after its last change. */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

const PICKER_PAGE = 20;

/**
 * Picks an open ec customer admission (企业角色变更 新增, no record given): searches the paged
 * customer-admission list by enterprise name as the user types (the first 20 matches).
 */
function OpenCustPicker({ onPick }: { onPick: (bizCode: string) => void }) {
  const [typed, setTyped] = useState('');
  const search = useSettled(typed.trim(), 300);
  const q = useQuery({
    queryKey: ['permit', 'open-ec-cust', search],
    queryFn: () =>
      post<Page<PermitRow>>(
        PERMIT_PATHS.custList,
        {
          area: 'ec',
          state: 'open',
          ...(search ? { compName: search } : {}),
          pageNum: 1,
          pageSize: PICKER_PAGE,
        },
        { loading: false },
      ),
    placeholderData: keepPreviousData,
  });
  const total = q.data?.total ?? 0;
  return (
    <Card size="small" title="选择已开通的企业客户准入">
      <Select
        style={{ width: 420 }}
        showSearch
        filterOption={false}
        onSearch={setTyped}
        placeholder="输入企业名称搜索"
        loading={q.isFetching}
        data-testid="permit-picker"
        options={(q.data?.list ?? []).map((r) => ({
          value: r.bizCode,
          label: `${r.compName}（${r.bizCode}）`,
        }))}
        notFoundContent={q.isFetching ? '加载中…' : '没有匹配的已开通企业客户'}
        onChange={(v: string) => onPick(v)}
      />
      {total > PICKER_PAGE ? (
        <div style={{ marginTop: 8, color: 'rgba(0,0,0,0.45)' }}>
          共{total}个匹配，仅显示前{PICKER_PAGE}个，请输入更完整的企业名称
        </div>
      ) : null}
    </Card>
  );
}

const HISTORY_PAGE = 10;

/** The role history of one admission, paged through roleChg/list?permitCode= (PROTOCOL.md §4). */
function PermitHistory({ bizCode }: { bizCode: string }) {
  const navigate = useNavigate();
  const [pageNum, setPageNum] = useState(1);
  const q = useQuery({
    queryKey: ['permit', 'history', bizCode, pageNum],
    queryFn: () =>
      post<Page<RoleChangeRow>>(
        PERMIT_PATHS.roleChgList,
        { permitCode: bizCode, pageNum, pageSize: HISTORY_PAGE },
        { loading: false },
      ),
    placeholderData: keepPreviousData,
  });
  return (
    <Table<RoleChangeRow>
      size="small"
      rowKey="bizCode"
      loading={q.isFetching}
      dataSource={q.data?.list ?? []}
      pagination={{
        current: pageNum,
        pageSize: HISTORY_PAGE,
        total: q.data?.total ?? 0,
        hideOnSinglePage: true,
        showSizeChanger: false,
        showTotal: (n) => `共 ${n} 条`,
        onChange: setPageNum,
      }}
      columns={historyColumns((code) => navigate(`${PERMIT_ROUTES.roleChgView}?bizCode=${code}`))}
    />
  );
}

/**
 * The admission record (/ec/permit/comp-role-chg-editor/basic-info, and /dw/permit/comp-editor,
 * /fc/fc-editor for those areas' records): basic information, 开通 /
 * 停用, 设置角色 with a reason, and the role history. Opened from the lists with `judge`, so 返回
 * (website layout) goes back to that list.
 */
export function PermitRecordPage(_props: ScreenProps) {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const queryClient = useQueryClient();
  const subject: PermitSubject = params.get('subject') === 'user' ? 'user' : 'cust';
  const bizCode = params.get('bizCode') ?? '';
  const allowed = usePermitButtons();
  const dict = usePermitDict(subject).data;
  const [form] = Form.useForm<{ roles: string[]; reason?: string }>();
  const [saving, setSaving] = useState(false);
  const record = useQuery({
    queryKey: ['permit', 'view', subject, bizCode],
    queryFn: () => permitApi.view(subject, bizCode),
    enabled: /^\d{12}$/.test(bizCode),
    retry: false,
  });
  const v = record.data;
  const refresh = () => {
    void record.refetch();
    void queryClient.invalidateQueries({ queryKey: listKey(subject) });
    void queryClient.invalidateQueries({ queryKey: ['permit', 'history', bizCode] });
  };
  const act = async (fn: () => Promise<{ ok: boolean }>) => {
    const r = await fn().catch(() => null);
    if (r?.ok) refresh();
  };

  if (!bizCode) {
    return (
      <div data-testid="permit-record">
        <OpenCustPicker
          onPick={(code) => {
            const next = new URLSearchParams(location.search);
            next.set('bizCode', code);
            next.set('subject', 'cust');
            setParams(next);
          }}
        />
      </div>
    );
  }
  if (!v)
    return (
      <Card loading={record.isLoading}>{record.isError ? <Empty description="准入记录不存在" /> : null}</Card>
    );

  const name = v.subject === 'cust' ? v.compName : (v.userName ?? '');
  const canSetRole = v.state === 'open' && allowed(v.subject, v.area, 'setRole');
  const submitRoles = async () => {
    const f = await validValues(form);
    if (!f) return;
    setSaving(true);
    try {
      const r = await permitApi.setRole(v.subject, {
        bizCode: v.bizCode,
        version: v.version,
        area: v.area,
        roles: f.roles,
        reason: f.reason,
      });
      if (r.ok) {
        form.setFieldValue('reason', undefined);
        refresh();
      }
    } catch {
      // the request layer has warned
    } finally {
      setSaving(false);
    }
  };

  return (
    <div data-testid="permit-record">
      <Card
        size="small"
        title={`${PERMIT_AREA_LABELS[v.area]} · ${PERMIT_SUBJECT_LABELS[v.subject]}准入 · ${name}`}
        extra={
          <Space>
            {v.state !== 'open' && allowed(v.subject, v.area, 'open') ? (
              <Button type="primary" onClick={() => void act(() => permitApi.open(v.subject, v, name))}>
                {v.state === 'disabled' ? '重新开通' : '开通'}
              </Button>
            ) : null}
            {v.state === 'open' && allowed(v.subject, v.area, 'disable') ? (
              <Button danger onClick={() => void act(() => permitApi.disable(v.subject, v, name))}>
                停用
              </Button>
            ) : null}
          </Space>
        }
      >
        <Descriptions size="small" column={2} bordered>
          <Descriptions.Item label="准入编号">{v.bizCode}</Descriptions.Item>
          <Descriptions.Item label="状态">
            <StateTag state={v.state} />
          </Descriptions.Item>
          <Descriptions.Item label="企业名称">{v.compName}</Descriptions.Item>
          <Descriptions.Item label="统一社会信用代码">{v.usccCode}</Descriptions.Item>
          {v.subject === 'user' ? (
            <>
              <Descriptions.Item label="用户姓名">{v.userName}</Descriptions.Item>
              <Descriptions.Item label="手机号">{v.mobile}</Descriptions.Item>
            </>
          ) : null}
          <Descriptions.Item label="当前角色">
            <RoleTags subject={v.subject} area={v.area} roles={v.roles} />
          </Descriptions.Item>
          <Descriptions.Item label="备注">{v.remark ?? '—'}</Descriptions.Item>
          <Descriptions.Item label="开通时间">{formatDateTime(v.openedAt) || '—'}</Descriptions.Item>
          <Descriptions.Item label="停用时间">{formatDateTime(v.disabledAt) || '—'}</Descriptions.Item>
        </Descriptions>
      </Card>
      {canSetRole ? (
        <Card size="small" title="设置角色" style={{ marginTop: 12 }}>
          <Form
            form={form}
            layout="vertical"
            initialValues={{ roles: v.roles }}
            key={`${v.bizCode}-${v.version}`}
          >
            <Form.Item name="roles" label="角色" rules={setRoleRules.roles}>
              <Checkbox.Group
                options={(dict?.roles[v.area] ?? []).map((r) => ({ value: r.code, label: r.label }))}
              />
            </Form.Item>
            <Form.Item name="reason" label="变更原因" rules={setRoleRules.reason}>
              <Input maxLength={200} />
            </Form.Item>
            <Button type="primary" loading={saving} onClick={() => void submitRoles()}>
              保存角色
            </Button>
          </Form>
        </Card>
      ) : v.state !== 'open' ? (
        <Alert style={{ marginTop: 12 }} type="warning" showIcon message="准入开通后才能设置角色" />
      ) : null}
      <Card size="small" title="角色变更记录" style={{ marginTop: 12 }}>
        <PermitHistory bizCode={v.bizCode} />
      </Card>
    </div>
  );
}

/** The screen's records: ec customer admissions (also on the first load, which reads initialFilters). */
const CHG_SCOPE = { area: 'ec', subject: 'cust' } as const;

/** /ec/permit/comp-role-chg: the role changes of ec customer admissions (企业角色变更). */
export function RoleChgListPage(_props: ScreenProps) {
  const navigate = useNavigate();
  const chg = useButtons(PERMIT_CHG_MENU);
  const columns: TableColumnsType<RoleChangeRow> = [
    codeColumn('变更编号', 'bizCode', { width: 130 }),
    codeColumn('准入编号', 'permitCode', { width: 130 }),
    { title: '企业名称', dataIndex: 'compName', key: 'compName', width: 220, ellipsis: true },
    {
      title: '准入区域',
      dataIndex: 'area',
      key: 'area',
      width: 90,
      render: (a: PermitArea) => PERMIT_AREA_LABELS[a],
    },
    {
      title: '准入对象',
      dataIndex: 'subject',
      key: 'subject',
      width: 90,
      render: (v: PermitSubject) => PERMIT_SUBJECT_LABELS[v],
    },
    ...historyColumns().slice(1, -2),
    { title: '操作人', dataIndex: 'createdByName', key: 'createdByName', width: 100 },
    dateColumn('时间', 'createdAt', { withTime: true, width: 170 }),
    {
      title: '操作',
      key: 'actions',
      fixed: 'right',
      width: 140,
      render: (_: unknown, r) => (
        <Space size={0}>
          <Button
            type="link"
            size="small"
            onClick={() => navigate(`${PERMIT_ROUTES.roleChgView}?bizCode=${r.bizCode}`)}
          >
            查看
          </Button>
          <Button
            type="link"
            size="small"
            onClick={() => navigate(recordLink({ bizCode: r.permitCode, subject: 'cust', area: 'ec' }))}
          >
            准入记录
          </Button>
        </Space>
      ),
    },
  ];
  return (
    <div data-testid="permit-role-chg-list">
      <ListPage<RoleChangeRow>
        source={PERMIT_PATHS.roleChgList}
        rowKey="bizCode"
        columns={columns}
        initialFilters={CHG_SCOPE}
        toFilters={(v) => ({ ...v, ...CHG_SCOPE })}
        tableProps={{ scroll: { x: 1300 }, size: 'middle' }}
        filters={
          <Form.Item name="compName" label="企业名称">
            <Input placeholder="企业名称" allowClear style={{ width: 200 }} />
          </Form.Item>
        }
        toolbar={
          chg.has('setRole') ? (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate(PERMIT_ROUTES.record)}>
              新增
            </Button>
          ) : null
        }
      />
    </div>
  );
}

/** /ec/permit/comp-role-chg-view/basic-info: one role change and the admission it belongs to. */
export function RoleChgViewPage(_props: ScreenProps) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const bizCode = params.get('bizCode') ?? '';
  const q = useQuery({
    queryKey: ['permit', 'roleChg', bizCode],
    queryFn: () => permitApi.roleChange(bizCode),
    enabled: /^\d{12}$/.test(bizCode),
    retry: false,
  });
  const r = q.data;
  if (!r)
    return (
      <Card loading={q.isLoading}>
        {q.isError || !bizCode ? <Empty description="角色变更记录不存在" /> : null}
      </Card>
    );
  return (
    <div data-testid="permit-role-chg-view">
      <Card
        size="small"
        title={`企业角色变更 · ${r.compName}${r.userName ? ` · ${r.userName}` : ''}`}
        extra={
          <Button type="link" onClick={() => navigate(recordLink(r.permit))}>
            查看准入记录
          </Button>
        }
      >
        <Descriptions size="small" column={2} bordered>
          <Descriptions.Item label="变更编号">{r.bizCode}</Descriptions.Item>
          <Descriptions.Item label="准入编号">{r.permitCode}</Descriptions.Item>
          <Descriptions.Item label="准入区域">{PERMIT_AREA_LABELS[r.area]}</Descriptions.Item>
          <Descriptions.Item label="类型">{r.kind === 'open' ? '开通' : '变更'}</Descriptions.Item>
          <Descriptions.Item label="变更前角色">
            {roleNames(r.subject, r.area, r.rolesBefore) || '—'}
          </Descriptions.Item>
          <Descriptions.Item label="变更后角色">
            {roleNames(r.subject, r.area, r.rolesAfter)}
          </Descriptions.Item>
          <Descriptions.Item label="变更原因">{r.reason ?? '—'}</Descriptions.Item>
          <Descriptions.Item label="准入状态">
            <StateTag state={r.permit.state} />
          </Descriptions.Item>
          <Descriptions.Item label="操作人">{r.createdByName ?? '—'}</Descriptions.Item>
          <Descriptions.Item label="时间">{formatDateTime(r.createdAt)}</Descriptions.Item>
        </Descriptions>
      </Card>
    </div>
  );
}
