import { button, menu } from '@portal/contract/menus';
import { SYSPARAM_MENU, SYSPARAM_PATHS, sysParamsSchema } from '@portal/contract/sysparams';
import { SERVER_MONITOR_MENU, SERVER_MONITOR_PATHS } from '@portal/contract/server-monitor';
import type { PortalModule } from '../../platform/module';
import { serverStatus } from '../../platform/metrics';
import { saveParams, viewParams } from './params';

/** 参数设置 are the portal's own settings: no row of anyone's data scope. */
const SETTINGS = { none: "the portal's own settings (参数设置), held by its administrators" };

/** 系统管理 (docs/operations.md "Settings an administrator changes", "Monitoring"). */
export const systemModule: PortalModule = {
  name: 'system',
  register({ api, db, params }) {
    api.post(SYSPARAM_PATHS.get, { perm: menu(SYSPARAM_MENU), scope: SETTINGS }, async () =>
      viewParams(db, params),
    );
    api.post(
      SYSPARAM_PATHS.save,
      { perm: button(SYSPARAM_MENU, 'save'), scope: SETTINGS, body: sysParamsSchema },
      async ({ body, actor }) => saveParams(db, params, body, actor),
    );
    // 服务监控: this process's figures, the ones /metrics publishes (docs/operations.md "Monitoring").
    api.post(
      SERVER_MONITOR_PATHS.status,
      { perm: menu(SERVER_MONITOR_MENU), scope: { none: "the serving process's own figures" } },
      async () => serverStatus(),
    );
  },
};
