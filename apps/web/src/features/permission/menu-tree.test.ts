import { describe, expect, it } from 'vitest';
import type { MenuTreeNode, OrgNode } from '@portal/contract/permission';
import { allCodes, branchCodes, filterTree, indexTree, toggleCode, treeChecks } from './menu-tree';
import { orgOptions } from './api';

const tree: MenuTreeNode[] = [
  {
    code: 'permission',
    title: '权限管理',
    kind: 'menu',
    children: [
      {
        code: 'permission-org',
        title: '组织管理',
        kind: 'menu',
        children: [
          { code: 'permission-org:add', title: '新增', kind: 'button' },
          { code: 'permission-org:delete', title: '删除', kind: 'button' },
        ],
      },
      { code: 'permission-role', title: '角色管理', kind: 'menu' },
    ],
  },
];

describe('role menu tree check rule', () => {
  const index = indexTree(tree);
  const sorted = (s: Set<string>) => [...s].sort();

  it('checking a node grants everything below it and the menus above it', () => {
    expect(sorted(toggleCode(new Set(), index, 'permission-org', true))).toEqual([
      'permission',
      'permission-org',
      'permission-org:add',
      'permission-org:delete',
    ]);
    expect(sorted(toggleCode(new Set(), index, 'permission-org:add', true))).toEqual([
      'permission',
      'permission-org',
      'permission-org:add',
    ]);
  });

  it('unchecking takes the node and everything below it, the menus above stay', () => {
    const all = toggleCode(new Set(), index, 'permission', true);
    expect(sorted(toggleCode(all, index, 'permission-org', false))).toEqual([
      'permission',
      'permission-role',
    ]);
    // A menu stays granted without its buttons.
    const noButtons = toggleCode(
      toggleCode(all, index, 'permission-org:add', false),
      index,
      'permission-org:delete',
      false,
    );
    expect(noButtons.has('permission-org')).toBe(true);
  });
});

describe('role menu tree ticks', () => {
  const index = indexTree(tree);

  it('ticks a node only when everything below it is granted, half-ticks it when part is', () => {
    expect(treeChecks(new Set(['permission', 'permission-role']), index)).toEqual({
      checked: ['permission-role'],
      halfChecked: ['permission'],
    });
    // A screen without its buttons is half-ticked: a click grants the buttons, not takes the screen.
    expect(treeChecks(new Set(['permission', 'permission-org', 'permission-org:add']), index)).toEqual({
      checked: ['permission-org:add'],
      halfChecked: ['permission', 'permission-org'],
    });
    expect(treeChecks(new Set(allCodes(tree)), index).halfChecked).toEqual([]);
  });

  it('taking the last granted child away takes the directory above it too', () => {
    const roleOnly = toggleCode(new Set(), index, 'permission-role', true);
    expect([...toggleCode(roleOnly, index, 'permission-role', false)]).toEqual([]);
  });
});

describe('organisation options', () => {
  const node = (code: string, name: string, children: OrgNode[] = []): OrgNode => ({
    deptBizCode: code,
    name,
    parentCode: null,
    parentName: null,
    sort: 0,
    leader: null,
    phone: null,
    state: 'enabled',
    userCount: 0,
    version: 0,
    children,
  });
  it('cannot offer a node, nor anything below it, as its own parent', () => {
    const orgs = [node('1', '总部', [node('2', '华东', [node('3', '上海')]), node('4', '华北')])];
    const opts = orgOptions(orgs, '2');
    const east = opts[0]!.children![0]!;
    expect(east).toMatchObject({ value: '2', disabled: true, children: [] });
    expect(opts[0]!.children![1]).toEqual({ value: '4', title: '华北' });
  });
});

describe('role menu tree search, expand and select all', () => {
  it('a search keeps the matches with everything below them and the path above them', () => {
    expect(filterTree(tree, '组织')).toEqual([{ ...tree[0], children: [tree[0]!.children![0]] }]);
    expect(allCodes(filterTree(tree, 'DELETE'))).toEqual([
      'permission',
      'permission-org',
      'permission-org:delete',
    ]);
    expect(filterTree(tree, '无此菜单')).toEqual([]);
    expect(filterTree(tree, '  ')).toEqual(tree);
  });

  it('select all takes every code; expand all opens every node with children', () => {
    expect(allCodes(tree)).toEqual([
      'permission',
      'permission-org',
      'permission-org:add',
      'permission-org:delete',
      'permission-role',
    ]);
    expect(branchCodes(tree)).toEqual(['permission', 'permission-org']);
  });
});
