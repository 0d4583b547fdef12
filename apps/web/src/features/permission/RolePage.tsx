import { useState } from 'react';
import { Form, Input, Modal, Radio, Select, Tag, TreeSelect, type TableColumnsType } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { button } from '@portal/contract/menus';
import {
  DATA_SCOPE_LABELS,
  DATA_SCOPES,
  PERMISSION_MESSAGES,
  PERMISSION_PATHS,
  STATE_LABELS,
  STATES,
  type RoleAdd,
  type RoleView,
  roleAddSchema,
} from '@portal/contract/permission';
import { fieldRules } from '../../shared/form/zod-rule';
import { actionsColumn } from '../../shared/list/RowActions';
import { ListPage } from '../../shared/list/ListPage';
import { codeColumn, dateColumn } from '../../shared/list/columns';
import type { ScreenProps } from '../../shared/ui/screen';
import { addRole, orgOptions, permissionKeys, removeRole, updateRole, useOrgTree } from './api';
import { RoleConfig } from './RoleConfig';
import { AddButton } from '../../shared/list/AddButton';

const roleRules = fieldRules(roleAddSchema);
const MENU = 'permission-role';
const opts = <K extends string>(keys: readonly K[], labels: Record<K, string>) =>
  keys.map((k) => ({ value: k, label: labels[k] }));

export function RoleForm({ editing, onClose }: { editing: RoleView | 'new'; onClose(saved: boolean): void }) {
  const [form] = Form.useForm<RoleAdd>();
  const [saving, setSaving] = useState(false);
  const current = editing === 'new' ? undefined : editing;
  const custom = Form.useWatch('dataScope', form) === 'custom';
  const orgs = useOrgTree().data ?? [];
  const submit = async (v: RoleAdd) => {
    setSaving(true);
    try {
      const r = current
        ? await updateRole({ ...v, bizCode: current.bizCode, version: current.version })
        : await addRole(v);
      if (r.ok) onClose(true);
    } catch {
      // warned by the request layer
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open
      title={current ? '修改角色' : '新增角色'}
      width={600}
      okText="保存"
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={() => onClose(false)}
      destroyOnHidden
    >
      <Form<RoleAdd>
        name="role"
        form={form}
        labelCol={{ span: 5 }}
        wrapperCol={{ span: 18 }}
        initialValues={
          current
            ? { ...current, description: current.description ?? undefined }
            : { state: 'enabled', dataScope: 'all' }
        }
        onFinish={(v) => void submit(v)}
      >
        <Form.Item name="name" label="角色名称" rules={roleRules.name}>
          <Input maxLength={50} />
        </Form.Item>
        <Form.Item name="code" label="角色编码" rules={roleRules.code}>
          <Input maxLength={50} disabled={current?.builtIn} />
        </Form.Item>
        <Form.Item name="dataScope" rules={roleRules.dataScope} label="数据范围">
          <Select options={opts(DATA_SCOPES, DATA_SCOPE_LABELS)} disabled={current?.builtIn} />
        </Form.Item>
        {custom ? (
          // Each organisation is chosen by itself (no cascade): ticking a parent does not choose
          // those below it, as the 自定义 scope reaches exactly the ones chosen.
          <Form.Item
            name="deptCodes"
            label="数据权限"
            rules={[{ required: true, message: PERMISSION_MESSAGES.customDeptsMissing }]}
            getValueProps={(v: string[] | undefined) => ({ value: (v ?? []).map((value) => ({ value })) })}
            normalize={(v: { value: string }[]) => v.map((x) => x.value)}
          >
            <TreeSelect
              treeCheckable
              treeCheckStrictly
              treeDefaultExpandAll
              treeData={orgOptions(orgs)}
              placeholder="请选择组织"
            />
          </Form.Item>
        ) : null}
        <Form.Item name="state" label="状态">
          <Radio.Group options={opts(STATES, STATE_LABELS)} disabled={current?.builtIn} />
        </Form.Item>
        <Form.Item name="description" rules={roleRules.description} label="角色描述">
          <Input.TextArea rows={3} maxLength={500} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** 角色管理: roles, their data scope and their menu/button codes. */
export default function RolePage(_props: ScreenProps) {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<RoleView | 'new' | null>(null);
  const [configuring, setConfiguring] = useState<RoleView | null>(null);
  // The role list refreshes through the update itself; the role picker's dictionary does not.
  const refreshRoleDict = () => void queryClient.invalidateQueries({ queryKey: permissionKeys.roleDict });

  const columns: TableColumnsType<RoleView> = [
    codeColumn('角色编号', 'bizCode', { width: 130 }),
    { title: '角色名称', dataIndex: 'name', key: 'name', ellipsis: true },
    { title: '角色编码', dataIndex: 'code', key: 'code', width: 140 },
    {
      title: '数据范围',
      dataIndex: 'dataScope',
      key: 'dataScope',
      width: 130,
      render: (v: RoleView['dataScope']) => DATA_SCOPE_LABELS[v],
    },
    {
      title: '状态',
      dataIndex: 'state',
      key: 'state',
      width: 80,
      render: (v: RoleView['state']) => (
        <Tag color={v === 'enabled' ? 'green' : 'default'}>{STATE_LABELS[v]}</Tag>
      ),
    },
    { title: '用户数', dataIndex: 'userCount', key: 'userCount', width: 80, align: 'right' },
    { title: '描述', dataIndex: 'description', key: 'description', ellipsis: true },
    dateColumn('创建时间', 'createdAt', { width: 170, withTime: true }),
    actionsColumn<RoleView>((row) => [
      { label: '修改', code: button(MENU, 'update'), onClick: () => setEditing(row) },
      { label: '权限配置', onClick: () => setConfiguring(row) },
      {
        label: '删除',
        code: button(MENU, 'delete'),
        danger: true,
        hidden: row.builtIn,
        onClick: async () => {
          const r = await removeRole(row).catch(() => null);
          if (r?.ok) refreshRoleDict();
        },
      },
    ]),
  ];

  return (
    <>
      <ListPage<RoleView>
        source={PERMISSION_PATHS.roleList}
        rowKey="bizCode"
        columns={columns}
        tableProps={{ scroll: { x: 1200 }, size: 'middle' }}
        filters={
          <>
            <Form.Item name="name" label="角色名称">
              <Input allowClear style={{ width: 160 }} />
            </Form.Item>
            <Form.Item name="code" label="角色编码">
              <Input allowClear style={{ width: 140 }} />
            </Form.Item>
            <Form.Item name="state" label="状态">
              <Select
                allowClear
                placeholder="全部"
                style={{ width: 100 }}
                options={opts(STATES, STATE_LABELS)}
              />
            </Form.Item>
          </>
        }
        toolbar={
          <AddButton code={button(MENU, 'add')} onClick={() => setEditing('new')}>
            新增角色
          </AddButton>
        }
      />
      {editing ? (
        <RoleForm
          editing={editing}
          onClose={(saved) => {
            setEditing(null);
            if (saved) refreshRoleDict();
          }}
        />
      ) : null}
      {configuring ? (
        <RoleConfig
          role={configuring}
          onClose={() => {
            setConfiguring(null);
            refreshRoleDict();
          }}
        />
      ) : null}
    </>
  );
}
