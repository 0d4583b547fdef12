import {
  VOUCHER_PATHS,
  type AccountRow,
  type AccountSave,
  type TrialBalance,
  type VoucherView,
} from '@portal/contract/voucher';
import { post } from '../../shared/request/http';

/** 会计凭证, 试算平衡 and 科目映射 calls (docs/accounting.md). */
export const voucherApi = {
  view: (voucherId: number) => post<VoucherView>(VOUCHER_PATHS.view, undefined, { query: { voucherId } }),
  trial: (period: string) => post<TrialBalance>(VOUCHER_PATHS.trial, { period }),
  accounts: () => post<AccountRow[]>(VOUCHER_PATHS.accountList),
  saveAccount: (body: AccountSave) => post<AccountRow>(VOUCHER_PATHS.accountSave, body),
};

/** This month, as YYYY-MM: the trial balance opens on it. */
export function currentPeriod(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}`;
}
