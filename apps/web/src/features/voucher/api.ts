import {
  VOUCHER_FILE_NAME,
  VOUCHER_PATHS,
  type AccountRow,
  type AccountSave,
  type TrialBalance,
  type VoucherExportInput,
  type VoucherListInput,
  type VoucherPage,
  type VoucherView,
} from '@portal/contract/voucher';
import { exportFile, post } from '../../shared/request/http';

/** 会计凭证, 试算平衡 and 科目映射 calls (docs/accounting.md). */
export const voucherApi = {
  list: (q: VoucherListInput) => post<VoucherPage>(VOUCHER_PATHS.list, q),
  view: (voucherId: number) => post<VoucherView>(VOUCHER_PATHS.view, undefined, { query: { voucherId } }),
  export: (q: VoucherExportInput) =>
    exportFile(VOUCHER_PATHS.export, q, { fileName: `${VOUCHER_FILE_NAME}.${q.format}` }),
  trial: (period: string) => post<TrialBalance>(VOUCHER_PATHS.trial, { period }),
  accounts: () => post<AccountRow[]>(VOUCHER_PATHS.accountList),
  saveAccount: (body: AccountSave) => post<AccountRow>(VOUCHER_PATHS.accountSave, body),
};

/** This month, as YYYY-MM: the trial balance opens on it. */
export function currentPeriod(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}`;
}
