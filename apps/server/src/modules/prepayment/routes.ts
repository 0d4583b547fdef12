import { button, menu } from '@portal/contract/menus';
import { PA_PATHS, paContQuery, paListSchema, paSaveSchema, preamtQuery } from '@portal/contract/prepayment';
import type { PortalModule } from '../../platform/module';
import { findContract, payersOf } from '../contract/service';
import { registerDocType } from '../workflow/registry';
import { assertDeletable, assertEditable, submit } from '../workflow/service';
import { auditRoutes } from '../workflow/wire';
import { deletePa, findPa, listPas, paInit, postPa, savePa, viewPa } from './service';

const p = (path: string) => `/api${path}`;
const MENU = 'ft-pa-mgr';

/** 前期款 (SPEC §7.4): up-front dues of a contract collected before financing. */
export const prepaymentModule: PortalModule = {
  name: 'prepayment',
  register({ api, db, clock }) {
    registerDocType({
      type: 'prepayment',
      table: 'prepayments',
      stamps: true,
      hooks: { onApprove: (tx, doc, actor) => postPa(tx, doc.code, actor) },
    });
    const editors = [button(MENU, 'add'), button(MENU, 'save')];

    api.post(p(PA_PATHS.list), { perm: menu(MENU), body: paListSchema }, ({ body, user }) =>
      listPas(db, body, user),
    );
    api.post(p(PA_PATHS.viewBaseInfo), { perm: menu(MENU), query: preamtQuery }, ({ query, user }) =>
      viewPa(db, query.preamtBizCode, user),
    );
    api.post(
      p(PA_PATHS.initBase),
      { perm: [...editors, button('ft-contract-info', 'isPrevious')], query: paContQuery },
      ({ query, user }) => paInit(db, query.contBizCode, user, clock.today()),
    );
    api.post(p(PA_PATHS.getPayerInfo), { perm: menu(MENU), query: paContQuery }, async ({ query, user }) =>
      payersOf(db, (await findContract(db, query.contBizCode, user)).id),
    );
    api.post(p(PA_PATHS.saveBaseInfo), { perm: editors, body: paSaveSchema }, ({ body, actor, user }) =>
      db.transaction(async (tx) => {
        if (body.preamtBizCode) {
          await findPa(tx, body.preamtBizCode, user);
          await assertEditable(tx, 'prepayment', body.preamtBizCode);
        }
        const code = await savePa(tx, body, actor, user, clock.today());
        const row = await findPa(tx, code);
        const flow = body.submit
          ? await submit(tx, {
              type: 'prepayment',
              code,
              subject: `前期款 ${code} ${row.amount}`,
              amount: row.amount,
              actor,
            })
          : null;
        const after = await findPa(tx, code);
        return { preamtBizCode: code, version: after.version, state: after.state, flow };
      }),
    );
    api.post(
      p(PA_PATHS.deleteInfo),
      { perm: button(MENU, 'delete'), query: preamtQuery },
      ({ query, actor, user }) =>
        db.transaction(async (tx) => {
          await findPa(tx, query.preamtBizCode, user);
          await assertDeletable(tx, 'prepayment', query.preamtBizCode);
          await deletePa(tx, await findPa(tx, query.preamtBizCode), actor);
          return null;
        }),
    );
    auditRoutes(api, db, {
      type: 'prepayment',
      codeParam: 'preamtBizCode',
      audit: { path: p(PA_PATHS.audit), perm: button(MENU, 'audit') },
      unAudit: { path: p(PA_PATHS.unAudit), perm: button(MENU, 'unAudit') },
    });
  },
};
