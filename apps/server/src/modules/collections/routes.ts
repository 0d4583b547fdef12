import { button, menu } from '@portal/contract/menus';
import {
  COLLECTION_FILE_NAME,
  COLLECTION_MENU,
  COLLECTION_PATHS as P,
  collectionCaseSchema,
  collectionContQuery,
  collectionExportSchema,
  collectionListSchema,
  collectionRecordSchema,
} from '@portal/contract/collections';
import type { PortalModule } from '../../platform/module';
import { listOf, UNSCOPED } from '../../platform/http/route-scope';
import { findContract } from '../contract';
import { seedDemoCollection } from './demo';
import { streamWorklist } from './export';
import { sendWorklistHtml, worklistHtml } from './print';
import { addRecord, collectionStaff, listWorklist, saveCase, viewCase, worklist } from './service';

/** The contract a call names by `contBizCode` (query or body). */
const CONTRACT = { kind: 'contract', params: ['contBizCode'] } as const;

/**
 * 逾期催收 (docs/collections.md): the worklist of overdue contracts in the user's scope, each
 * contract's 催收记录 and case; the reminders and the judging of promises run in the day-end
 * (modules/bizdate calls collectAtDayEnd).
 */
export const collectionsModule: PortalModule = {
  name: 'collections',
  register({ api, db, clock, params }) {
    const readers = [menu(COLLECTION_MENU)];
    api.post(
      P.list,
      { perm: readers, scope: listOf('contract'), body: collectionListSchema },
      ({ body, user }) => listWorklist(db, body, user, clock.today()),
    );
    api.post(
      P.export,
      {
        perm: button(COLLECTION_MENU, 'export'),
        scope: listOf('contract'),
        body: collectionExportSchema,
        raw: true,
        summary: COLLECTION_FILE_NAME,
      },
      async ({ body, user, reply }) => {
        const today = clock.today();
        streamWorklist(reply, await worklist(db, body, user, today), today);
      },
    );
    api.post(
      P.print,
      {
        perm: button(COLLECTION_MENU, 'print'),
        scope: listOf('contract'),
        body: collectionExportSchema,
        raw: true,
        summary: 'text/html',
      },
      async ({ body, user, reply }) => {
        const today = clock.today();
        const rows = await worklist(db, body, user, today);
        sendWorklistHtml(reply, worklistHtml(rows, today, params.current.companyName));
      },
    );
    api.post(
      P.records,
      { perm: readers, scope: CONTRACT, query: collectionContQuery },
      async ({ query, user }) => viewCase(db, await findContract(db, query.contBizCode, user)),
    );
    api.post(
      P.addRecord,
      { perm: button(COLLECTION_MENU, 'add'), scope: CONTRACT, body: collectionRecordSchema },
      ({ body, user, actor }) => db.transaction((tx) => addRecord(tx, body, user, actor, clock.today())),
    );
    api.post(
      P.saveCase,
      { perm: button(COLLECTION_MENU, 'update'), scope: CONTRACT, body: collectionCaseSchema },
      ({ body, user, actor }) => db.transaction((tx) => saveCase(tx, body, user, actor)),
    );
    api.post(P.staff, { perm: button(COLLECTION_MENU, 'update'), scope: UNSCOPED.picker }, () =>
      collectionStaff(db),
    );
  },
  demo: seedDemoCollection,
};
