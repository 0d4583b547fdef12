import { button, menu } from '@portal/contract/menus';
import { PA_PATHS, paContQuery, paListSchema, paSaveSchema, preamtQuery } from '@portal/contract/prepayment';
import type { PortalModule } from '../../platform/module';
import { PREPAYMENT_SCOPE_KINDS } from './scope-kinds';
import { findContract, payersOf } from '../contract';
import { registerDocument, WORKFLOW_REGISTRY } from '../workflow';
import { deletePa, findPa, listPas, paInit, postPa, savePa, viewPa } from './service';
import { formatYuan } from '@portal/contract/format';

import { listOf } from '../../platform/http/route-scope';
import { streamListExport } from '../../platform/http/export';
import { paExport } from './export';

const MENU = 'ft-pa-mgr';

/** 前期款: up-front dues of a contract collected before financing. */
export const prepaymentModule: PortalModule = {
  name: 'prepayment',
  scopeKinds: PREPAYMENT_SCOPE_KINDS,
  register({ api, registries, db, clock }) {
    const workflow = registries.get(WORKFLOW_REGISTRY);
    const editors = [button(MENU, 'add'), button(MENU, 'save')];

    api.post(
      PA_PATHS.list,
      { perm: menu(MENU), scope: listOf('prepayment'), body: paListSchema },
      ({ body, user }) => listPas(db, body, user),
    );
    api.post(
      PA_PATHS.listExport,
      {
        perm: button(MENU, 'export'),
        scope: listOf('prepayment'),
        body: paListSchema,
        raw: true,
        summary: '前期款明细.xlsx',
      },
      async ({ body, user, reply }) =>
        streamListExport(
          reply,
          paExport(
            async (pageNum, pageSize) => (await listPas(db, { ...body, pageNum, pageSize }, user)).list,
          ),
        ),
    );
    api.post(
      PA_PATHS.initBase,
      { perm: [...editors, button('ft-contract-info', 'isPrevious')], scope: 'contract', query: paContQuery },
      ({ query, user }) => paInit(db, query.contBizCode, user, clock.today()),
    );
    api.post(
      PA_PATHS.getPayerInfo,
      { perm: menu(MENU), scope: 'contract', query: paContQuery },
      async ({ query, user }) => payersOf(db, (await findContract(db, query.contBizCode, user)).id),
    );
    registerDocument(api, db, workflow, {
      type: 'prepayment',
      table: 'prepayments',
      stamps: true,
      hooks: { onApprove: (tx, doc, actor) => postPa(tx, doc.code, actor) },
      codeParam: 'preamtBizCode',
      scope: [{ kind: 'contract', params: ['contBizCode'] }],
      view: { path: PA_PATHS.viewBaseInfo, perm: menu(MENU), read: viewPa },
      save: {
        path: PA_PATHS.saveBaseInfo,
        perm: editors,
        body: paSaveSchema,
        write: (tx, body, { actor, user }) => savePa(tx, body, actor, user, clock.today()),
        find: findPa,
        submission: async (_tx, row) => ({
          subject: `前期款 ${row.bizCode} ${formatYuan(row.amount)}`,
          amount: row.amount,
        }),
      },
      remove: {
        path: PA_PATHS.deleteInfo,
        perm: button(MENU, 'delete'),
        query: preamtQuery,
        remove: async (tx, code, actor) => deletePa(tx, await findPa(tx, code), actor),
      },
      audit: { path: PA_PATHS.audit, perm: button(MENU, 'audit') },
      unAudit: { path: PA_PATHS.unAudit, perm: button(MENU, 'unAudit') },
    });
  },
};
