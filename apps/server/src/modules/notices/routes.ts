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

/** 通知公告 (docs/operations.md "Announcements"): kept by the portal's administrators. */
export const noticesModule: PortalModule = {
  name: 'notices',
  register({ api, db }) {
    const scope = UNSCOPED.admin;
    api.post(P.list, { perm: menu(NOTICE_MENU), scope, body: noticeListSchema }, async ({ body }) =>
      listNotices(db, body),
    );
    api.post(P.get, { perm: menu(NOTICE_MENU), scope, body: noticeIdSchema }, async ({ body }) =>
      getNotice(db, body.id),
    );
    api.post(
      P.add,
      { perm: button(NOTICE_MENU, 'add'), scope, body: noticeBodySchema },
      async ({ body, actor }) => addNotice(db, body, actor),
    );
    api.post(
      P.update,
      { perm: button(NOTICE_MENU, 'update'), scope, body: noticeUpdateSchema },
      async ({ body, actor }) => updateNotice(db, body, actor),
    );
    api.post(
      P.setState,
      { perm: button(NOTICE_MENU, 'publish'), scope, body: noticeStateSchema },
      async ({ body, actor }) => setNoticeState(db, body, actor),
    );
    api.post(
      P.delete,
      { perm: button(NOTICE_MENU, 'delete'), scope, body: noticeIdSchema },
      async ({ body, actor }) => {
        await deleteNotice(db, body.id, actor);
        return null;
      },
    );
    // The 发布范围 picker: the organisation tree (codes and names), from the permission module.
    api.post(P.orgTree, { perm: menu(NOTICE_MENU), scope: UNSCOPED.picker }, async () => orgTree(db));
    // Every signed-in user's dashboard: only the announcements meant for them (service.ts).
    api.post(P.mine, { perm: 'session', scope: UNSCOPED.own }, async ({ user }) => noticesFor(db, user));
  },
};
