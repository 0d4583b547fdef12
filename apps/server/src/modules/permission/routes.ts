import { button, menu } from '@portal/contract/menus';
import {
  PERMISSION_PATHS as P,
  orgAddSchema,
  orgQuery,
  orgUpdateSchema,
  passwordResetSchema,
  roleAddSchema,
  roleCfgSaveSchema,
  roleListSchema,
  roleQuery,
  roleUpdateSchema,
  userAddSchema,
  userListSchema,
  userQuery,
  userStatusSchema,
  userUpdateSchema,
} from '@portal/contract/permission';
import type { PortalModule } from '../../platform/module';
import { streamListExport } from '../../platform/http/export';
import { userExport } from './export';
import { seedDemoStaff } from './demo';
import {
  addRole,
  getRole,
  listRoles,
  menuTree,
  removeRole,
  roleDict,
  saveRoleConfig,
  updateRole,
  userTree,
} from './roles';
import { addOrg, getOrg, orgTree, removeOrg, updateOrg } from './orgs';
import {
  addUser,
  getUser,
  listUsers,
  removeUser,
  resetPassword,
  setUserStatus,
  updateUser,
  userDict,
} from './users';

import { listOf, UNSCOPED, type ScopedRows } from '../../platform/http/route-scope';

const ROLE = 'permission-role';
const ORG = 'permission-org';
const USER = 'permission-user';
/** The permission screens (权限管理): the only ones shown organisations, roles and login names. */
const DIRECTORY = [menu(ROLE), menu(ORG), menu(USER)];
/**
 * Roles have no organisation: held by the permission administrators. A role acted on is declared
 * `within` (no wider than the caller), what it is changed into is checked in roles.ts.
 */
const ROLES = { none: 'roles have no organisation; no escalation: `within` and roles.ts' };
/** The organisation a user is created in or moved to, named by deptCode. */
const USER_ORG: ScopedRows = { kind: 'org', params: ['deptCode'] };

/**
 * Roles (with their menu/button codes and data scope), organisations, staff users and
 * the administrator's password reset. The directories (organisation tree, roles, people with their
 * login names) are for the permission screens only (SECURITY.md).
 */
export const permissionModule: PortalModule = {
  name: 'permission',
  demo: seedDemoStaff,
  register({ api, db, config }) {
    // ---- roles
    api.post(P.roleList, { perm: menu(ROLE), scope: ROLES, body: roleListSchema }, async ({ body }) =>
      listRoles(db, body),
    );
    api.post(P.roleMenuTree, { perm: menu(ROLE), scope: UNSCOPED.reference }, async () => menuTree(db));
    api.post(P.roleGet, { perm: menu(ROLE), scope: ROLES, query: roleQuery }, async ({ query }) =>
      getRole(db, query.bizCode),
    );
    api.post(
      P.roleAdd,
      { perm: button(ROLE, 'add'), scope: ROLES, body: roleAddSchema },
      async ({ body, user, actor }) => addRole(db, body, { user, actor }),
    );
    api.post(
      P.roleUpdate,
      { perm: button(ROLE, 'update'), scope: ROLES, within: 'role', body: roleUpdateSchema },
      async ({ body, user, actor }) => {
        await updateRole(db, body, { user, actor });
        return null;
      },
    );
    api.post(
      P.roleRemove,
      { perm: button(ROLE, 'delete'), scope: ROLES, within: 'role', query: roleQuery },
      async ({ query, user, actor }) => {
        await removeRole(db, query.bizCode, { user, actor });
        return null;
      },
    );
    api.post(
      P.roleCfgSave,
      { perm: button(ROLE, 'cfgSave'), scope: ROLES, within: 'role', body: roleCfgSaveSchema },
      async ({ body, user, actor }) => saveRoleConfig(db, body, { user, actor }),
    );
    api.post(P.roleUserTree, { perm: DIRECTORY, scope: UNSCOPED.picker }, async () => userTree(db));
    api.post(P.roleDict, { perm: DIRECTORY, scope: UNSCOPED.picker }, async () => roleDict(db));

    // ---- organisations
    api.post(P.orgTree, { perm: DIRECTORY, scope: UNSCOPED.picker }, async () => orgTree(db));
    api.post(P.orgGet, { perm: [menu(ORG), menu(USER)], scope: 'org', query: orgQuery }, async ({ query }) =>
      getOrg(db, query.bizCode),
    );
    api.post(
      P.orgAdd,
      { perm: button(ORG, 'add'), scope: 'org', body: orgAddSchema },
      async ({ body, user, actor }) => addOrg(db, body, { user, actor }),
    );
    api.post(
      P.orgUpdate,
      { perm: button(ORG, 'update'), scope: 'org', body: orgUpdateSchema },
      async ({ body, user, actor }) => {
        await updateOrg(db, body, { user, actor });
        return null;
      },
    );
    api.post(
      P.orgRemove,
      { perm: button(ORG, 'delete'), scope: 'org', query: orgQuery },
      async ({ query, user, actor }) => {
        await removeOrg(db, query.bizCode, { user, actor });
        return null;
      },
    );

    // ---- users
    api.post(
      P.userList,
      { perm: menu(USER), scope: listOf('staff'), body: userListSchema },
      async ({ body, user, actor }) => listUsers(db, body, { user, actor }),
    );
    api.post(
      P.userListExport,
      {
        perm: button(USER, 'export'),
        scope: listOf('staff'),
        body: userListSchema,
        raw: true,
        summary: '用户列表.xlsx',
      },
      async ({ body, user, actor, reply }) =>
        streamListExport(
          reply,
          userExport(
            async (pageNum, pageSize) =>
              (await listUsers(db, { ...body, pageNum, pageSize }, { user, actor })).list,
          ),
        ),
    );
    api.post(
      P.userGet,
      { perm: menu(USER), scope: 'staff', query: userQuery },
      async ({ query, user, actor }) => getUser(db, query.bizCode, { user, actor }),
    );
    api.post(
      P.userAdd,
      // A new user only in an organisation inside the manager's scope (no escalation).
      { perm: button(USER, 'add'), scope: USER_ORG, body: userAddSchema },
      async ({ body, user, actor }) => addUser(db, config.passwordHashCost, body, { user, actor }),
    );
    api.post(
      P.userUpdate,
      { perm: button(USER, 'update'), scope: ['staff', USER_ORG], within: 'staff', body: userUpdateSchema },
      async ({ body, user, actor }) => {
        await updateUser(db, body, { user, actor });
        return null;
      },
    );
    api.post(
      P.userStatus,
      { perm: button(USER, 'status'), scope: 'staff', within: 'staff', body: userStatusSchema },
      async ({ body, user, actor }) => {
        await setUserStatus(db, body, { user, actor });
        return null;
      },
    );
    api.post(
      P.userRemove,
      { perm: button(USER, 'delete'), scope: 'staff', within: 'staff', query: userQuery },
      async ({ query, user, actor }) => {
        await removeUser(db, query.bizCode, { user, actor });
        return null;
      },
    );
    api.post(P.userDict, { perm: DIRECTORY, scope: UNSCOPED.picker }, async () => userDict(db));
    api.post(
      P.passwordReset,
      { perm: button(USER, 'resetPassword'), scope: 'staff', within: 'staff', body: passwordResetSchema },
      async ({ body, user, actor }) => resetPassword(db, config.passwordHashCost, body, { user, actor }),
    );
  },
};
