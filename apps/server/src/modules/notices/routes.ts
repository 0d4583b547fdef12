import { button, menu } from '@portal/contract/menus';
import {
  NOTICE_MENU,
  NOTICE_PATHS as P,
  noticeBodySchema,
  noticeIdSchema,
  noticeListSchema,
  noticeStateSchema,
  noticeUpdateSchema,
} from '@portal/contract/notices';
import type { PortalModule } from '../../platform/module';
import { UNSCOPED } from '../../platform/http/route-scope';
import { orgTree } from '../permission';
import {
  addNotice,
  deleteNotice,
  getNotice,
  listNotices,
  noticesFor,
  setNoticeState,
  updateNotice,
} from './service';

/**
 * 通知公告 (docs/operations.md "Announcements"): kept by the holders of its codes, each within their
 * data scope (service.ts noticeScope: the author and the audience).
 */
export const noticesModule: PortalModule = {
  name: 'notices',
  register({ api, db }) {
    const scope = { none: "an announcement's author and audience are narrowed in the handler (noticeScope)" };
    api.post(P.list, { perm: menu(NOTICE_MENU), scope, body: noticeListSchema }, async ({ body, user }) =>
      listNotices(db, body, user),
    );
    api.post(P.get, { perm: menu(NOTICE_MENU), scope, body: noticeIdSchema }, async ({ body, user }) =>
      getNotice(db, body.id, user),
    );
    api.post(
      P.add,
      { perm: button(NOTICE_MENU, 'add'), scope, body: noticeBodySchema },
      async ({ body, actor, user }) => addNotice(db, body, actor, user),
    );
    api.post(
      P.update,
      { perm: button(NOTICE_MENU, 'update'), scope, body: noticeUpdateSchema },
      async ({ body, actor, user }) => updateNotice(db, body, actor, user),
    );
    api.post(
      P.setState,
      { perm: button(NOTICE_MENU, 'publish'), scope, body: noticeStateSchema },
      async ({ body, actor, user }) => setNoticeState(db, body, actor, user),
    );
    api.post(
      P.delete,
      { perm: button(NOTICE_MENU, 'delete'), scope, body: noticeIdSchema },
      async ({ body, actor, user }) => {
        await deleteNotice(db, body.id, actor, user);
        return null;
      },
    );
    // The 发布范围 picker: the organisation tree (codes and names), from the permission module.
    api.post(P.orgTree, { perm: menu(NOTICE_MENU), scope: UNSCOPED.picker }, async () => orgTree(db));
    // Every signed-in user's dashboard: only the announcements meant for them (service.ts).
    api.post(P.mine, { perm: 'session', scope: UNSCOPED.own }, async ({ user }) => noticesFor(db, user));
  },
};
