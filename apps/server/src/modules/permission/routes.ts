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

const p = (path: string) => `/api${path}`;
const ROLE = 'permission-role';
const ORG = 'permission-org';
const USER = 'permission-user';

/**
 * SPEC §7.8: roles (with their menu/button codes and data scope), organisations, staff users and
 * the administrator's password reset. Dictionaries and trees other screens use need only a session.
 */
export const permissionModule: PortalModule = {
  name: 'permission',
  register({ api, db }) {
    // ---- roles
    api.post(p(P.roleList), { perm: menu(ROLE), body: roleListSchema }, async ({ body }) =>
      listRoles(db, body),
    );
    api.post(p(P.roleMenuTree), { perm: menu(ROLE) }, async () => menuTree(db));
    api.post(p(P.roleGet), { perm: menu(ROLE), query: roleQuery }, async ({ query }) =>
      getRole(db, query.bizCode),
    );
    api.post(
      p(P.roleAdd),
      { perm: button(ROLE, 'add'), body: roleAddSchema },
      async ({ body, user, actor }) => addRole(db, body, { user, actor }),
    );
    api.post(
      p(P.roleUpdate),
      { perm: button(ROLE, 'update'), body: roleUpdateSchema },
      async ({ body, user, actor }) => {
        await updateRole(db, body, { user, actor });
        return null;
      },
    );
    api.post(
      p(P.roleRemove),
      { perm: button(ROLE, 'delete'), query: roleQuery },
      async ({ query, user, actor }) => {
        await removeRole(db, query.bizCode, { user, actor });
        return null;
      },
    );
    api.post(
      p(P.roleCfgSave),
      { perm: button(ROLE, 'cfgSave'), body: roleCfgSaveSchema },
      async ({ body, user, actor }) => saveRoleConfig(db, body, { user, actor }),
    );
    api.post(p(P.roleUserTree), { perm: 'session' }, async () => userTree(db));
    api.post(p(P.roleDict), { perm: 'session' }, async () => roleDict(db));

    // ---- organisations
    api.post(p(P.orgTree), { perm: 'session' }, async () => orgTree(db));
    api.post(p(P.orgGet), { perm: [menu(ORG), menu(USER)], query: orgQuery }, async ({ query }) =>
      getOrg(db, query.bizCode),
    );
    api.post(p(P.orgAdd), { perm: button(ORG, 'add'), body: orgAddSchema }, async ({ body, user, actor }) =>
      addOrg(db, body, { user, actor }),
    );
    api.post(
      p(P.orgUpdate),
      { perm: button(ORG, 'update'), body: orgUpdateSchema },
      async ({ body, user, actor }) => {
        await updateOrg(db, body, { user, actor });
        return null;
      },
    );
    api.post(
      p(P.orgRemove),
      { perm: button(ORG, 'delete'), query: orgQuery },
      async ({ query, user, actor }) => {
        await removeOrg(db, query.bizCode, { user, actor });
        return null;
      },
    );

    // ---- users
    api.post(p(P.userList), { perm: menu(USER), body: userListSchema }, async ({ body, user, actor }) =>
      listUsers(db, body, { user, actor }),
    );
    api.post(p(P.userGet), { perm: menu(USER), query: userQuery }, async ({ query, user, actor }) =>
      getUser(db, query.bizCode, { user, actor }),
    );
    api.post(
      p(P.userAdd),
      { perm: button(USER, 'add'), body: userAddSchema },
      async ({ body, user, actor }) => addUser(db, body, { user, actor }),
    );
    api.post(
      p(P.userUpdate),
      { perm: button(USER, 'update'), body: userUpdateSchema },
      async ({ body, user, actor }) => {
        await updateUser(db, body, { user, actor });
        return null;
      },
    );
    api.post(
      p(P.userStatus),
      { perm: button(USER, 'status'), body: userStatusSchema },
      async ({ body, user, actor }) => {
        await setUserStatus(db, body, { user, actor });
        return null;
      },
    );
    api.post(
      p(P.userRemove),
      { perm: button(USER, 'delete'), query: userQuery },
      async ({ query, user, actor }) => {
        await removeUser(db, query.bizCode, { user, actor });
        return null;
      },
    );
    api.post(p(P.userDict), { perm: 'session' }, async () => userDict(db));
    api.post(
      p(P.passwordReset),
      { perm: button(USER, 'resetPassword'), body: passwordResetSchema },
      async ({ body, user, actor }) => resetPassword(db, body, { user, actor }),
    );
  },
};
