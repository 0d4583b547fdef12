import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  PERMISSION_PATHS as P,
  type DictItem,
  type MenuTreeNode,
  type OrgAdd,
  type OrgNode,
  type OrgUpdate,
  type RoleAdd,
  type RoleCfgSave,
  type RoleDetail,
  type RoleUpdate,
  type RoleView,
  type TemporaryPassword,
  type UserAdd,
  type UserStatus,
  type UserUpdate,
  type UserView,
} from '@portal/contract/permission';
import { post, update } from '../../shared/request/http';
import { postDict } from '../../shared/request/dict';

/** Calls of the permission screens, with the confirmation prompts. */

/** The permission cache keys: the server-paged lists and the trees and dicts the screens share. */
export const permissionKeys = {
  userList: ['list', P.userList] as const,
  /** The user list of one department of the tree (all of them under ''). */
  userListOf: (deptCode: string | undefined) => ['list', P.userList, deptCode ?? ''] as const,
  orgTree: ['permission', 'orgTree'] as const,
  roleDict: ['permission', 'roleDict'] as const,
  menuTree: ['permission', 'menuTree'] as const,
};

// ---- roles
export const getRole = (bizCode: string) => post<RoleDetail>(P.roleGet, undefined, { query: { bizCode } });
export const addRole = (body: RoleAdd) =>
  update<{ bizCode: string }>(P.roleAdd, body, { confirm: `确定要新增角色「${body.name}」吗？` });
export const updateRole = (body: RoleUpdate) =>
  update(P.roleUpdate, body, { confirm: `确定要修改角色「${body.name}」吗？` });
export const removeRole = (r: RoleView) =>
  update(P.roleRemove, undefined, {
    query: { bizCode: r.bizCode },
    confirm: `确定要删除角色「${r.name}」吗？`,
  });
export const saveRoleConfig = (body: RoleCfgSave) =>
  update<{ menuCodes: string[] }>(P.roleCfgSave, body, { confirm: '此操作将保存角色权限配置！ 是否继续？' });

/** The permission reads as query options. */
export const permissionQueries = {
  menuTree: () =>
    queryOptions({
      queryKey: permissionKeys.menuTree,
      queryFn: () => post<MenuTreeNode[]>(P.roleMenuTree, undefined, { loading: false }),
      staleTime: Infinity,
    }),
  roleDict: () =>
    queryOptions({
      queryKey: permissionKeys.roleDict,
      queryFn: () => postDict<DictItem>(P.roleDict, undefined, { loading: false }),
      staleTime: 30_000,
    }),
  orgTree: () =>
    queryOptions({
      queryKey: permissionKeys.orgTree,
      queryFn: () => post<OrgNode[]>(P.orgTree, undefined, { loading: false }),
      staleTime: 30_000,
    }),
  /** A role with its menu codes, read afresh for each version (权限配置 never shows a stale one). */
  role: (role: Pick<RoleView, 'bizCode' | 'version'>) =>
    queryOptions({
      queryKey: ['permission', 'role', role.bizCode, role.version],
      queryFn: () => getRole(role.bizCode),
      gcTime: 0,
    }),
};

export function useMenuTree(enabled = true) {
  return useQuery({ ...permissionQueries.menuTree(), enabled });
}

export function useRoleDict() {
  return useQuery(permissionQueries.roleDict());
}

// ---- organisations
export function useOrgTree() {
  return useQuery(permissionQueries.orgTree());
}
export const addOrg = (body: OrgAdd) =>
  update<{ deptBizCode: string }>(P.orgAdd, body, { confirm: `确定要新增组织「${body.name}」吗？` });
export const updateOrg = (body: OrgUpdate) =>
  update(P.orgUpdate, body, { confirm: `确定要修改组织「${body.name}」吗？` });
export const removeOrg = (o: OrgNode) =>
  update(P.orgRemove, undefined, {
    query: { bizCode: o.deptBizCode },
    confirm: `确定要删除组织「${o.name}」吗？`,
  });

// ---- users
export const getUser = (userCode: string) =>
  post<UserView>(P.userGet, undefined, { query: { bizCode: userCode } });
export const addUser = (body: UserAdd) =>
  update<TemporaryPassword>(P.userAdd, body, { confirm: `确定要新增用户「${body.realName}」吗？` });
export const updateUser = (body: UserUpdate) =>
  update(P.userUpdate, body, { confirm: `确定要修改用户「${body.realName}」吗？` });
export const removeUser = (u: UserView) =>
  update(P.userRemove, undefined, {
    query: { bizCode: u.userCode },
    confirm: `确定要删除用户「${u.realName}（${u.userName}）」吗？`,
  });
export const setUserStatus = (u: UserView, state: UserStatus['state']) =>
  update(
    P.userStatus,
    { userCode: u.userCode, version: u.version, state },
    {
      confirm:
        state === 'disabled'
          ? `确定要停用用户「${u.realName}」吗？停用后该用户将立即退出登录。`
          : `确定要启用用户「${u.realName}」吗？`,
    },
  );
export const resetPassword = (u: UserView) =>
  update<TemporaryPassword>(
    P.passwordReset,
    { userCode: u.userCode },
    { confirm: `确定要重置用户「${u.realName}（${u.userName}）」的密码吗？该用户将立即退出登录。` },
  );

/** Flattens the organisation tree for a TreeSelect (value = deptBizCode). */
export interface OrgOption {
  value: string;
  title: string;
  disabled?: boolean;
  children?: OrgOption[];
}
export function orgOptions(nodes: readonly OrgNode[], disabledCode?: string): OrgOption[] {
  return nodes.map((n) => {
    const off = n.deptBizCode === disabledCode;
    return {
      value: n.deptBizCode,
      title: n.name,
      ...(off ? { disabled: true } : {}),
      // A node's own subtree cannot become its parent (the server answers 409 too).
      ...(n.children.length > 0 ? { children: off ? [] : orgOptions(n.children, disabledCode) } : {}),
    };
  });
}
