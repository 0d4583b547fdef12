import {
  fiidQuery,
  INCOME_PATHS,
  incomeImportSaveSchema,
  incomeListSchema,
  incomeSaveSchema,
} from '@portal/contract/accounts';
import { button, menu } from '@portal/contract/menus';
import type { PortalModule } from '../../platform/module';
import { readXlsxUpload } from '../../platform/xlsx';
import { registerDocType } from '../workflow/registry';
import { assertDeletable, assertEditable, submit } from '../workflow/service';
import { auditRoutes } from '../workflow/wire';
import { previewIncomeExcel, saveImportedIncomes } from './imports';
import { deleteIncome, findIncome, incomeInUse, listIncomes, saveIncome, viewIncome } from './service';

const p = (path: string) => `/api${path}`;
const MENU = 'ft-income';

const subject = (payerName: string, amount: string) => `来款 ${payerName} ${amount}`;

/** 来款 (SPEC §7.5): incoming payments, typed or imported from a bank statement. */
export const incomeModule: PortalModule = {
  name: 'income',
  register({ api, db, clock }) {
    registerDocType({
      type: 'income',
      table: 'incomes',
      stamps: true,
      hooks: {
        canReject: (tx, doc) => incomeInUse(tx, doc.code),
        // 反审核 of an approved incoming that no write-off uses (a wrong entry is corrected so).
        onRevoke: async () => {},
      },
    });
    const editors = [button(MENU, 'add'), button(MENU, 'save')];

    api.post(p(INCOME_PATHS.list), { perm: menu(MENU), body: incomeListSchema }, ({ body }) =>
      listIncomes(db, body),
    );
    api.post(
      p(INCOME_PATHS.initList),
      { perm: [menu(MENU), menu('ft-paid')], body: incomeListSchema },
      ({ body }) => listIncomes(db, { ...body, approvedWithBalance: true }),
    );
    api.post(
      p(INCOME_PATHS.viewBaseInfo),
      { perm: [menu(MENU), menu('ft-paid')], query: fiidQuery },
      ({ query }) => viewIncome(db, query.fiidBizCode),
    );
    api.post(p(INCOME_PATHS.saveBaseInfo), { perm: editors, body: incomeSaveSchema }, ({ body, actor }) =>
      db.transaction(async (tx) => {
        if (body.fiidBizCode) await assertEditable(tx, 'income', body.fiidBizCode);
        const code = await saveIncome(tx, body, actor, clock.today());
        const flow = body.submit
          ? await submit(tx, {
              type: 'income',
              code,
              subject: subject(body.payerName, body.amount),
              amount: body.amount,
              actor,
            })
          : null;
        const row = await findIncome(tx, code);
        return { fiidBizCode: code, version: row.version, state: row.state, flow };
      }),
    );
    api.post(
      p(INCOME_PATHS.deleteInfo),
      { perm: button(MENU, 'delete'), query: fiidQuery },
      ({ query, actor }) =>
        db.transaction(async (tx) => {
          await assertDeletable(tx, 'income', query.fiidBizCode);
          await deleteIncome(tx, await findIncome(tx, query.fiidBizCode), actor);
          return null;
        }),
    );
    auditRoutes(api, db, {
      type: 'income',
      codeParam: 'fiidBizCode',
      audit: { path: p(INCOME_PATHS.audit), perm: button(MENU, 'audit') },
      unAudit: { path: p(INCOME_PATHS.unAudit), perm: button(MENU, 'unAudit') },
    });
    api.post(
      p(INCOME_PATHS.resolveIncomeExcel),
      {
        perm: button(MENU, 'import'),
        envelope: false,
        summary: 'bank statement xlsx (multipart "file") -> per-row preview with duplicates; nothing saved',
      },
      async ({ req }) => previewIncomeExcel(db, (await readXlsxUpload(req)).buf, clock.today()),
    );
    api.post(
      p(INCOME_PATHS.importSave),
      { perm: button(MENU, 'import'), body: incomeImportSaveSchema },
      ({ body, actor }) =>
        db.transaction(async (tx) => {
          const codes = await saveImportedIncomes(tx, body.rows, actor, clock.today());
          if (body.submit) {
            for (const [i, code] of codes.entries()) {
              const r = body.rows[i]!;
              await submit(tx, {
                type: 'income',
                code,
                subject: subject(r.payerName, r.amount),
                amount: r.amount,
                actor,
              });
            }
          }
          return { codes };
        }),
    );
  },
};
