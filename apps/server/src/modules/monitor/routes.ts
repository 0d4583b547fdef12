import { button, menu } from '@portal/contract/menus';
import {
  forceLogoutSchema,
  loginLogListSchema,
  loginUnlockSchema,
  MONITOR_MENUS as M,
  MONITOR_PATHS as P,
  onlineListSchema,
  operLogListSchema,
  operLogGetSchema,
} from '@portal/contract/monitor';
import type { PortalModule } from '../../platform/module';
import { streamLoginLogExport, streamOperLogExport } from './export';
import { forceLogout, getOperLog, listLoginLogs, listOnline, listOperLogs, unlockLogin } from './service';

/**
 * 系统监控 (docs/operations.md). The rows are audit rows, sign-in attempts and sessions: none is a document
 * of a scope kind, so the routes are declared unscoped and narrow their rows to the reader's data
 * scope through the user each row concerns (service.ts); a session or name outside it is 404.
 */
const BY_CONCERNED_USER = {
  none: "administration of the portal: rows narrowed in the handler to the users of the reader's scope",
};

export const monitorModule: PortalModule = {
  name: 'monitor',
  register({ api, db, config }) {
    api.post(
      P.operLogList,
      { perm: menu(M.operLog), scope: BY_CONCERNED_USER, body: operLogListSchema },
      async ({ body, user, actor }) => listOperLogs(db, body, { user, actor }),
    );
    api.post(
      P.operLogGet,
      { perm: menu(M.operLog), scope: BY_CONCERNED_USER, body: operLogGetSchema },
      async ({ body, user, actor }) => getOperLog(db, body.id, { user, actor }),
    );
    api.post(
      P.operLogExport,
      {
        perm: button(M.operLog, 'export'),
        scope: BY_CONCERNED_USER,
        body: operLogListSchema,
        raw: true,
        summary: '操作日志.xlsx',
      },
      async ({ body, user, reply }) => streamOperLogExport(db, body, user, reply),
    );
    api.post(
      P.loginLogExport,
      {
        perm: button(M.loginLog, 'export'),
        scope: BY_CONCERNED_USER,
        body: loginLogListSchema,
        raw: true,
        summary: '登录日志.xlsx',
      },
      async ({ body, user, reply }) => streamLoginLogExport(db, body, user, reply),
    );
    api.post(
      P.loginLogList,
      { perm: menu(M.loginLog), scope: BY_CONCERNED_USER, body: loginLogListSchema },
      async ({ body, user, actor }) => listLoginLogs(db, body, { user, actor }),
    );
    api.post(
      P.loginLogUnlock,
      {
        perm: button(M.loginLog, 'unlock'),
        scope: BY_CONCERNED_USER,
        within: 'staffByName',
        body: loginUnlockSchema,
      },
      async ({ body, user, actor }) => {
        await unlockLogin(db, body, { user, actor });
        return null;
      },
    );
    api.post(
      P.onlineList,
      { perm: menu(M.online), scope: BY_CONCERNED_USER, body: onlineListSchema },
      async ({ body, user, actor }) => listOnline(db, config.sessionIdleMs, body, { user, actor }),
    );
    api.post(
      P.onlineForceLogout,
      {
        perm: button(M.online, 'forceLogout'),
        scope: BY_CONCERNED_USER,
        within: 'staffBySession',
        body: forceLogoutSchema,
      },
      async ({ body, user, actor }) => {
        await forceLogout(db, config.sessionIdleMs, body.sessionId, { user, actor });
        return null;
      },
    );
  },
};
