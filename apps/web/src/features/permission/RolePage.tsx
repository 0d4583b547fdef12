import { useEffect, useMemo, useRef, useState } from 'react';
import {
  Alert,
  Button,
  Checkbox,
  Drawer,
  Form,
  Input,
  Modal,
  Radio,
  Select,
  Space,
  Spin,
  Tag,
  Tree,
  type TableColumnsType,
} from 'antd';
import type { DataNode } from 'antd/es/tree';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { button } from '@portal/contract/menus';
import {
  DATA_SCOPE_LABELS,
  DATA_SCOPES,
  PERMISSION_PATHS,
  STATE_LABELS,
  STATES,
  type MenuTreeNode,
  type RoleAdd,
  type RoleView,
  roleAddSchema,
} from '@portal/contract/permission';
import { fieldRules } from '../../shared/form/zod-rule';
import { ListPage } from '../../shared/list/ListPage';
import { codeColumn, dateColumn } from '../../shared/list/columns';
import { Auth } from '../../shared/permission/Auth';
import type { ScreenProps } from '../../shared/ui/screen';
import { allCodes, branchCodes, filterTree, indexTree, toggleCode } from './menu-tree';
import { addRole, getRole, removeRole, ROLE_DICT_KEY, saveRoleConfig, updateRole, useMenuTree } from './api';
import { AddButton } from '../../shared/list/AddButton';

const roleRules = fieldRules(roleAddSchema);
const MENU = 'permission-role';
const opts = <K extends string>(keys: readonly K[], labels: Record<K, string>) =>
  keys.map((k) => ({ value: k, label: labels[k] }));

function RoleForm({ editing, onClose }: { editing: RoleView | 'new'; onClose(saved: boolean): void }) {
  const [form] = Form.useForm<RoleAdd>();
  const [saving, setSaving] = useState(false);
  const current = editing === 'new' ? undefined : editing;
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

function toTreeData(nodes: readonly MenuTreeNode[]): DataNode[] {
  return nodes.map((n) => ({
    key: n.code,
    title: (
      <span data-code={n.code}>
        {n.title}
        {n.kind === 'button' ? (
          <Tag style={{ marginLeft: 6 }} bordered={false}>
            按钮
          </Tag>
        ) : null}
      </span>
    ),
    ...(n.children ? { children: toTreeData(n.children) } : {}),
  }));
}

/** The role's menu tree with the check rule of toggleCode (menu-tree.ts). */
function RoleConfig({ role, onClose }: { role: RoleView; onClose(): void }) {
  const tree = useMenuTree();
  const detail = useQuery({
    queryKey: ['permission', 'role', role.bizCode, role.version],
    queryFn: () => getRole(role.bizCode),
    gcTime: 0,
  });
  const index = useMemo(() => indexTree(tree.data ?? []), [tree.data]);
  const everyCode = useMemo(() => allCodes(tree.data ?? []), [tree.data]);
  const [query, setQuery] = useState('');
  const shown = useMemo(() => filterTree(tree.data ?? [], query), [tree.data, query]);
  // Open at first; a search opens the paths to what it found.
  const [expanded, setExpanded] = useState<string[] | null>(null);
  const expandedKeys = query.trim() ? branchCodes(shown) : (expanded ?? branchCodes(tree.data ?? []));
  const [checked, setChecked] = useState<Set<string> | null>(null);
  const [saving, setSaving] = useState(false);
  const seeded = useRef(false);
  useEffect(() => {
    if (detail.data && !seeded.current) {
      seeded.current = true;
      setChecked(new Set(detail.data.menuCodes));
    }
  }, [detail.data]);

  const toggle = (code: string, on: boolean) => {
    setChecked((prev) => toggleCode(prev ?? new Set(), index, code, on));
  };

  const save = async () => {
    if (!checked || !detail.data) return;
    setSaving(true);
    try {
      const r = await saveRoleConfig({
        bizCode: role.bizCode,
        version: detail.data.version,
        menuCodes: [...checked],
      });
      if (r.ok) onClose();
    } catch {
      // warned by the request layer
    } finally {
      setSaving(false);
    }
  };

  const builtIn = role.builtIn;
  return (
    <Drawer
      open
      size={560}
      title={`权限配置：${role.name}`}
      onClose={onClose}
      className="role-config"
      extra={
        builtIn ? null : (
          <Auth code={button(MENU, 'cfgSave')}>
            <Button type="primary" loading={saving} disabled={!checked} onClick={() => void save()}>
              保存
            </Button>
          </Auth>
        )
      }
    >
      {builtIn ? (
        <Alert type="info" showIcon title="超级管理员拥有全部菜单和按钮权限，无需配置。" />
      ) : tree.isLoading || !checked ? (
        <Spin />
      ) : (
        <>
          <Space className="role-config-tools" wrap style={{ marginBottom: 12 }}>
            <Input.Search
              allowClear
              placeholder="搜索菜单或按钮"
              aria-label="搜索菜单或按钮"
              style={{ width: 220 }}
              onChange={(e) => setQuery(e.target.value)}
            />
            <Button
              size="small"
              onClick={() => setExpanded(branchCodes(tree.data ?? []))}
              disabled={!!query.trim()}
            >
              展开全部
            </Button>
            <Button size="small" onClick={() => setExpanded([])} disabled={!!query.trim()}>
              折叠全部
            </Button>
            <Checkbox
              checked={checked.size > 0 && checked.size === everyCode.length}
              indeterminate={checked.size > 0 && checked.size < everyCode.length}
              onChange={(e) => setChecked(new Set(e.target.checked ? everyCode : []))}
            >
              全选
            </Checkbox>
          </Space>
          {shown.length === 0 ? (
            <Alert type="info" showIcon title="没有匹配的菜单或按钮" />
          ) : (
            <Tree
              checkable
              checkStrictly
              selectable={false}
              treeData={toTreeData(shown)}
              expandedKeys={expandedKeys}
              onExpand={(keys) => setExpanded(keys.map(String))}
              checkedKeys={{ checked: [...checked], halfChecked: [] }}
              onCheck={(_, info) => toggle(String(info.node.key), info.checked)}
            />
          )}
        </>
      )}
    </Drawer>
  );
}

/** 角色管理: roles, their data scope and their menu/button codes. */
export default function RolePage(_props: ScreenProps) {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<RoleView | 'new' | null>(null);
  const [configuring, setConfiguring] = useState<RoleView | null>(null);
  // The role list refreshes through the update itself; the role picker's dictionary does not.
  const refreshRoleDict = () => void queryClient.invalidateQueries({ queryKey: ROLE_DICT_KEY });

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
    {
      title: '操作',
      key: 'actions',
      width: 220,
      fixed: 'right',
      render: (_: unknown, row) => (
        <Space size={0}>
          <Auth code={button(MENU, 'update')}>
            <Button type="link" size="small" onClick={() => setEditing(row)}>
              修改
            </Button>
          </Auth>
          <Button type="link" size="small" onClick={() => setConfiguring(row)}>
            权限配置
          </Button>
          {row.builtIn ? null : (
            <Auth code={button(MENU, 'delete')}>
              <Button
                type="link"
                size="small"
                danger
                onClick={async () => {
                  const r = await removeRole(row).catch(() => null);
                  if (r?.ok) refreshRoleDict();
                }}
              >
                删除
              </Button>
            </Auth>
          )}
        </Space>
      ),
    },
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
