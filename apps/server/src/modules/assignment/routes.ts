import { button, menu } from '@portal/contract/menus';
import {
  ASSIGN_NOTICE_MENU as INFO,
  ASSIGN_NOTICE_PATHS as P,
  noticeConfirmSchema,
  noticeContQuery,
  noticeWaiveSchema,
  noticeWithdrawSchema,
} from '@portal/contract/assignment';
import type { PortalModule } from '../../platform/module';
import { ASSIGNMENT_SCOPE_KINDS } from './scope-kinds';
import { findContract } from '../contract';
import { seedDemoNotices } from './demo';
import { confirmNotice, listNotices, waiveNotice, withdrawNotice } from './service';

const CONFIRM = button(INFO, 'noticeConfirm');
const WAIVE = button(INFO, 'noticeWaive');

/**
 * 应收账款转让通知 (docs/assignment-notice.md): each debtor of a disclosed contract, its notice
 * (printed with the 转让通知书 template of modules/print), the debtor's 确认 and a checker's 豁免.
 * modules/loan refuses a disbursement until every debtor is confirmed or waived.
 */
export const assignmentModule: PortalModule = {
  name: 'assignment',
  scopeKinds: ASSIGNMENT_SCOPE_KINDS,
  register({ api, db, clock }) {
    api.post(
      P.list,
      { perm: menu(INFO), scope: 'contract', query: noticeContQuery },
      async ({ query, user }) =>
        listNotices(db, await findContract(db, query.contBizCode, user), user.userId),
    );
    api.post(
      P.confirm,
      { perm: CONFIRM, scope: 'assignNotice', body: noticeConfirmSchema },
      ({ body, user, actor }) =>
        db.transaction(async (tx) => {
          await confirmNotice(tx, body, actor, user, clock.today());
          return null;
        }),
    );
    api.post(
      P.waive,
      { perm: WAIVE, scope: 'assignNotice', body: noticeWaiveSchema },
      ({ body, user, actor }) =>
        db.transaction(async (tx) => {
          await waiveNotice(tx, body, actor, user);
          return null;
        }),
    );
    api.post(
      P.withdraw,
      { perm: [CONFIRM, WAIVE], scope: 'assignNotice', body: noticeWithdrawSchema },
      ({ body, user, actor }) =>
        db.transaction(async (tx) => {
          await withdrawNotice(tx, body, actor, user);
          return null;
        }),
    );
  },
  demo: seedDemoNotices,
};
