import {
  fiidQuery,
  INCOME_PATHS,
  incomeImportSaveSchema,
  incomeListSchema,
  incomeSaveSchema,
} from '@portal/contract/accounts';
import { button, menu } from '@portal/contract/menus';
import type { PortalModule } from '../../platform/module';
import { INCOME_SCOPE_KINDS } from './scope-kinds';
import { readXlsxUpload } from '../../platform/xlsx';
import { registerDocument, WORKFLOW_REGISTRY } from '../workflow';
import { previewIncomeExcel, saveImportedIncomes } from './imports';
import {
  deleteIncome,
  findIncome,
  INCOME_USAGE,
  incomeInUse,
  incomeSubject,
  listIncomes,
  postIncome,
  revokeIncome,
  saveIncome,
  viewIncome,
} from './service';

import { tableScope } from '../../platform/auth/row-scope';
import { incomes } from './schema';

import { listOf } from '../../platform/http/route-scope';
import { streamListExport } from '../../platform/http/export';
import { incomeExport } from './export';

const MENU = 'ft-income';

/** 来款: incoming payments, typed or imported from a bank statement. */
export const incomeModule: PortalModule = {
  name: 'income',
  scopeKinds: INCOME_SCOPE_KINDS,
  register({ api, registries, db, clock, config }) {
    const workflow = registries.get(WORKFLOW_REGISTRY);
    const editors = [button(MENU, 'add'), button(MENU, 'save')];
    const usage = registries.get(INCOME_USAGE);

    api.post(
      INCOME_PATHS.list,
      { perm: menu(MENU), scope: listOf('income'), body: incomeListSchema },
      ({ body, user }) => listIncomes(db, body, tableScope(user, incomes)),
    );
    api.post(
      INCOME_PATHS.listExport,
      {
        perm: button(MENU, 'export'),
        scope: listOf('income'),
        body: incomeListSchema,
        raw: true,
        summary: '来款明细.xlsx',
      },
      async ({ body, user, reply }) =>
        streamListExport(
          reply,
          incomeExport(
            async (pageNum, pageSize) =>
              (await listIncomes(db, { ...body, pageNum, pageSize }, tableScope(user, incomes))).list,
          ),
        ),
    );
    api.post(
      INCOME_PATHS.initList,
      { perm: [menu(MENU), menu('ft-paid')], scope: listOf('income'), body: incomeListSchema },
      ({ body, user }) => listIncomes(db, { ...body, approvedWithBalance: true }, tableScope(user, incomes)),
    );
    registerDocument(api, db, workflow, {
      type: 'income',
      table: 'incomes',
      stamps: true,
      hooks: {
        canReject: (tx, doc) => incomeInUse(tx, doc.code, usage),
        onApprove: (tx, doc, actor) => postIncome(tx, doc.code, actor),
        // 反审核 of an approved incoming that no write-off uses (a wrong entry is corrected so):
        // its voucher is mirrored, never edited (docs/accounting.md "Red reversal").
        onRevoke: (tx, doc, actor) => revokeIncome(tx, doc.code, actor, clock.today()),
      },
      codeParam: 'fiidBizCode',
      // The write-off's form reads the incoming it takes money from.
      view: { path: INCOME_PATHS.viewBaseInfo, perm: [menu(MENU), menu('ft-paid')], read: viewIncome },
      save: {
        path: INCOME_PATHS.saveBaseInfo,
        perm: editors,
        body: incomeSaveSchema,
        write: (tx, body, { actor }) => saveIncome(tx, body, actor, clock.today()),
        find: findIncome,
        submission: async (_tx, row) => ({ subject: incomeSubject(row), amount: row.amount }),
      },
      remove: {
        path: INCOME_PATHS.deleteInfo,
        perm: button(MENU, 'delete'),
        query: fiidQuery,
        remove: async (tx, code, actor) => deleteIncome(tx, await findIncome(tx, code), actor),
      },
      audit: { path: INCOME_PATHS.audit, perm: button(MENU, 'audit') },
      unAudit: { path: INCOME_PATHS.unAudit, perm: button(MENU, 'unAudit') },
    });
    api.post(
      INCOME_PATHS.resolveIncomeExcel,
      {
        perm: button(MENU, 'import'),
        scope: { none: 'previews an uploaded statement; nothing stored is read but serial numbers' },
        envelope: false,
        summary: 'bank statement xlsx (multipart "file") -> per-row preview with duplicates; nothing saved',
      },
      async ({ req }) =>
        previewIncomeExcel(db, (await readXlsxUpload(req, config.uploadLimitBytes)).buf, clock.today()),
    );
    api.post(
      INCOME_PATHS.importSave,
      {
        perm: button(MENU, 'import'),
        scope: { none: 'creates new incomings, stamped with the maker’s organisation' },
        body: incomeImportSaveSchema,
      },
      ({ body, actor }) =>
        db.transaction(async (tx) => ({
          codes: await saveImportedIncomes(tx, workflow, body.rows, {
            actor,
            today: clock.today(),
            submit: body.submit === true,
          }),
        })),
    );
  },
};
