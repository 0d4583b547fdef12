import { formatYuan } from '@portal/contract/format';
import { button, menu } from '@portal/contract/menus';
import {
  BAD_DEBT_MENU,
  BAD_DEBT_PATHS,
  badDebtListSchema,
  badDebtQuery,
  badDebtQuoteQuery,
  badDebtRedSchema,
  badDebtSaveSchema,
} from '@portal/contract/baddebt';
import type { PortalModule } from '../../platform/module';
import { BAD_DEBT_SCOPE_KINDS } from './scope-kinds';
import { listOf } from '../../platform/http/route-scope';
import { streamListExport } from '../../platform/http/export';
import { findContract } from '../contract';
import { registerDocument, WORKFLOW_REGISTRY } from '../workflow';
import { badDebtExport } from './export';
import { postBadDebt, rushRedBadDebt } from './posting';
import { badDebtQuote, deleteBadDebt, findBadDebt, listBadDebts, saveBadDebt, viewBadDebt } from './service';

/** 核销坏账 (docs/accounting.md "Bad-debt write-off"): a 损失 contract written off, four eyes. */
export const badDebtModule: PortalModule = {
  name: 'baddebt',
  scopeKinds: BAD_DEBT_SCOPE_KINDS,
  register({ api, registries, db, clock }) {
    const workflow = registries.get(WORKFLOW_REGISTRY);
    const editors = [button(BAD_DEBT_MENU, 'add'), button(BAD_DEBT_MENU, 'save')];
    const readers = [menu(BAD_DEBT_MENU)];
    const list = (body: Parameters<typeof listBadDebts>[1], user: Parameters<typeof listBadDebts>[2]) =>
      listBadDebts(db, body, user);

    api.post(
      BAD_DEBT_PATHS.list,
      { perm: readers, scope: listOf('badDebt'), body: badDebtListSchema },
      ({ body, user }) => list(body, user),
    );
    api.post(
      BAD_DEBT_PATHS.listExport,
      {
        perm: button(BAD_DEBT_MENU, 'export'),
        scope: listOf('badDebt'),
        body: badDebtListSchema,
        raw: true,
        summary: '核销坏账明细.xlsx',
      },
      async ({ body, user, reply }) =>
        streamListExport(
          reply,
          badDebtExport(async (pageNum, pageSize) => (await list({ ...body, pageNum, pageSize }, user)).list),
        ),
    );
    api.post(
      BAD_DEBT_PATHS.quote,
      { perm: editors, scope: 'contract', query: badDebtQuoteQuery },
      async ({ query, user }) =>
        badDebtQuote(db, await findContract(db, query.contBizCode, user), query.writeOffDate, clock.today()),
    );
    registerDocument(api, db, workflow, {
      type: 'badDebt',
      table: 'bad_debts',
      stamps: true,
      hooks: { onApprove: (tx, doc, actor) => postBadDebt(tx, doc.code, actor, clock.today()) },
      codeParam: 'badDebtBizCode',
      scope: [{ kind: 'contract', params: ['contBizCode'] }],
      view: { path: BAD_DEBT_PATHS.viewBaseInfo, perm: readers, read: viewBadDebt },
      save: {
        path: BAD_DEBT_PATHS.saveBaseInfo,
        perm: editors,
        body: badDebtSaveSchema,
        write: (tx, body, { actor, user }) => saveBadDebt(tx, body, actor, user, clock.today()),
        find: findBadDebt,
        submission: async (_tx, row) => ({
          subject: `核销坏账 ${row.bizCode} 核销金额 ${formatYuan(row.amount)}`,
          amount: row.amount,
        }),
        reply: (row) => ({ amount: row.amount }),
      },
      remove: {
        path: BAD_DEBT_PATHS.deleteInfo,
        perm: button(BAD_DEBT_MENU, 'delete'),
        query: badDebtQuery,
        remove: async (tx, code, actor) => deleteBadDebt(tx, await findBadDebt(tx, code), actor),
      },
      audit: { path: BAD_DEBT_PATHS.audit, perm: button(BAD_DEBT_MENU, 'audit') },
      unAudit: { path: BAD_DEBT_PATHS.unAudit, perm: button(BAD_DEBT_MENU, 'unAudit') },
    });
    api.post(
      BAD_DEBT_PATHS.rushRed,
      {
        perm: button(BAD_DEBT_MENU, 'rushRed'),
        scope: 'badDebt',
        query: badDebtQuery,
        body: badDebtRedSchema,
      },
      ({ query, body, actor, user }) =>
        db.transaction(async (tx) => {
          await rushRedBadDebt(tx, query.badDebtBizCode, body.reason, actor, user, clock.today());
          return { badDebtBizCode: query.badDebtBizCode };
        }),
    );
  },
};
