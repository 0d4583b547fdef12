import { useEffect, useMemo, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { Alert, Button, Checkbox, Drawer, Input, Space, Spin, Tag, Tree } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { useQuery } from '@tanstack/react-query';
import { button } from '@portal/contract/menus';
import type { MenuTreeNode, RoleView } from '@portal/contract/permission';
import { Auth } from '../../shared/permission/Auth';
import { DISCARD_MESSAGE, markClean, markDirty } from '../../shared/editor/unsaved';
import { normalizePath } from '../../shared/routing/route-table';
import { confirmAction } from '../../shared/ui/feedback-lazy';
import { allCodes, branchCodes, filterTree, indexTree, toggleCode, treeChecks } from './menu-tree';
import { permissionQueries, saveRoleConfig, useMenuTree } from './api';

const MENU = 'permission-role';

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

const sameCodes = (a: ReadonlySet<string>, b: ReadonlySet<string>) =>
  a.size === b.size && [...a].every((c) => b.has(c));

/**
 * 权限配置: the role's menu tree with the check rule of toggleCode and the ticks of treeChecks
 * (menu-tree.ts). Saved unchanged, it saves exactly the codes it read; closed with changes, it
 * asks first.
 */
export function RoleConfig({ role, onClose }: { role: RoleView; onClose(): void }) {
  const path = normalizePath(useLocation().pathname);
  const tree = useMenuTree();
  const detail = useQuery(permissionQueries.role(role));
  const index = useMemo(() => indexTree(tree.data ?? []), [tree.data]);
  const everyCode = useMemo(() => allCodes(tree.data ?? []), [tree.data]);
  const [query, setQuery] = useState('');
  const shown = useMemo(() => filterTree(tree.data ?? [], query), [tree.data, query]);
  // Open at first; a search opens the paths to what it found.
  const [expanded, setExpanded] = useState<string[] | null>(null);
  const expandedKeys = query.trim() ? branchCodes(shown) : (expanded ?? branchCodes(tree.data ?? []));
  const [checked, setChecked] = useState<Set<string> | null>(null);
  const [saving, setSaving] = useState(false);
  const loaded = useRef<ReadonlySet<string> | null>(null);
  useEffect(() => {
    if (detail.data && !loaded.current) {
      loaded.current = new Set(detail.data.menuCodes);
      setChecked(new Set(detail.data.menuCodes));
    }
  }, [detail.data]);
  const changed = !!checked && !!loaded.current && !sameCodes(checked, loaded.current);
  // Closing the tab with changes asks too (docs/architecture.md "Editors keep their input").
  useEffect(() => {
    if (changed) markDirty(path);
    else markClean(path);
  }, [changed, path]);

  const toggle = (code: string, on: boolean) => {
    setChecked((prev) => toggleCode(prev ?? new Set(), index, code, on));
  };

  const close = async () => {
    if (changed && !(await confirmAction({ title: '未保存的内容', content: DISCARD_MESSAGE }))) return;
    markClean(path);
    onClose();
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
      if (r.ok) {
        markClean(path);
        onClose();
      }
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
      onClose={() => void close()}
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
              checkedKeys={treeChecks(checked, index)}
              onCheck={(_, info) => toggle(String(info.node.key), info.checked)}
            />
          )}
        </>
      )}
    </Drawer>
  );
}
