import { queryOptions } from '@tanstack/react-query';
import {
  CLOSE_PATHS,
  VOUCHER_PATHS,
  type AccountRow,
  type AccountSave,
  type CloseMonthPage,
  type TrialBalance,
  type VoucherView,
} from '@portal/contract/voucher';
import { PACKAGE_PATHS, type PackageAccountRow } from '@portal/contract/voucher-package';
import { post, update } from '../../shared/request/http';

/** 会计凭证, 试算平衡 and 科目映射 calls (docs/accounting.md). */
export const voucherApi = {
  view: (voucherId: number) => post<VoucherView>(VOUCHER_PATHS.view, undefined, { query: { voucherId } }),
  trial: (period: string) => post<TrialBalance>(VOUCHER_PATHS.trial, { period }),
  accounts: () => post<AccountRow[]>(VOUCHER_PATHS.accountList),
  /** The accounting package's codes of each role (docs/accounting.md "Export to the accounting package"). */
  packageAccounts: () => post<PackageAccountRow[]>(PACKAGE_PATHS.accounts),
  /** 月结: the months of the books (the last ten years at most). */
  closeMonths: () => post<CloseMonthPage>(CLOSE_PATHS.list, { pageNum: 1, pageSize: 120 }),
  /** Through the update wrapper: 是否继续？ first, then 操作成功！ / 操作失败！ (docs/protocol.md "The web client"). */
  saveAccount: (body: AccountSave, roleLabel: string) =>
    update<AccountRow>(VOUCHER_PATHS.accountSave, body, {
      confirm: `此操作将保存“${roleLabel}”的科目映射！ 是否继续？`,
    }),
};

/** The keys of the voucher queries: a change invalidates a prefix of them. */
export const voucherKeys = {
  all: ['voucher'] as const,
  /** Our account mapping and the package's codes below it. */
  accounts: ['voucher', 'accounts'] as const,
  packageAccounts: ['voucher', 'accounts', 'package'] as const,
  view: (voucherId: number | null) => ['voucher', 'view', voucherId] as const,
  trial: (period: string) => ['voucher', 'trial', period] as const,
  close: ['voucher', 'close'] as const,
};

/** The voucher reads as query options (`useQuery(voucherQueries.trial(period))`). */
export const voucherQueries = {
  accounts: () => queryOptions({ queryKey: voucherKeys.accounts, queryFn: voucherApi.accounts }),
  packageAccounts: () =>
    queryOptions({ queryKey: voucherKeys.packageAccounts, queryFn: voucherApi.packageAccounts }),
  /** One voucher, while the drawer shows it (`voucherId` null: closed). */
  view: (voucherId: number | null) =>
    queryOptions({
      queryKey: voucherKeys.view(voucherId),
      queryFn: () => voucherApi.view(voucherId!),
      enabled: voucherId !== null,
    }),
  trial: (period: string) =>
    queryOptions({ queryKey: voucherKeys.trial(period), queryFn: () => voucherApi.trial(period) }),
  close: () => queryOptions({ queryKey: voucherKeys.close, queryFn: voucherApi.closeMonths }),
};

/** This month, as YYYY-MM: the trial balance opens on it. */
export function currentPeriod(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}`;
}
