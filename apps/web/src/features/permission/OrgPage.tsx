import { useEffect, useMemo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { PlusOutlined } from '@ant-design/icons';
import {
  Button,
  Card,
  Col,
  Descriptions,
  Empty,
  Form,
  Input,
  InputNumber,
  Radio,
  Row,
  Space,
  Tag,
  Tree,
  TreeSelect,
} from 'antd';
import type { DataNode } from 'antd/es/tree';
import { button } from '@portal/contract/menus';
import { STATE_LABELS, STATES, orgAddSchema, type OrgAdd, type OrgNode } from '@portal/contract/permission';
import { formatCode } from '@portal/contract/format';
import { fieldRules } from '../../shared/form/zod-rule';
import { Auth } from '../../shared/permission/Auth';
import { useButtons } from '../../shared/permission/use-buttons';
import type { ScreenProps } from '../../shared/ui/screen';
import { useExpandAll } from './use-expand';
import { addOrg, orgOptions, permissionKeys, removeOrg, updateOrg, useOrgTree } from './api';

const orgRules = fieldRules(orgAddSchema);
const MENU = 'permission-org';

function toTreeData(nodes: readonly OrgNode[]): DataNode[] {
  return nodes.map((n) => ({
    key: n.deptBizCode,
    title: (
      <span data-testid="org-node">
        {n.name}
        {n.state === 'disabled' ? (
          <Tag style={{ marginLeft: 6 }} color="default">
            停用
          </Tag>
        ) : null}
      </span>
    ),
    children: toTreeData(n.children),
  }));
}

function findNode(nodes: readonly OrgNode[], code: string | undefined): OrgNode | undefined {
  if (!code) return undefined;
  for (const n of nodes) {
    if (n.deptBizCode === code) return n;
    const c = findNode(n.children, code);
    if (c) return c;
  }
  return undefined;
}

type Mode = { kind: 'view' } | { kind: 'new'; parentCode?: string } | { kind: 'edit' };

/** 组织管理: the organisation tree and the form of the chosen node. */
export default function OrgPage(_props: ScreenProps) {
  const queryClient = useQueryClient();
  const tree = useOrgTree();
  const nodes = useMemo(() => tree.data ?? [], [tree.data]);
  const buttons = useButtons(MENU);
  const [selected, setSelected] = useState<string | undefined>();
  const [mode, setMode] = useState<Mode>({ kind: 'view' });
  const [form] = Form.useForm<OrgAdd>();
  const [saving, setSaving] = useState(false);
  const current = findNode(nodes, selected);
  const expand = useExpandAll(nodes);

  useEffect(() => {
    if (!selected && nodes[0]) setSelected(nodes[0].deptBizCode);
  }, [nodes, selected]);

  const reload = async () => {
    await queryClient.invalidateQueries({ queryKey: permissionKeys.orgTree });
    void queryClient.invalidateQueries({ queryKey: permissionKeys.userList });
  };

  const startNew = () => {
    setMode({ kind: 'new', ...(current ? { parentCode: current.deptBizCode } : {}) });
    form.resetFields();
    form.setFieldsValue({ parentCode: current?.deptBizCode, sort: 0, state: 'enabled' });
  };
  const startEdit = () => {
    if (!current) return;
    setMode({ kind: 'edit' });
    form.resetFields();
    form.setFieldsValue({
      name: current.name,
      parentCode: current.parentCode ?? undefined,
      sort: current.sort,
      leader: current.leader ?? undefined,
      phone: current.phone ?? undefined,
      state: current.state,
    });
  };

  const submit = async (v: OrgAdd) => {
    setSaving(true);
    try {
      if (mode.kind === 'new') {
        const r = await addOrg(v);
        if (r.ok && r.data) {
          await reload();
          setSelected(r.data.deptBizCode);
          setMode({ kind: 'view' });
        }
      } else if (mode.kind === 'edit' && current) {
        const r = await updateOrg({ ...v, deptBizCode: current.deptBizCode, version: current.version });
        if (r.ok) {
          await reload();
          setMode({ kind: 'view' });
        }
      }
    } catch {
      // warned by the request layer
    } finally {
      setSaving(false);
    }
  };

  const remove = async () => {
    if (!current) return;
    try {
      const r = await removeOrg(current);
      if (r.ok) {
        setSelected(current.parentCode ?? undefined);
        await reload();
      }
    } catch {
      // warned by the request layer
    }
  };

  const editing = mode.kind !== 'view';
  return (
    <Row gutter={16} className="permission-org" data-testid="org-page">
      <Col xs={24} md={9} lg={8}>
        <Card
          size="small"
          title="组织架构"
          extra={
            <Auth code={button(MENU, 'add')}>
              <Button type="primary" size="small" icon={<PlusOutlined />} onClick={startNew}>
                新增组织
              </Button>
            </Auth>
          }
        >
          {nodes.length > 0 ? (
            <Tree
              showLine
              blockNode
              expandedKeys={expand.expandedKeys}
              onExpand={expand.onExpand}
              treeData={toTreeData(nodes)}
              selectedKeys={selected ? [selected] : []}
              onSelect={(keys) => {
                const k = keys[0];
                if (k !== undefined) {
                  setSelected(String(k));
                  setMode({ kind: 'view' });
                }
              }}
            />
          ) : (
            <Empty description="暂无组织" />
          )}
        </Card>
      </Col>
      <Col xs={24} md={15} lg={16}>
        <Card
          size="small"
          title={mode.kind === 'new' ? '新增组织' : mode.kind === 'edit' ? '修改组织' : '组织信息'}
          extra={
            !editing && current ? (
              <Space>
                <Auth code={button(MENU, 'update')}>
                  <Button size="small" onClick={startEdit}>
                    修改
                  </Button>
                </Auth>
                <Auth code={button(MENU, 'delete')}>
                  <Button size="small" danger onClick={() => void remove()}>
                    删除
                  </Button>
                </Auth>
              </Space>
            ) : null
          }
        >
          {editing ? (
            <Form<OrgAdd>
              name="org"
              form={form}
              labelCol={{ span: 5 }}
              wrapperCol={{ span: 16 }}
              onFinish={(v) => void submit(v)}
            >
              <Form.Item name="name" label="组织名称" rules={orgRules.name}>
                <Input maxLength={50} />
              </Form.Item>
              <Form.Item name="parentCode" rules={orgRules.parentCode} label="上级组织">
                <TreeSelect
                  allowClear
                  treeDefaultExpandAll
                  placeholder="无（顶级组织）"
                  treeData={orgOptions(nodes, mode.kind === 'edit' ? current?.deptBizCode : undefined)}
                />
              </Form.Item>
              <Form.Item name="sort" rules={orgRules.sort} label="排序">
                <InputNumber min={0} max={99999} precision={0} />
              </Form.Item>
              <Form.Item name="leader" rules={orgRules.leader} label="负责人">
                <Input maxLength={50} />
              </Form.Item>
              <Form.Item name="phone" label="联系电话" rules={orgRules.phone}>
                <Input maxLength={30} />
              </Form.Item>
              <Form.Item name="state" label="状态">
                <Radio.Group options={STATES.map((s) => ({ value: s, label: STATE_LABELS[s] }))} />
              </Form.Item>
              <Form.Item wrapperCol={{ offset: 5 }}>
                <Space>
                  <Button type="primary" htmlType="submit" loading={saving}>
                    保存
                  </Button>
                  <Button onClick={() => setMode({ kind: 'view' })}>取消</Button>
                </Space>
              </Form.Item>
            </Form>
          ) : current ? (
            <Descriptions column={1} size="small" bordered>
              <Descriptions.Item label="组织编号">{formatCode(current.deptBizCode)}</Descriptions.Item>
              <Descriptions.Item label="组织名称">{current.name}</Descriptions.Item>
              <Descriptions.Item label="上级组织">{current.parentName ?? '—'}</Descriptions.Item>
              <Descriptions.Item label="排序">{current.sort}</Descriptions.Item>
              <Descriptions.Item label="负责人">{current.leader ?? '—'}</Descriptions.Item>
              <Descriptions.Item label="联系电话">{current.phone ?? '—'}</Descriptions.Item>
              <Descriptions.Item label="状态">{STATE_LABELS[current.state]}</Descriptions.Item>
              <Descriptions.Item label="用户数">{current.userCount}</Descriptions.Item>
            </Descriptions>
          ) : (
            <Empty description={buttons.has('add') ? '请选择组织，或新增组织' : '请选择组织'} />
          )}
        </Card>
      </Col>
    </Row>
  );
}
