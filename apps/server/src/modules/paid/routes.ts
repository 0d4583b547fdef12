import {
  fiidQuery,
  incomeListSchema,
  PAID_PATHS,
  PAID_RED_PATHS,
  paidListSchema,
  paidQuery,
  paidRedListSchema,
  paidRedQuery,
  paidSaveSchema,
  paidSuggestSchema,
  RECONCILE_PATHS,
  reconcileSchema,
  rushRedBody,
  validPlanQuery,
} from '@portal/contract/accounts';
import { button, menu } from '@portal/contract/menus';
import type { PortalModule } from '../../platform/module';
import { PAID_SCOPE_KINDS } from './scope-kinds';
import { findContract, OPENING_STEPS } from '../contract';
import { recordOpeningRepayment } from './opening';
import { INCOME_USAGE, listIncomes } from '../income';
import { registerDocument, WORKFLOW_REGISTRY } from '../workflow';
import { seedDemoMoney } from './demo';
import { postPaid, postRed } from './posting';
import { INCOME_ALLOCATIONS, reconcile } from './reconcile';
import { deleteRed, listReds, rushRed, viewRed } from './red';
import {
  deletePaid,
  findPaid,
  incomeWriteOff,
  listPaids,
  paidInit,
  requireWriteOffable,
  savePaid,
  suggest,
  validPlan,
  viewPaid,
} from './service';
import { formatYuan } from '@portal/contract/format';

import { tableScope } from '../../platform/auth/row-scope';
import { listOf, type ScopedRows } from '../../platform/http/route-scope';
import { incomes } from '../income/schema';
import { streamListExport } from '../../platform/http/export';
import { paidExport } from './export';

/** A write-off names the incoming it spends and the contract it pays. */
const WRITE_OFF: ScopedRows[] = [
  { kind: 'income', params: ['fiidBizCode'] },
  { kind: 'contract', params: ['contBizCode'] },
];

const MENU = 'ft-paid';
const RED = 'ft-paid-red';

/** 来款核销 and 来款核销冲红, and 对账. */
export const paidModule: PortalModule = {
  name: 'paid',
  scopeKinds: PAID_SCOPE_KINDS,
  demo: seedDemoMoney,
  register({ api, registries, db, clock }) {
    const workflow = registries.get(WORKFLOW_REGISTRY);
    const editors = [button(MENU, 'add'), button(MENU, 'save')];
    registries.get(INCOME_USAGE).add(incomeWriteOff);
    registries.get(OPENING_STEPS).recordRepayment = recordOpeningRepayment;

    api.post(
      PAID_PATHS.list,
      { perm: menu(MENU), scope: listOf('paid'), body: paidListSchema },
      ({ body, user }) => listPaids(db, body, user),
    );
    api.post(
      PAID_PATHS.listExport,
      {
        perm: button(MENU, 'export'),
        scope: listOf('paid'),
        body: paidListSchema,
        raw: true,
        summary: '来款核销明细.xlsx',
      },
      async ({ body, user, reply }) =>
        streamListExport(
          reply,
          paidExport(
            async (pageNum, pageSize) => (await listPaids(db, { ...body, pageNum, pageSize }, user)).list,
          ),
        ),
    );
    api.post(
      PAID_PATHS.initList,
      { perm: menu(MENU), scope: listOf('income'), body: incomeListSchema },
      ({ body, user }) => listIncomes(db, { ...body, approvedWithBalance: true }, tableScope(user, incomes)),
    );
    api.post(
      PAID_PATHS.getValidPlanPaid,
      { perm: menu(MENU), scope: 'contract', query: validPlanQuery },
      async ({ query, user }) => {
        const contract = await findContract(db, query.contBizCode, user);
        requireWriteOffable(contract);
        return validPlan(db, contract, query.paidDate);
      },
    );
    for (const path of [PAID_PATHS.initPaidBase, PAID_PATHS.initSpecialPaidBase])
      api.post(path, { perm: editors, scope: 'income', query: fiidQuery }, ({ query, user }) =>
        paidInit(db, query.fiidBizCode, user, clock.today()),
      );
    api.post(
      PAID_PATHS.getPaiPlanInfo,
      { perm: editors, scope: WRITE_OFF, body: paidSuggestSchema },
      ({ body, user }) => suggest(db, { ...body, mode: undefined }, user, clock.today()),
    );
    api.post(
      PAID_PATHS.getSpecialPlanInfo,
      { perm: editors, scope: WRITE_OFF, body: paidSuggestSchema },
      ({ body, user }) => suggest(db, { ...body, mode: body.mode ?? 'settlement' }, user, clock.today()),
    );
    registerDocument(api, db, workflow, {
      type: 'paid',
      table: 'paids',
      stamps: true,
      hooks: { onApprove: (tx, doc, actor) => postPaid(tx, doc.code, actor, clock.today()) },
      codeParam: 'paidBizCode',
      scope: WRITE_OFF,
      // The red entry's form shows the write-off it mirrors.
      view: { path: PAID_PATHS.viewBaseInfo, perm: [menu(MENU), menu(RED)], read: viewPaid },
      save: {
        path: PAID_PATHS.savePlanPaidInfo,
        perm: editors,
        body: paidSaveSchema,
        write: (tx, body, { actor, user }) => savePaid(tx, body, actor, user, clock.today()),
        find: findPaid,
        submission: async (_tx, row) => ({
          subject: `来款核销 ${row.bizCode} ${formatYuan(row.amount)}`,
          amount: row.amount,
        }),
        reply: (row) => ({ amount: row.amount }),
      },
      remove: {
        path: PAID_PATHS.deleteInfo,
        perm: button(MENU, 'delete'),
        query: paidQuery,
        remove: async (tx, code, actor) => deletePaid(tx, await findPaid(tx, code), actor),
      },
      audit: { path: PAID_PATHS.audit, perm: button(MENU, 'audit') },
      unAudit: { path: PAID_PATHS.unAudit, perm: button(MENU, 'unAudit') },
    });
    api.post(
      PAID_PATHS.rushRed,
      { perm: button(MENU, 'rushRed'), scope: 'paid', query: paidQuery, body: rushRedBody },
      ({ query, body, actor, user }) =>
        db.transaction(async (tx) => ({
          paidRedBizCode: await rushRed(
            tx,
            workflow,
            query.paidBizCode,
            body.reason,
            actor,
            user,
            clock.today(),
          ),
        })),
    );

    // ---- Paid-red entries
    api.post(
      PAID_RED_PATHS.list,
      { perm: menu(RED), scope: listOf('paidRed'), body: paidRedListSchema },
      ({ body, user }) => listReds(db, body, user),
    );
    registerDocument(api, db, workflow, {
      type: 'paidRed',
      table: 'paid_reds',
      stamps: true,
      hooks: { onApprove: (tx, doc, actor) => postRed(tx, doc.code, actor, clock.today()) },
      codeParam: 'paidRedBizCode',
      view: { path: PAID_RED_PATHS.initList, perm: menu(RED), read: viewRed },
      remove: {
        path: PAID_RED_PATHS.deleteInfo,
        perm: button(RED, 'delete'),
        query: paidRedQuery,
        remove: deleteRed,
      },
      audit: { path: PAID_RED_PATHS.audit, perm: button(RED, 'audit') },
      unAudit: { path: PAID_RED_PATHS.unAudit, perm: button(RED, 'unAudit') },
    });

    api.post(
      RECONCILE_PATHS.reconcile,
      { perm: menu('ft-reconcile'), scope: [listOf('income'), listOf('contract')], body: reconcileSchema },
      ({ body, user }) => reconcile(db, body.dateFrom, body.dateTo, user, registries.get(INCOME_ALLOCATIONS)),
    );
  },
};
