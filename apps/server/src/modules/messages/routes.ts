import { MESSAGE_PATHS as P, messageListSchema, messageReadSchema } from '@portal/contract/messages';
import type { PortalModule } from '../../platform/module';
import { UNSCOPED } from '../../platform/http/route-scope';
import { listMessages, markRead, messageCount } from './service';

/** 消息中心: every signed-in user's own inbox (docs/operations.md "Messages"). */
export const messagesModule: PortalModule = {
  name: 'messages',
  register({ api, db }) {
    api.post(
      P.count,
      { perm: 'session', scope: UNSCOPED.own, background: true, revalidate: true },
      async ({ actor }) => messageCount(db, actor.userId),
    );
    api.post(
      P.list,
      { perm: 'session', scope: UNSCOPED.own, body: messageListSchema },
      async ({ body, actor }) => listMessages(db, actor.userId, body),
    );
    api.post(
      P.read,
      { perm: 'session', scope: UNSCOPED.own, body: messageReadSchema },
      async ({ body, actor }) => markRead(db, actor.userId, body.ids),
    );
    api.post(P.readAll, { perm: 'session', scope: UNSCOPED.own }, async ({ actor }) =>
      markRead(db, actor.userId, 'all'),
    );
  },
};
