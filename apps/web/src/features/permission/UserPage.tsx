import { useMemo, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  Card,
  Col,
  Form,
  Input,
  Modal,
  Radio,
  Row,
  Select,
  Space,
  Switch,
  Tag,
  Tree,
  TreeSelect,
  Typography,
} from 'antd';
import type { DataNode } from 'antd/es/tree';
import { button } from '@portal/contract/menus';
import {
  PERMISSION_PATHS,
  STATE_LABELS,
  STATES,
  USER_EXPORT_FILE_NAME,
  type OrgNode,
  type UserAdd,
  type UserView,
  userAddSchema,
  userListSchema,
} from '@portal/contract/permission';
import { ListPage, type ListFetcher, type ListPageHandle } from '../../shared/list/ListPage';
import { codeColumn } from '../../shared/list/columns';
import { KEY, type ListColumns } from '../../shared/list/fit-columns';
import { actionsColumn } from '../../shared/list/RowActions';
import { ListExportButton } from '../../shared/list/ExportButton';
import { useButtons } from '../../shared/permission/use-buttons';
import { fieldRules } from '../../shared/form/zod-rule';
import { fetchList } from '../../shared/request/http';
import { useSessionStore } from '../../shared/session/session-store';
import type { ScreenProps } from '../../shared/ui/screen';
import { useExpandAll } from './use-expand';
import {
  addUser,
  permissionKeys,
  orgOptions,
  removeUser,
  resetPassword,
  setUserStatus,
  updateUser,
  useOrgTree,
  useRoleDict,
} from './api';
import { AddButton } from '../../shared/list/AddButton';

const MENU = 'permission-user';
const EMPTY: OrgNode[] = [];
const userRules = fieldRules(userAddSchema);

function orgTreeData(nodes: readonly OrgNode[]): DataNode[] {
  return nodes.map((n) => ({ key: n.deptBizCode, title: n.name, children: orgTreeData(n.children) }));
}

function UserForm({
  editing,
  defaultDept,
  onClose,
}: {
  editing: UserView | 'new';
  defaultDept: string | undefined;
  onClose(saved: { userName: string; password: string } | boolean): void;
}) {
  const [form] = Form.useForm<UserAdd>();
  const orgs = useOrgTree().data ?? [];
  const roles = useRoleDict().data ?? [];
  const [saving, setSaving] = useState(false);
  const current = editing === 'new' ? undefined : editing;
  const submit = async (v: UserAdd) => {
    setSaving(true);
    try {
      if (current) {
        const r = await updateUser({ ...v, userCode: current.userCode, version: current.version });
        if (r.ok) onClose(true);
      } else {
        const r = await addUser(v);
        if (r.ok && r.data) onClose({ userName: v.userName.trim(), password: r.data.password });
      }
    } catch {
      // warned by the request layer
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open
      title={current ? '修改用户' : '新增用户'}
      width={640}
      okText="保存"
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={() => onClose(false)}
      destroyOnHidden
    >
      <Form<UserAdd>
        name="user"
        form={form}
        labelCol={{ span: 5 }}
        wrapperCol={{ span: 18 }}
        initialValues={
          current
            ? {
                userName: current.userName,
                realName: current.realName,
                phone: current.phone ?? undefined,
                email: current.email ?? undefined,
                deptCode: current.deptCode ?? undefined,
                roleCodes: current.roles.map((r) => r.code),
                state: current.state,
              }
            : { state: 'enabled', roleCodes: [], deptCode: defaultDept }
        }
        onFinish={(v) => void submit(v)}
      >
        <Form.Item name="userName" label="用户名" rules={userRules.userName}>
          <Input maxLength={70} autoComplete="off" />
        </Form.Item>
        <Form.Item name="realName" label="姓名" rules={userRules.realName}>
          <Input maxLength={50} />
        </Form.Item>
        <Form.Item name="phone" label="手机号" rules={userRules.phone}>
          <Input maxLength={30} />
        </Form.Item>
        <Form.Item name="email" label="邮箱" rules={userRules.email}>
          <Input maxLength={100} />
        </Form.Item>
        <Form.Item name="deptCode" label="所属组织" rules={userRules.deptCode}>
          <TreeSelect treeDefaultExpandAll treeData={orgOptions(orgs)} placeholder="请选择组织" />
        </Form.Item>
        <Form.Item name="roleCodes" label="角色" rules={userRules.roleCodes}>
          <Select
            mode="multiple"
            allowClear
            optionFilterProp="label"
            placeholder="请选择角色"
            options={roles.map((r) => ({ value: r.code, label: r.label }))}
          />
        </Form.Item>
        <Form.Item name="state" label="状态" rules={userRules.state}>
          <Radio.Group options={STATES.map((s) => ({ value: s, label: STATE_LABELS[s] }))} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

interface Shown {
  title: string;
  userName: string;
  password: string;
}

/** The temporary password, shown once (add and reset). */
function TemporaryPasswordModal({ shown, onClose }: { shown: Shown; onClose(): void }) {
  return (
    <Modal
      open
      title={shown.title}
      onOk={onClose}
      onCancel={onClose}
      cancelButtonProps={{ style: { display: 'none' } }}
      okText="我已记下"
    >
      <p>
        用户 <b>{shown.userName}</b> 的临时密码如下，仅显示这一次，请妥善转交。该用户首次登录后须修改密码。
      </p>
      <Typography.Paragraph copyable={{ text: shown.password }} style={{ fontSize: 18 }}>
        <code data-testid="temp-password">{shown.password}</code>
      </Typography.Paragraph>
    </Modal>
  );
}

/** 用户管理: users by organisation, add/edit, enable/disable, reset password, delete. */
export default function UserPage(_props: ScreenProps) {
  const queryClient = useQueryClient();
  const orgs = useOrgTree();
  const buttons = useButtons(MENU);
  // One's own row offers neither 删除 nor 停用 (the server refuses both: one cannot lock oneself out).
  const ownCode = useSessionStore((s) => s.userInfo?.userCode);
  const expand = useExpandAll(orgs.data ?? EMPTY);
  const list = useRef<ListPageHandle>(null);
  const [deptCode, setDeptCode] = useState<string | undefined>();
  const [editing, setEditing] = useState<UserView | 'new' | null>(null);
  const [shown, setShown] = useState<Shown | null>(null);
  const reload = () => {
    void queryClient.invalidateQueries({ queryKey: permissionKeys.userList });
    void queryClient.invalidateQueries({ queryKey: permissionKeys.orgTree });
  };

  const fetcher: ListFetcher<UserView> = useMemo(
    () => (p) =>
      fetchList<UserView>(PERMISSION_PATHS.userList, { ...p, ...(deptCode ? { deptCode } : {}) }).then(
        (b) => b.data ?? { list: [], total: 0 },
      ),
    [deptCode],
  );

  const columns: ListColumns<UserView> = [
    codeColumn('用户编号', 'userCode', { width: 130, priority: 3 }),
    { title: '用户名', dataIndex: 'userName', key: 'userName', width: 120, ellipsis: true, priority: KEY },
    { title: '姓名', dataIndex: 'realName', key: 'realName', width: 110, ellipsis: true },
    { title: '所属组织', dataIndex: 'deptName', key: 'deptName', width: 130, ellipsis: true },
    {
      title: '角色',
      key: 'roles',
      width: 180,
      priority: KEY,
      render: (_: unknown, row) => (
        <Space size={[0, 4]} wrap>
          {row.roles.map((r) => (
            <Tag key={r.code}>{r.label}</Tag>
          ))}
        </Space>
      ),
    },
    { title: '手机号', dataIndex: 'phone', key: 'phone', width: 130, priority: 2 },
    {
      title: '状态',
      key: 'state',
      width: 90,
      priority: KEY,
      render: (_: unknown, row) =>
        buttons.has('status') && row.userCode !== ownCode ? (
          <Switch
            checked={row.state === 'enabled'}
            checkedChildren="启用"
            unCheckedChildren="停用"
            aria-label={`启停用 ${row.userName}`}
            onChange={async (on) => {
              const r = await setUserStatus(row, on ? 'enabled' : 'disabled').catch(() => null);
              if (r?.ok) reload();
            }}
          />
        ) : (
          <Tag color={row.state === 'enabled' ? 'green' : 'default'}>{STATE_LABELS[row.state]}</Tag>
        ),
    },
    actionsColumn<UserView>((row) => [
      { label: '修改', code: button(MENU, 'update'), onClick: () => setEditing(row) },
      {
        label: '重置密码',
        code: button(MENU, 'resetPassword'),
        onClick: async () => {
          const r = await resetPassword(row).catch(() => null);
          if (r?.ok && r.data)
            setShown({ title: '密码已重置', userName: row.userName, password: r.data.password });
        },
      },
      {
        label: '删除',
        code: button(MENU, 'delete'),
        // Nobody deletes their own account.
        hidden: row.userCode === ownCode,
        danger: true,
        onClick: async () => {
          const r = await removeUser(row).catch(() => null);
          if (r?.ok) reload();
        },
      },
    ]),
  ];

  return (
    <Row gutter={16} data-testid="user-page">
      <Col xs={24} md={6} lg={5}>
        <Card size="small" title="组织架构" className="user-org-tree">
          {orgs.data ? (
            <Tree
              blockNode
              expandedKeys={expand.expandedKeys}
              onExpand={expand.onExpand}
              treeData={orgTreeData(orgs.data)}
              selectedKeys={deptCode ? [deptCode] : []}
              onSelect={(keys) => {
                const k = keys[0];
                setDeptCode(k === undefined ? undefined : String(k));
                setTimeout(() => list.current?.search(), 0);
              }}
            />
          ) : null}
        </Card>
      </Col>
      <Col xs={24} md={18} lg={19}>
        <ListPage<UserView>
          ref={list}
          source={fetcher}
          sortable={userListSchema.sortable}
          queryKey={permissionKeys.userListOf(deptCode)}
          rowKey="userCode"
          columns={columns}
          tableProps={{ size: 'middle' }}
          filters={
            <>
              <Form.Item name="name" label="用户名/姓名">
                <Input allowClear style={{ width: 160 }} />
              </Form.Item>
              <Form.Item name="state" label="状态">
                <Select
                  allowClear
                  placeholder="全部"
                  style={{ width: 100 }}
                  options={STATES.map((s) => ({ value: s, label: STATE_LABELS[s] }))}
                />
              </Form.Item>
            </>
          }
          toolbar={
            <Space>
              <AddButton code={button(MENU, 'add')} onClick={() => setEditing('new')}>
                新增用户
              </AddButton>
              <ListExportButton
                menu={MENU}
                path={PERMISSION_PATHS.userListExport}
                fileName={USER_EXPORT_FILE_NAME}
                extra={deptCode ? { deptCode } : undefined}
              />
            </Space>
          }
        />
      </Col>
      {editing ? (
        <UserForm
          editing={editing}
          defaultDept={deptCode}
          onClose={(saved) => {
            setEditing(null);
            if (saved) reload();
            if (typeof saved === 'object') setShown({ title: '用户已创建', ...saved });
          }}
        />
      ) : null}
      {shown ? <TemporaryPasswordModal shown={shown} onClose={() => setShown(null)} /> : null}
    </Row>
  );
}
