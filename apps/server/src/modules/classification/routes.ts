import { button, menu } from '@portal/contract/menus';
import {
  ASSET_CLASS_LABELS,
  CLASS_MENU,
  CLASS_FILE_NAME,
  CLASS_PATHS,
  classAdjListSchema,
  classAdjQuery,
  classAdjSaveSchema,
  classContQuery,
  classExportSchema,
  classListSchema,
} from '@portal/contract/classification';
import type { PortalModule } from '../../platform/module';
import { CLASSIFICATION_SCOPE_KINDS } from './scope-kinds';
import { listOf } from '../../platform/http/route-scope';
import { findContract } from '../contract';
import { registerDocument, WORKFLOW_REGISTRY } from '../workflow';
import { streamClasses } from './export';
import { findAdj, listAdjs, listClasses, viewAdj } from './queries';
import { adjInit, adjSaveError, deleteAdj, postAdj, saveAdj } from './service';

/**
 * 五级分类 (docs/classification.md): the class of each live contract as the day-end recorded it, and
 * the 分类调整单 that changes it through a checker. The distribution and migration are the ledger's
 * (modules/ledger), read on the 台账 and the dashboard.
 */
export const classificationModule: PortalModule = {
  name: 'classification',
  scopeKinds: CLASSIFICATION_SCOPE_KINDS,
  register({ api, registries, db, clock }) {
    const workflow = registries.get(WORKFLOW_REGISTRY);
    const readers = [menu(CLASS_MENU)];
    const editors = [button(CLASS_MENU, 'add'), button(CLASS_MENU, 'save')];

    api.post(
      CLASS_PATHS.list,
      { perm: readers, scope: listOf('contract'), body: classListSchema },
      ({ body, user }) => listClasses(db, body, user, clock.today()),
    );
    api.post(
      CLASS_PATHS.export,
      {
        perm: button(CLASS_MENU, 'export'),
        scope: listOf('contract'),
        body: classExportSchema,
        raw: true,
        summary: CLASS_FILE_NAME,
      },
      ({ body, user, reply }) => streamClasses(reply, db, body, user, clock.today()),
    );
    api.post(
      CLASS_PATHS.adjList,
      { perm: readers, scope: listOf('classAdjust'), body: classAdjListSchema },
      ({ body, user }) => listAdjs(db, body, user),
    );
    api.post(
      CLASS_PATHS.viewBaseInfo,
      { perm: readers, scope: 'classAdjust', query: classAdjQuery },
      ({ query, user }) => viewAdj(db, query.adjBizCode, user, clock.today()),
    );
    api.post(
      CLASS_PATHS.initBase,
      { perm: editors, scope: 'contract', query: classContQuery },
      async ({ query, user }) => adjInit(db, await findContract(db, query.contBizCode, user), clock.today()),
    );
    registerDocument(api, db, workflow, {
      type: 'classAdjust',
      table: 'class_adjustments',
      stamps: true,
      hooks: { onApprove: (tx, doc, actor) => postAdj(tx, doc.code, actor, clock.today()) },
      codeParam: 'adjBizCode',
      scope: [{ kind: 'contract', params: ['contBizCode'] }],
      save: {
        path: CLASS_PATHS.saveBaseInfo,
        perm: editors,
        body: classAdjSaveSchema,
        write: (tx, body, { actor, user }) => saveAdj(tx, body, actor, user, clock.today()),
        find: findAdj,
        submission: async (_tx, row) => ({
          subject: `分类调整单 ${row.bizCode} 调整为${ASSET_CLASS_LABELS[row.toClass as keyof typeof ASSET_CLASS_LABELS] ?? row.toClass}`,
        }),
        onError: adjSaveError,
      },
      remove: {
        path: CLASS_PATHS.deleteInfo,
        perm: button(CLASS_MENU, 'delete'),
        query: classAdjQuery,
        remove: deleteAdj,
      },
      audit: { path: CLASS_PATHS.audit, perm: button(CLASS_MENU, 'audit') },
      unAudit: { path: CLASS_PATHS.unAudit, perm: button(CLASS_MENU, 'unAudit') },
    });
  },
};
