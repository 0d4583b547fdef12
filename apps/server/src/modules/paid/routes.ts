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
import { findContract } from '../contract/service';
import { listIncomes } from '../income/service';
import { registerDocType } from '../workflow/registry';
import { assertDeletable, assertEditable, submit } from '../workflow/service';
import { auditRoutes } from '../workflow/wire';
import { seedDemoMoney } from './demo';
import { postPaid, postRed } from './posting';
import { reconcile } from './reconcile';
import { deleteRed, findRed, listReds, rushRed, viewRed } from './red';
import {
  deletePaid,
  findPaid,
  listPaids,
  paidInit,
  requireWriteOffable,
  savePaid,
  suggest,
  validPlan,
  viewPaid,
} from './service';

const p = (path: string) => `/api${path}`;
const MENU = 'ft-paid';
const RED = 'ft-paid-red';

/** 来款核销 and 来款核销冲红 (SPEC §7.6), and 对账. */
export const paidModule: PortalModule = {
  name: 'paid',
  demo: seedDemoMoney,
  register({ api, db, clock }) {
    registerDocType({
      type: 'paid',
      table: 'paids',
      stamps: true,
      hooks: { onApprove: (tx, doc, actor) => postPaid(tx, doc.code, actor, clock.today()) },
    });
    registerDocType({
      type: 'paidRed',
      table: 'paid_reds',
      stamps: true,
      hooks: { onApprove: (tx, doc, actor) => postRed(tx, doc.code, actor, clock.today()) },
    });
    const editors = [button(MENU, 'add'), button(MENU, 'save')];

    api.post(p(PAID_PATHS.list), { perm: menu(MENU), body: paidListSchema }, ({ body, user }) =>
      listPaids(db, body, user),
    );
    api.post(
      p(PAID_PATHS.viewBaseInfo),
      { perm: [menu(MENU), menu(RED)], query: paidQuery },
      ({ query, user }) => viewPaid(db, query.paidBizCode, user),
    );
    api.post(p(PAID_PATHS.initList), { perm: menu(MENU), body: incomeListSchema }, ({ body }) =>
      listIncomes(db, { ...body, approvedWithBalance: true }),
    );
    api.post(
      p(PAID_PATHS.getValidPlanPaid),
      { perm: menu(MENU), query: validPlanQuery },
      async ({ query, user }) => {
        const contract = await findContract(db, query.contBizCode, user);
        requireWriteOffable(contract);
        return validPlan(db, contract, query.paidDate);
      },
    );
    for (const path of [PAID_PATHS.initPaidBase, PAID_PATHS.initSpecialPaidBase])
      api.post(p(path), { perm: editors, query: fiidQuery }, ({ query, user }) =>
        paidInit(db, query.fiidBizCode, user, clock.today()),
      );
    api.post(p(PAID_PATHS.getPaiPlanInfo), { perm: editors, body: paidSuggestSchema }, ({ body, user }) =>
      suggest(db, { ...body, mode: undefined }, user, clock.today()),
    );
    api.post(p(PAID_PATHS.getSpecialPlanInfo), { perm: editors, body: paidSuggestSchema }, ({ body, user }) =>
      suggest(db, { ...body, mode: body.mode ?? 'settlement' }, user, clock.today()),
    );
    api.post(
      p(PAID_PATHS.savePlanPaidInfo),
      { perm: editors, body: paidSaveSchema },
      ({ body, actor, user }) =>
        db.transaction(async (tx) => {
          if (body.paidBizCode) {
            await findPaid(tx, body.paidBizCode, user);
            await assertEditable(tx, 'paid', body.paidBizCode);
          }
          const code = await savePaid(tx, body, actor, user, clock.today());
          const row = await findPaid(tx, code);
          const flow = body.submit
            ? await submit(tx, {
                type: 'paid',
                code,
                subject: `来款核销 ${code} ${row.amount}`,
                amount: row.amount,
                actor,
              })
            : null;
          const after = await findPaid(tx, code);
          return {
            paidBizCode: code,
            version: after.version,
            state: after.state,
            amount: after.amount,
            flow,
          };
        }),
    );
    api.post(
      p(PAID_PATHS.deleteInfo),
      { perm: button(MENU, 'delete'), query: paidQuery },
      ({ query, actor, user }) =>
        db.transaction(async (tx) => {
          await findPaid(tx, query.paidBizCode, user);
          await assertDeletable(tx, 'paid', query.paidBizCode);
          await deletePaid(tx, await findPaid(tx, query.paidBizCode), actor);
          return null;
        }),
    );
    auditRoutes(api, db, {
      type: 'paid',
      codeParam: 'paidBizCode',
      audit: { path: p(PAID_PATHS.audit), perm: button(MENU, 'audit') },
      unAudit: { path: p(PAID_PATHS.unAudit), perm: button(MENU, 'unAudit') },
    });
    api.post(
      p(PAID_PATHS.rushRed),
      { perm: button(MENU, 'rushRed'), query: paidQuery, body: rushRedBody },
      ({ query, body, actor, user }) =>
        db.transaction(async (tx) => ({
          paidRedBizCode: await rushRed(tx, query.paidBizCode, body.reason, actor, user, clock.today()),
        })),
    );

    // ---- Paid-red entries
    api.post(p(PAID_RED_PATHS.list), { perm: menu(RED), body: paidRedListSchema }, ({ body, user }) =>
      listReds(db, body, user),
    );
    api.post(p(PAID_RED_PATHS.initList), { perm: menu(RED), query: paidRedQuery }, ({ query, user }) =>
      viewRed(db, query.paidRedBizCode, user),
    );
    api.post(
      p(PAID_RED_PATHS.deleteInfo),
      { perm: button(RED, 'delete'), query: paidRedQuery },
      ({ query, actor, user }) =>
        db.transaction(async (tx) => {
          await findRed(tx, query.paidRedBizCode, user);
          await assertDeletable(tx, 'paidRed', query.paidRedBizCode);
          await deleteRed(tx, query.paidRedBizCode, actor);
          return null;
        }),
    );
    auditRoutes(api, db, {
      type: 'paidRed',
      codeParam: 'paidRedBizCode',
      audit: { path: p(PAID_RED_PATHS.audit), perm: button(RED, 'audit') },
      unAudit: { path: p(PAID_RED_PATHS.unAudit), perm: button(RED, 'unAudit') },
    });

    api.post(
      p(RECONCILE_PATHS.reconcile),
      { perm: menu('ft-reconcile'), body: reconcileSchema },
      ({ body }) => reconcile(db, body.dateFrom, body.dateTo),
    );
  },
};
