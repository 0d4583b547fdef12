import { formatYuan } from '@portal/contract/format';
import { button, menu } from '@portal/contract/menus';
import {
  BUYBACK_MENU,
  BUYBACK_PATHS,
  buybackListSchema,
  buybackQuery,
  buybackQuoteQuery,
  buybackRedSchema,
  buybackSaveSchema,
  buybackSettleQuery,
  buybackSettleSchema,
} from '@portal/contract/buyback';
import type { PortalModule } from '../../platform/module';
import { BUYBACK_SCOPE_KINDS } from './scope-kinds';
import { listOf } from '../../platform/http/route-scope';
import { streamListExport } from '../../platform/http/export';
import { findContract } from '../contract';
import { INCOME_USAGE } from '../income';
import { INCOME_ALLOCATIONS } from '../paid';
import { registerDocument, WORKFLOW_REGISTRY } from '../workflow';
import { seedDemoBuyback } from './demo';
import { buybackExport } from './export';
import { postBuyback, postSettle, rushRedBuyback } from './posting';
import {
  buybackQuote,
  deleteBuyback,
  deleteSettle,
  findBuyback,
  findSettle,
  incomeBuybackSettle,
  settledIncomes,
  listBuybacks,
  saveBuyback,
  saveSettle,
  viewBuyback,
  viewSettle,
} from './service';

/** 回购 (docs/buyback.md): the 回购单 of a with-recourse contract and the 回购款核销 that settle it. */
export const buybackModule: PortalModule = {
  name: 'buyback',
  scopeKinds: BUYBACK_SCOPE_KINDS,
  demo: seedDemoBuyback,
  register({ api, registries, db, clock }) {
    const workflow = registries.get(WORKFLOW_REGISTRY);
    const editors = [button(BUYBACK_MENU, 'add'), button(BUYBACK_MENU, 'save')];
    const readers = [menu(BUYBACK_MENU)];
    registries.get(INCOME_USAGE).add(incomeBuybackSettle);
    // An approved 回购款核销 holds its amount of the incoming (对账, docs/buyback.md).
    registries.get(INCOME_ALLOCATIONS).push(settledIncomes);

    api.post(
      BUYBACK_PATHS.list,
      { perm: readers, scope: listOf('buyback'), body: buybackListSchema },
      ({ body, user }) => listBuybacks(db, body, user),
    );
    api.post(
      BUYBACK_PATHS.listExport,
      {
        perm: button(BUYBACK_MENU, 'export'),
        scope: listOf('buyback'),
        body: buybackListSchema,
        raw: true,
        summary: '回购单明细.xlsx',
      },
      async ({ body, user, reply }) =>
        streamListExport(
          reply,
          buybackExport(
            async (pageNum, pageSize) => (await listBuybacks(db, { ...body, pageNum, pageSize }, user)).list,
          ),
        ),
    );
    api.post(
      BUYBACK_PATHS.quote,
      { perm: editors, scope: 'contract', query: buybackQuoteQuery },
      async ({ query, user }) =>
        buybackQuote(db, await findContract(db, query.contBizCode, user), query.buybackDate, clock.today()),
    );
    registerDocument(api, db, workflow, {
      type: 'buyback',
      table: 'buybacks',
      stamps: true,
      hooks: { onApprove: (tx, doc, actor) => postBuyback(tx, doc.code, actor, clock.today()) },
      codeParam: 'buybackBizCode',
      scope: [{ kind: 'contract', params: ['contBizCode'] }],
      view: { path: BUYBACK_PATHS.viewBaseInfo, perm: readers, read: viewBuyback },
      save: {
        path: BUYBACK_PATHS.saveBaseInfo,
        perm: editors,
        body: buybackSaveSchema,
        write: (tx, body, { actor, user }) => saveBuyback(tx, body, actor, user, clock.today()),
        find: findBuyback,
        submission: async (_tx, row) => ({
          subject: `回购单 ${row.bizCode} 回购金额 ${formatYuan(row.amount)}`,
          amount: row.amount,
        }),
        reply: (row) => ({ amount: row.amount }),
      },
      remove: {
        path: BUYBACK_PATHS.deleteInfo,
        perm: button(BUYBACK_MENU, 'delete'),
        query: buybackQuery,
        remove: async (tx, code, actor) => deleteBuyback(tx, await findBuyback(tx, code), actor),
      },
      audit: { path: BUYBACK_PATHS.audit, perm: button(BUYBACK_MENU, 'audit') },
      unAudit: { path: BUYBACK_PATHS.unAudit, perm: button(BUYBACK_MENU, 'unAudit') },
    });
    api.post(
      BUYBACK_PATHS.rushRed,
      {
        perm: button(BUYBACK_MENU, 'rushRed'),
        scope: 'buyback',
        query: buybackQuery,
        body: buybackRedSchema,
      },
      ({ query, body, actor, user }) =>
        db.transaction(async (tx) => {
          await rushRedBuyback(tx, query.buybackBizCode, body.reason, actor, user, clock.today());
          return { buybackBizCode: query.buybackBizCode };
        }),
    );

    // ---- 回购款核销: approved by the 回购单's checkers (its screen's audit buttons).
    registerDocument(api, db, workflow, {
      type: 'buybackSettle',
      table: 'buyback_settlements',
      stamps: true,
      hooks: { onApprove: (tx, doc, actor) => postSettle(tx, doc.code, actor, clock.today()) },
      codeParam: 'settleBizCode',
      scope: [
        { kind: 'buyback', params: ['buybackBizCode'] },
        { kind: 'income', params: ['fiidBizCode'] },
      ],
      view: { path: BUYBACK_PATHS.settleView, perm: readers, read: viewSettle },
      save: {
        path: BUYBACK_PATHS.settleSave,
        perm: editors,
        body: buybackSettleSchema,
        write: (tx, body, { actor, user }) => saveSettle(tx, body, actor, user, clock.today()),
        find: findSettle,
        submission: async (_tx, row) => ({
          subject: `回购款核销 ${row.bizCode} ${formatYuan(row.amount)}`,
          amount: row.amount,
        }),
        reply: (row) => ({ amount: row.amount }),
      },
      remove: {
        path: BUYBACK_PATHS.settleDelete,
        perm: button(BUYBACK_MENU, 'delete'),
        query: buybackSettleQuery,
        remove: async (tx, code, actor) => deleteSettle(tx, await findSettle(tx, code), actor),
      },
      audit: { path: BUYBACK_PATHS.settleAudit, perm: button(BUYBACK_MENU, 'audit') },
      unAudit: { path: BUYBACK_PATHS.settleUnAudit, perm: button(BUYBACK_MENU, 'unAudit') },
    });
  },
};
