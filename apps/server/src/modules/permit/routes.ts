import { button, menu, type Action } from '@portal/contract/menus';
import {
  candidatesQuery,
  compDifQuery,
  custListSchema,
  custSaveSchema,
  getCustRoleQuery,
  getUserRoleQuery,
  PERMIT_AREA_LABELS,
  PERMIT_AREA_MENU,
  PERMIT_AREAS,
  PERMIT_CHG_MENU,
  PERMIT_PATHS,
  NO_USER_AREA,
  PERMIT_USER_AREAS,
  permitActionSchema,
  permitCodeQuery,
  permitDict,
  roleChgListSchema,
  setRoleSchema,
  userListSchema,
  userAreaMenu,
  userSaveSchema,
  type PermitArea,
  type PermitSubject,
} from '@portal/contract/permit';
import type { Executor } from '../../platform/db/client';
import type { SessionUser } from '../../platform/auth/sessions';
import { badInput, noPermission } from '../../platform/errors';
import { permAllows } from '../../platform/http/route';
import type { PortalModule } from '../../platform/module';
import { PERMIT_SCOPE_KINDS } from './scope-kinds';
import { COMPANY_USAGE } from '../company';
import { registerUserDisableCheck } from '../crm';
import { seedDemoPermits } from './demo';
import {
  compInfoByDif,
  countCustomerPermits,
  currentRoles,
  listPermits,
  listRoleChanges,
  userCandidates,
  userOpenAreas,
  viewPermit,
  viewRoleChange,
} from './queries';
import { disablePermit, openPermit, savePermit, setRoles } from './service';

import { listOf, UNSCOPED } from '../../platform/http/route-scope';
import { tableScope } from '../../platform/auth/row-scope';
import { permits } from './schema';

/**
 * Customer admission calls serve three areas, each with its screen's codes (ec-permit-comp,
 * dw-permit-comp, fc-fc); the route lets in anyone holding one of them, and the handler checks the
 * code of the area the call is about. The role-change screen (ec-permit-chg) reads admissions and
 * changes roles in the ec area. User admissions likewise: ec-permit-personal for 凭证,
 * dw-permit-personal for 山高E融; 银企链 has none (refused with 400). The role history (roleChg/list,
 * roleChg/view: the 企业角色变更 screen and the record's history) answers only the subjects and areas
 * the caller's codes let them see (historyScope).
 */
const areaMenus = PERMIT_AREAS.map((a) => menu(PERMIT_AREA_MENU[a]));
const areaButtons = (action: Action) => PERMIT_AREAS.map((a) => button(PERMIT_AREA_MENU[a], action));
const CUST_READERS = [...areaMenus, menu(PERMIT_CHG_MENU)];
const userMenuOf = (a: PermitArea) => userAreaMenu(a)!;
const USER_READERS = PERMIT_USER_AREAS.map((a) => menu(userMenuOf(a)));
const userButtons = (...actions: Action[]) =>
  PERMIT_USER_AREAS.flatMap((a) => actions.map((action) => button(userMenuOf(a), action)));

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

/** The areas whose user admissions this user may see. */
function userAreas(user: SessionUser): PermitArea[] {
  return PERMIT_USER_AREAS.filter((a) => permAllows(menu(userMenuOf(a)), user) === 'ok');
}

function requireUserArea(user: SessionUser, area: PermitArea, action: Action | 'view'): void {
  const m = userAreaMenu(area);
  if (!m) throw badInput(NO_USER_AREA(area));
  if (permAllows(action === 'view' ? menu(m) : button(m, action), user) !== 'ok') throw noPermission();
}

/**
 * The (subject, area) pairs whose role history this user may read: ec customers with ec-permit-chg,
 * and otherwise what the area codes the user holds let them see.
 */
function historyScope(user: SessionUser): { subject: PermitSubject; area: PermitArea }[] {
  return [
    ...custAreas(user).map((area) => ({ subject: 'cust' as const, area })),
    ...userAreas(user).map((area) => ({ subject: 'user' as const, area })),
  ];
}

/**
 * An enterprise user with an open admission cannot be disabled (CRM answers 该企业用户不能停用：…).
 * One function for the process: CRM keeps its checks in a module-level list that skips one
 * already there, so a second portal in the same process (tests build many) does not add it again
 * and repeat the reason.
 */
const openAdmissionCheck = async (ex: Executor, userCode: string): Promise<string | null> => {
  const areas = await userOpenAreas(ex, userCode);
  return areas.length
    ? `存在已开通的准入（${areas.map((a) => PERMIT_AREA_LABELS[a]).join('、')}），请先停用准入`
    : null;
};

export const permitModule: PortalModule = {
  name: 'permit',
  scopeKinds: PERMIT_SCOPE_KINDS,
  register({ api, registries, db }) {
    registries.get(COMPANY_USAGE).add(async (ex, compCode) => {
      const n = await countCustomerPermits(ex, compCode);
      return n > 0 ? `存在${n}条准入记录` : null;
    });
    registerUserDisableCheck(openAdmissionCheck);

    /** 开通 and 停用 of one subject: the area in the body is checked against the caller's codes. */
    const stateCalls = (
      subject: PermitSubject,
      openPath: string,
      disablePath: string,
      perms: (action: 'open' | 'disable') => string[],
      requireArea: (user: SessionUser, area: PermitArea, action: 'open' | 'disable') => void,
    ) => {
      for (const [path, action, change] of [
        [openPath, 'open', openPermit],
        [disablePath, 'disable', disablePermit],
      ] as const) {
        api.post(
          path,
          { perm: perms(action), scope: 'permit', query: permitCodeQuery, body: permitActionSchema },
          async ({ query, body, user, actor }) => {
            requireArea(user, body.area, action);
            await change(db, subject, query.bizCode, body.area, body.version, actor);
            return null;
          },
        );
      }
    };

    // Customer admissions (企业客户准入).
    api.post(
      PERMIT_PATHS.custSave,
      {
        perm: [...areaButtons('add'), ...areaButtons('save')],
        scope: ['permit', 'customer'],
        body: custSaveSchema,
      },
      async ({ body, user, actor }) => {
        requireCustArea(user, body.area, body.bizCode ? 'save' : 'add');
        return savePermit(db, 'cust', { ...body, key: body.compCode }, actor);
      },
    );
    api.post(
      PERMIT_PATHS.custView,
      { perm: CUST_READERS, scope: 'permit', query: permitCodeQuery },
      async ({ query, user }) => {
        const v = await viewPermit(db, 'cust', query.bizCode);
        requireCustArea(user, v.area, 'view');
        return v;
      },
    );
    api.post(PERMIT_PATHS.custDict, { perm: CUST_READERS, scope: UNSCOPED.reference }, async () =>
      permitDict('cust'),
    );
    api.post(
      PERMIT_PATHS.custList,
      { perm: CUST_READERS, scope: listOf('permit'), body: custListSchema },
      async ({ body, user }) => {
        if (body.area) requireCustArea(user, body.area, 'view');
        return listPermits(db, 'cust', body, custAreas(user), tableScope(user, permits));
      },
    );
    stateCalls('cust', PERMIT_PATHS.custOpen, PERMIT_PATHS.custDisable, areaButtons, requireCustArea);
    api.post(
      PERMIT_PATHS.setCustRole,
      {
        perm: [...areaButtons('setRole'), button(PERMIT_CHG_MENU, 'setRole')],
        scope: 'permit',
        body: setRoleSchema,
      },
      async ({ body, user, actor }) => {
        requireCustArea(user, body.area, 'setRole');
        return setRoles(db, 'cust', body, actor);
      },
    );
    api.post(
      PERMIT_PATHS.getCustRole,
      { perm: CUST_READERS, scope: 'customer', query: getCustRoleQuery },
      async ({ query, user }) => currentRoles(db, 'cust', query.CompCode, custAreas(user)),
    );
    api.post(
      PERMIT_PATHS.custByDif,
      {
        perm: CUST_READERS,
        scope: { none: 'a picker: the customer with this USCC, for an admission form' },
        query: compDifQuery,
      },
      async ({ query, user }) => compInfoByDif(db, query.compDif, custAreas(user)),
    );
    api.post(
      PERMIT_PATHS.roleChgList,
      {
        perm: [...CUST_READERS, ...USER_READERS],
        scope: listOf('permitRoleChange'),
        body: roleChgListSchema,
      },
      async ({ body, user }) => {
        const scope = historyScope(user).filter(
          (s) => (!body.area || s.area === body.area) && (!body.subject || s.subject === body.subject),
        );
        if (scope.length === 0) throw noPermission();
        return listRoleChanges(db, body, scope, tableScope(user, permits));
      },
    );
    api.post(
      PERMIT_PATHS.roleChgView,
      { perm: [...CUST_READERS, ...USER_READERS], scope: 'permitRoleChange', query: permitCodeQuery },
      async ({ query, user }) => {
        const v = await viewRoleChange(db, query.bizCode);
        if (!historyScope(user).some((s) => s.subject === v.subject && s.area === v.area))
          throw noPermission();
        return v;
      },
    );

    // Enterprise-user admissions (企业用户准入): ec-permit-personal (凭证), dw-permit-personal (山高E融).
    api.post(
      PERMIT_PATHS.userSave,
      { perm: userButtons('add', 'save'), scope: ['permit', 'compUser'], body: userSaveSchema },
      async ({ body, user, actor }) => {
        requireUserArea(user, body.area, body.bizCode ? 'save' : 'add');
        return savePermit(db, 'user', { ...body, key: body.userCode }, actor);
      },
    );
    api.post(
      PERMIT_PATHS.userView,
      { perm: USER_READERS, scope: 'permit', query: permitCodeQuery },
      async ({ query, user }) => {
        const v = await viewPermit(db, 'user', query.bizCode);
        requireUserArea(user, v.area, 'view');
        return v;
      },
    );
    api.post(PERMIT_PATHS.userDict, { perm: USER_READERS, scope: UNSCOPED.reference }, async () =>
      permitDict('user'),
    );
    api.post(
      PERMIT_PATHS.userList,
      { perm: USER_READERS, scope: listOf('permit'), body: userListSchema },
      async ({ body, user }) => {
        if (body.area) requireUserArea(user, body.area, 'view');
        return listPermits(db, 'user', body, userAreas(user), tableScope(user, permits));
      },
    );
    api.post(
      PERMIT_PATHS.userCandidates,
      { perm: userButtons('add', 'save'), scope: 'customer', query: candidatesQuery },
      async ({ query }) => userCandidates(db, query.compCode),
    );
    stateCalls('user', PERMIT_PATHS.userOpen, PERMIT_PATHS.userDisable, userButtons, requireUserArea);
    api.post(
      PERMIT_PATHS.setUserRole,
      { perm: userButtons('setRole'), scope: 'permit', body: setRoleSchema },
      async ({ body, user, actor }) => {
        requireUserArea(user, body.area, 'setRole');
        return setRoles(db, 'user', body, actor);
      },
    );
    api.post(
      PERMIT_PATHS.getUserRole,
      { perm: USER_READERS, scope: 'compUser', query: getUserRoleQuery },
      async ({ query, user }) => currentRoles(db, 'user', query.userCode, userAreas(user)),
    );
  },
  demo: seedDemoPermits,
};
