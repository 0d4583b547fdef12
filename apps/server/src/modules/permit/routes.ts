import { button, menu, type Action } from '@portal/contract/menus';
import {
  candidatesQuery,
  compDifQuery,
  custListSchema,
  custSaveSchema,
  getCustRoleQuery,
  getUserRoleQuery,
  PERMIT_AREA_MENU,
  PERMIT_AREAS,
  PERMIT_CHG_MENU,
  PERMIT_PATHS,
  PERMIT_USER_MENU,
  permitActionSchema,
  permitCodeQuery,
  permitDict,
  roleChgListSchema,
  setRoleSchema,
  userListSchema,
  userSaveSchema,
  type PermitArea,
} from '@portal/contract/permit';
import type { SessionUser } from '../../platform/auth/sessions';
import { noPermission } from '../../platform/errors';
import { permAllows } from '../../platform/http/route';
import type { PortalModule } from '../../platform/module';
import { registerCompanyUsageCheck } from '../company/service';
import { seedDemoPermits } from './demo';
import {
  compInfoByDif,
  countCustomerPermits,
  currentRoles,
  disablePermit,
  listPermits,
  listRoleChanges,
  openPermit,
  savePermit,
  setRoles,
  userCandidates,
  viewPermit,
  viewRoleChange,
} from './service';

const p = (path: string) => `/api${path}`;

/**
 * Customer admission calls serve three areas, each with its screen's codes (ec-permit-comp,
 * dw-permit-comp, fc-fc); the route lets in anyone holding one of them, and the handler checks the
 * code of the area the call is about. The role-change screen (ec-permit-chg) reads admissions and
 * changes roles in the ec area. User admissions (every area) are ec-permit-personal.
 */
const areaMenus = PERMIT_AREAS.map((a) => menu(PERMIT_AREA_MENU[a]));
const areaButtons = (action: Action) => PERMIT_AREAS.map((a) => button(PERMIT_AREA_MENU[a], action));
const CUST_READERS = [...areaMenus, menu(PERMIT_CHG_MENU)];

/** The areas whose customer admissions this user may see. */
function custAreas(user: SessionUser): PermitArea[] {
  return PERMIT_AREAS.filter(
    (a) =>
      permAllows(menu(PERMIT_AREA_MENU[a]), user) === 'ok' ||
      (a === 'ec' && permAllows(menu(PERMIT_CHG_MENU), user) === 'ok'),
  );
}

function requireCustArea(user: SessionUser, area: PermitArea, action: Action | 'view'): void {
  const codes =
    action === 'view'
      ? [menu(PERMIT_AREA_MENU[area]), ...(area === 'ec' ? [menu(PERMIT_CHG_MENU)] : [])]
      : [
          button(PERMIT_AREA_MENU[area], action),
          ...(area === 'ec' && action === 'setRole' ? [button(PERMIT_CHG_MENU, 'setRole')] : []),
        ];
  if (permAllows(codes, user) !== 'ok') throw noPermission();
}

export const permitModule: PortalModule = {
  name: 'permit',
  register({ api, db }) {
    registerCompanyUsageCheck(async (ex, compCode) => {
      const n = await countCustomerPermits(ex, compCode);
      return n > 0 ? `存在${n}条准入记录` : null;
    });

    // Customer admissions (企业客户准入).
    api.post(
      p(PERMIT_PATHS.custSave),
      { perm: [...areaButtons('add'), ...areaButtons('save')], body: custSaveSchema },
      async ({ body, user, actor }) => {
        requireCustArea(user, body.area, body.bizCode ? 'save' : 'add');
        return savePermit(db, 'cust', { ...body, key: body.compCode }, actor);
      },
    );
    api.post(
      p(PERMIT_PATHS.custView),
      { perm: CUST_READERS, query: permitCodeQuery },
      async ({ query, user }) => {
        const v = await viewPermit(db, 'cust', query.bizCode);
        requireCustArea(user, v.area, 'view');
        return v;
      },
    );
    api.post(p(PERMIT_PATHS.custDict), { perm: CUST_READERS }, async () => permitDict('cust'));
    api.post(
      p(PERMIT_PATHS.custList),
      { perm: CUST_READERS, body: custListSchema },
      async ({ body, user }) => {
        if (body.area) requireCustArea(user, body.area, 'view');
        return listPermits(db, 'cust', body, custAreas(user));
      },
    );
    api.post(
      p(PERMIT_PATHS.custOpen),
      { perm: areaButtons('open'), query: permitCodeQuery, body: permitActionSchema },
      async ({ query, body, user, actor }) => {
        requireCustArea(user, body.area, 'open');
        await openPermit(db, 'cust', query.bizCode, body.area, body.version, actor);
        return null;
      },
    );
    api.post(
      p(PERMIT_PATHS.custDisable),
      { perm: areaButtons('disable'), query: permitCodeQuery, body: permitActionSchema },
      async ({ query, body, user, actor }) => {
        requireCustArea(user, body.area, 'disable');
        await disablePermit(db, 'cust', query.bizCode, body.area, body.version, actor);
        return null;
      },
    );
    api.post(
      p(PERMIT_PATHS.setCustRole),
      { perm: [...areaButtons('setRole'), button(PERMIT_CHG_MENU, 'setRole')], body: setRoleSchema },
      async ({ body, user, actor }) => {
        requireCustArea(user, body.area, 'setRole');
        return setRoles(db, 'cust', body, actor);
      },
    );
    api.post(
      p(PERMIT_PATHS.getCustRole),
      { perm: CUST_READERS, query: getCustRoleQuery },
      async ({ query, user }) => currentRoles(db, 'cust', query.CompCode, custAreas(user)),
    );
    api.post(
      p(PERMIT_PATHS.custByDif),
      { perm: CUST_READERS, query: compDifQuery },
      async ({ query, user }) => compInfoByDif(db, query.compDif, custAreas(user)),
    );
    api.post(
      p(PERMIT_PATHS.roleChgList),
      { perm: menu(PERMIT_CHG_MENU), body: roleChgListSchema },
      async ({ body }) => listRoleChanges(db, body),
    );
    api.post(
      p(PERMIT_PATHS.roleChgView),
      { perm: menu(PERMIT_CHG_MENU), query: permitCodeQuery },
      async ({ query }) => viewRoleChange(db, query.bizCode),
    );

    // Enterprise-user admissions (企业用户准入), every area on one screen.
    const U = PERMIT_USER_MENU;
    api.post(
      p(PERMIT_PATHS.userSave),
      { perm: [button(U, 'add'), button(U, 'save')], body: userSaveSchema },
      async ({ body, user, actor }) => {
        if (permAllows(button(U, body.bizCode ? 'save' : 'add'), user) !== 'ok') throw noPermission();
        return savePermit(db, 'user', { ...body, key: body.userCode }, actor);
      },
    );
    api.post(p(PERMIT_PATHS.userView), { perm: menu(U), query: permitCodeQuery }, async ({ query }) =>
      viewPermit(db, 'user', query.bizCode),
    );
    api.post(p(PERMIT_PATHS.userDict), { perm: menu(U) }, async () => permitDict('user'));
    api.post(p(PERMIT_PATHS.userList), { perm: menu(U), body: userListSchema }, async ({ body }) =>
      listPermits(db, 'user', body, PERMIT_AREAS),
    );
    api.post(
      p(PERMIT_PATHS.userCandidates),
      { perm: [button(U, 'add'), button(U, 'save')], query: candidatesQuery },
      async ({ query }) => userCandidates(db, query.compCode),
    );
    api.post(
      p(PERMIT_PATHS.userOpen),
      { perm: button(U, 'open'), query: permitCodeQuery, body: permitActionSchema },
      async ({ query, body, actor }) => {
        await openPermit(db, 'user', query.bizCode, body.area, body.version, actor);
        return null;
      },
    );
    api.post(
      p(PERMIT_PATHS.userDisable),
      { perm: button(U, 'disable'), query: permitCodeQuery, body: permitActionSchema },
      async ({ query, body, actor }) => {
        await disablePermit(db, 'user', query.bizCode, body.area, body.version, actor);
        return null;
      },
    );
    api.post(
      p(PERMIT_PATHS.setUserRole),
      { perm: button(U, 'setRole'), body: setRoleSchema },
      async ({ body, actor }) => setRoles(db, 'user', body, actor),
    );
    api.post(p(PERMIT_PATHS.getUserRole), { perm: menu(U), query: getUserRoleQuery }, async ({ query }) =>
      currentRoles(db, 'user', query.userCode, PERMIT_AREAS),
    );
  },
  demo: seedDemoPermits,
};
