import { useState } from 'react';
import { Button, Card, Empty, Form, Input, InputNumber, Select, Space, Spin, Tree, TreeSelect } from 'antd';
import { CRM_PATHS, orgAddSchema, type DeptNode } from '@portal/contract/crm';
import { fieldRules } from '../../shared/form/zod-rule';
import { button } from '@portal/contract/menus';
import { AddButton } from '../../shared/list/AddButton';
import { EditModal } from '../../shared/list/EditModal';
import { updateThen } from '../../shared/list/update-then';
import { Auth } from '../../shared/permission/Auth';
import type { ScreenProps } from '../../shared/ui/screen';
import { useCompanyDict } from '../../shared/company/api';
import { change, deptOptions, CRM_MENUS, useDeptTree, useRefreshDeptTree } from './api';
import { validValues } from '../../shared/ui/valid-values';

interface DeptValues {
  deptName: string;
  parentDeptCode?: string;
  sort?: number;
}

function findNode(nodes: readonly DeptNode[], code: string): DeptNode | undefined {
  for (const n of nodes) {
    if (n.deptCode === code) return n;
    const hit = findNode(n.children, code);
    if (hit) return hit;
  }
  return undefined;
}

interface TreeItem {
  key: string;
  title: string;
  children: TreeItem[];
}
const toTree = (nodes: readonly DeptNode[]): TreeItem[] =>
  nodes.map((n) => ({
    key: n.deptCode,
    title: `${n.deptName}${n.userCount ? `（${n.userCount}人）` : ''}`,
    children: toTree(n.children),
  }));

const rules = fieldRules(orgAddSchema);

/** 组织架构: a chosen customer's department tree (add / rename / move / delete). */
export default function OrgPage(_props: ScreenProps) {
  const customers = useCompanyDict().data ?? [];
  const [compCode, setCompCode] = useState<string | undefined>();
  const tree = useDeptTree(compCode);
  const [selected, setSelected] = useState<string | undefined>();
  const [editing, setEditing] = useState<DeptNode | 'new' | null>(null);
  const [form] = Form.useForm<DeptValues>();
  const nodes = tree.data ?? [];
  const current = selected ? findNode(nodes, selected) : undefined;

  const refreshTree = useRefreshDeptTree(compCode);

  const open = (mode: DeptNode | 'new') => {
    form.resetFields();
    if (mode === 'new') form.setFieldsValue({ parentDeptCode: current?.deptCode, sort: 0 });
    else
      form.setFieldsValue({
        deptName: mode.deptName,
        parentDeptCode: mode.parentDeptCode ?? undefined,
        sort: mode.sort,
      });
    setEditing(mode);
  };

  const save = async () => {
    const v = await validValues(form);
    if (!v) return;
    const r =
      editing === 'new'
        ? await change(CRM_PATHS.orgAdd, { ...v, compCode }).catch(() => null)
        : editing
          ? await change(CRM_PATHS.orgUpdate, {
              ...v,
              deptCode: editing.deptCode,
              version: editing.version,
            }).catch(() => null)
          : null;
    if (r?.ok) {
      setEditing(null);
      await refreshTree();
    }
  };

  const remove = async () => {
    if (!current) return;
    await updateThen(
      CRM_PATHS.orgDel,
      undefined,
      { query: { deptCode: current.deptCode }, confirm: `确定要删除部门「${current.deptName}」吗？` },
      () => {
        setSelected(undefined);
        return refreshTree();
      },
    );
  };

  return (
    <Card title="组织架构" data-testid="crm-org">
      <Space wrap style={{ marginBottom: 16 }}>
        <span>企业：</span>
        <Select
          aria-label="企业"
          showSearch
          optionFilterProp="label"
          style={{ width: 300 }}
          placeholder="请选择企业"
          value={compCode}
          onChange={(v: string) => {
            setCompCode(v);
            setSelected(undefined);
          }}
          options={customers.map((c) => ({ value: c.code, label: c.label }))}
        />
        {compCode ? (
          <>
            <AddButton code={button(CRM_MENUS.org, 'add')} onClick={() => open('new')}>
              {current ? '新增下级部门' : '新增部门'}
            </AddButton>
            <Auth code={button(CRM_MENUS.org, 'update')}>
              <Button disabled={!current} onClick={() => current && open(current)}>
                修改
              </Button>
            </Auth>
            <Auth code={button(CRM_MENUS.org, 'delete')}>
              <Button danger disabled={!current} onClick={() => void remove()}>
                删除
              </Button>
            </Auth>
          </>
        ) : null}
      </Space>
      {!compCode ? (
        <Empty description="请选择企业" />
      ) : (
        <Spin spinning={tree.isFetching}>
          {nodes.length === 0 ? (
            <Empty description="暂无部门" />
          ) : (
            <Tree
              blockNode
              defaultExpandAll
              key={nodes.length}
              selectedKeys={selected ? [selected] : []}
              onSelect={(keys) => setSelected(keys[0] === undefined ? undefined : String(keys[0]))}
              treeData={toTree(nodes)}
            />
          )}
        </Spin>
      )}
      <EditModal
        title={editing === 'new' ? '新增部门' : '修改部门'}
        open={editing !== null}
        onSave={save}
        onCancel={() => setEditing(null)}
      >
        <Form<DeptValues> form={form} layout="vertical" name="crmDept">
          <Form.Item name="deptName" label="部门名称" rules={rules.deptName}>
            <Input maxLength={50} />
          </Form.Item>
          <Form.Item name="parentDeptCode" rules={rules.parentDeptCode} label="上级部门">
            <TreeSelect
              allowClear
              treeDefaultExpandAll
              placeholder="无（顶级部门）"
              treeData={deptOptions(nodes, editing && editing !== 'new' ? editing.deptCode : undefined)}
            />
          </Form.Item>
          <Form.Item name="sort" rules={rules.sort} label="排序">
            <InputNumber min={0} max={9999} precision={0} />
          </Form.Item>
        </Form>
      </EditModal>
    </Card>
  );
}
