import {
  accountSaveSchema,
  CLOSE_MENU,
  CLOSE_PATHS,
  closeAskSchema,
  closeDecideSchema,
  closeListSchema,
  trialSchema,
  VOUCHER_MENUS as M,
  VOUCHER_PATHS as P,
  voucherExportSchema,
  voucherListSchema,
  voucherQuery,
} from '@portal/contract/voucher';
import { button, menu } from '@portal/contract/menus';
import {
  PACKAGE_PATHS,
  packageAccountSaveSchema,
  packageExportSchema,
} from '@portal/contract/voucher-package';
import type { PortalModule } from '../../platform/module';
import { approveRequest, askClose, listMonths, rejectRequest } from './close';
import { exportBatches, streamCsv, streamTrial, streamXlsx } from './export';
import { listPackageAccounts, savePackageAccount, streamPackage } from './package-export';
import { OPENING_STEPS } from '../contract';
import {
  listAccounts,
  listVouchers,
  postEvent,
  saveAccount,
  seedAccounts,
  trialBalance,
  viewVoucher,
} from './service';

/** The books are the office's, not a customer's or an organisation's: no row scope narrows them. */
const BOOKS = { none: 'the accounting books of the whole office, kept by finance' };

/**
 * 会计凭证, 试算平衡 and 科目映射 (docs/accounting.md). Vouchers are posted by the money modules'
 * approvals through postEvent / reverseDocument and by the day-end's accrual; these calls read them.
 */
export const voucherModule: PortalModule = {
  name: 'voucher',
  async seed({ db }) {
    await seedAccounts(db);
  },
  register({ api, db, clock, registries }) {
    registries.get(OPENING_STEPS).postVoucher = postEvent;
    api.post(P.accountList, { perm: menu(M.accounts), scope: BOOKS }, () => listAccounts(db));
    api.post(
      P.accountSave,
      { perm: button(M.accounts, 'save'), scope: BOOKS, body: accountSaveSchema },
      ({ body, actor }) => db.transaction((tx) => saveAccount(tx, body, actor)),
    );
    api.post(P.list, { perm: menu(M.vouchers), scope: BOOKS, body: voucherListSchema }, ({ body }) =>
      listVouchers(db, body),
    );
    api.post(P.view, { perm: menu(M.vouchers), scope: BOOKS, query: voucherQuery }, ({ query }) =>
      viewVoucher(db, query.voucherId),
    );
    api.post(
      P.export,
      {
        perm: button(M.vouchers, 'export'),
        scope: BOOKS,
        body: voucherExportSchema,
        raw: true,
        summary: '会计凭证.csv / 会计凭证.xlsx',
      },
      async ({ body, reply }) =>
        body.format === 'csv'
          ? streamCsv(reply, exportBatches(db, body))
          : streamXlsx(reply, exportBatches(db, body)),
    );
    // 凭证引入 to the accounting package (docs/accounting.md "Export to the accounting package").
    api.post(PACKAGE_PATHS.accounts, { perm: menu(M.accounts), scope: BOOKS }, () => listPackageAccounts(db));
    api.post(
      PACKAGE_PATHS.accountSave,
      { perm: button(M.accounts, 'save'), scope: BOOKS, body: packageAccountSaveSchema },
      ({ body, actor }) => db.transaction((tx) => savePackageAccount(tx, body, actor)),
    );
    api.post(
      PACKAGE_PATHS.export,
      {
        perm: button(M.vouchers, 'export'),
        scope: BOOKS,
        body: packageExportSchema,
        raw: true,
        summary: '凭证引入_用友U8T+ / 金蝶K3Cloud.xlsx',
      },
      ({ body, reply }) => streamPackage(reply, db, body),
    );
    api.post(P.trial, { perm: menu(M.trial), scope: BOOKS, body: trialSchema }, ({ body }) =>
      trialBalance(db, body.period),
    );
    api.post(
      P.trialExport,
      {
        perm: button(M.trial, 'export'),
        scope: BOOKS,
        body: trialSchema,
        raw: true,
        summary: '试算平衡.xlsx',
      },
      async ({ body, reply }) => streamTrial(reply, await trialBalance(db, body.period)),
    );
    // 月结 (docs/accounting.md "Month close"): asked by finance (add), decided by a checker (audit).
    api.post(CLOSE_PATHS.list, { perm: menu(CLOSE_MENU), scope: BOOKS, body: closeListSchema }, ({ body }) =>
      listMonths(db, body),
    );
    api.post(
      CLOSE_PATHS.ask,
      { perm: button(CLOSE_MENU, 'add'), scope: BOOKS, body: closeAskSchema },
      ({ body, actor }) => db.transaction((tx) => askClose(tx, body, actor, clock.today())),
    );
    api.post(
      CLOSE_PATHS.approve,
      { perm: button(CLOSE_MENU, 'audit'), scope: BOOKS, body: closeDecideSchema },
      ({ body, actor }) => db.transaction((tx) => approveRequest(tx, body, actor, clock.today())),
    );
    api.post(
      CLOSE_PATHS.reject,
      { perm: button(CLOSE_MENU, 'audit'), scope: BOOKS, body: closeDecideSchema },
      ({ body, actor }) => db.transaction((tx) => rejectRequest(tx, body, actor)),
    );
  },
};
