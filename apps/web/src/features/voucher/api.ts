import {
  VOUCHER_PATHS,
  type AccountRow,
  type AccountSave,
  type TrialBalance,
  type VoucherView,
} from '@portal/contract/voucher';
import { post, update } from '../../shared/request/http';

/** 会计凭证, 试算平衡 and 科目映射 calls (docs/accounting.md). */
export const voucherApi = {
  view: (voucherId: number) => post<VoucherView>(VOUCHER_PATHS.view, undefined, { query: { voucherId } }),
  trial: (period: string) => post<TrialBalance>(VOUCHER_PATHS.trial, { period }),
  accounts: () => post<AccountRow[]>(VOUCHER_PATHS.accountList),
  /** Through the update wrapper: 是否继续？ first, then 操作成功！ / 操作失败！ (docs/protocol.md "The web client"). */
  saveAccount: (body: AccountSave, roleLabel: string) =>
    update<AccountRow>(VOUCHER_PATHS.accountSave, body, {
      confirm: `此操作将保存“${roleLabel}”的科目映射！ 是否继续？`,
    }),
};

/** This month, as YYYY-MM: the trial balance opens on it. */
export function currentPeriod(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}`;
}
