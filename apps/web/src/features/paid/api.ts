import { queryOptions } from '@tanstack/react-query';
import {
  PAID_PATHS,
  PAID_RED_PATHS,
  RECONCILE_PATHS,
  type PaidInit,
  type PaidRedView,
  type PaidSuggestion,
  type PaidView,
  type Reconciliation,
  type ValidPlan,
} from '@portal/contract/accounts';
import { DATE_PATTERN } from '@portal/contract/fields';
import { post, update } from '../../shared/request/http';
import type { DocKind } from '../../shared/workflow/doc-kind';

export const PAID_ROUTES = {
  list: '/factoring/accounts/paid',
  editor: '/factoring/accounts/paid-editor',
  view: '/factoring/accounts/paid-view',
  redList: '/factoring/accounts/paid-red',
  redView: '/factoring/accounts/paid-red-view',
  reconcile: '/factoring/accounts/reconcile',
  incomeView: '/factoring/accounts/income-view',
} as const;

/** The keys of the write-off queries: a change invalidates `all`. */
export const paidKeys = {
  all: ['paid'] as const,
  view: (paidBizCode: string) => ['paid', paidBizCode] as const,
  incomes: ['paid', 'incomes'] as const,
  init: (fiidBizCode: string) => ['paid', 'init', fiidBizCode] as const,
  plan: (contBizCode: string, paidDate: string) => ['paid', 'plan', contBizCode, paidDate] as const,
  reconcile: (range: { dateFrom: string; dateTo: string }) => ['paid', 'reconcile', range] as const,
};

/** The write-off as the document kit knows it (its list, view and editor). */
export const PAID_DOC: DocKind = {
  docType: 'paid',
  menuCode: 'ft-paid',
  codeParam: 'paidBizCode',
  routes: PAID_ROUTES,
  listPath: PAID_PATHS.list,
  auditPath: PAID_PATHS.audit,
  unAuditPath: PAID_PATHS.unAudit,
  queryKey: paidKeys.all,
};

const paid = (paidBizCode: string) => ({ query: { paidBizCode } });
const red = (paidRedBizCode: string) => ({ query: { paidRedBizCode } });

/** The write-off, red-entry and reconciliation calls as the screens use them. */
export const paidApi = {
  view: (code: string) => post<PaidView>(PAID_PATHS.viewBaseInfo, undefined, paid(code)),
  incomes: () =>
    post<{ list: { fiidBizCode: string; payerName: string; balance: string; valueDate: string }[] }>(
      PAID_PATHS.initList,
      { pageNum: 1, pageSize: 200 },
    ).then((r) => r.list),
  init: (fiidBizCode: string, special: boolean) =>
    post<PaidInit>(special ? PAID_PATHS.initSpecialPaidBase : PAID_PATHS.initPaidBase, undefined, {
      query: { fiidBizCode },
    }),
  plan: (contBizCode: string, paidDate: string) =>
    post<ValidPlan>(PAID_PATHS.getValidPlanPaid, undefined, { query: { contBizCode, paidDate } }),
  suggest: (
    body: { fiidBizCode: string; contBizCode: string; paidDate: string; amount?: string },
    settlement: boolean,
  ) =>
    settlement
      ? post<PaidSuggestion>(PAID_PATHS.getSpecialPlanInfo, { ...body, mode: 'settlement' })
      : post<PaidSuggestion>(PAID_PATHS.getPaiPlanInfo, body),
  remove: (code: string) =>
    update(PAID_PATHS.deleteInfo, undefined, { ...paid(code), confirm: '确定要删除该来款核销信息吗？' }),
  /** The reason dialog (RushRedDialog) is the confirmation: no second prompt. */
  // 冲红 goes to a checker, after a confirmation like every red reversal.
  rushRed: (code: string, reason: string) =>
    update<{ paidRedBizCode: string }>(
      PAID_PATHS.rushRed,
      { reason },
      {
        ...paid(code),
        confirm: '确定要冲红该核销吗？冲红单经复核通过后，将恢复来款余额和还款计划。',
        successText: '冲红单已提交复核',
      },
    ),
  red: (code: string) => post<PaidRedView>(PAID_RED_PATHS.initList, undefined, red(code)),
  removeRed: (code: string) =>
    update(PAID_RED_PATHS.deleteInfo, undefined, { ...red(code), confirm: '确定要删除来款核销冲红信息吗？' }),
  reconcile: (dateFrom: string, dateTo: string) =>
    post<Reconciliation>(RECONCILE_PATHS.reconcile, { dateFrom, dateTo }),
};

/** The write-off reads as query options (`useQuery(paidQueries.view(code))`). */
export const paidQueries = {
  view: (paidBizCode: string) =>
    queryOptions({
      queryKey: paidKeys.view(paidBizCode),
      queryFn: () => paidApi.view(paidBizCode),
      enabled: !!paidBizCode,
    }),
  /** The incomings with a balance, for a new write-off (`enabled` false for a saved one). */
  incomes: (enabled: boolean) =>
    queryOptions({ queryKey: paidKeys.incomes, queryFn: paidApi.incomes, enabled }),
  init: (fiidBizCode: string) =>
    queryOptions({
      queryKey: paidKeys.init(fiidBizCode),
      queryFn: () => paidApi.init(fiidBizCode, false),
      enabled: !!fiidBizCode,
    }),
  plan: (contBizCode: string, paidDate: string) =>
    queryOptions({
      queryKey: paidKeys.plan(contBizCode, paidDate),
      queryFn: () => paidApi.plan(contBizCode, paidDate),
      enabled: !!contBizCode && DATE_PATTERN.test(paidDate),
    }),
  reconcile: (range: { dateFrom: string; dateTo: string }) =>
    queryOptions({
      queryKey: paidKeys.reconcile(range),
      queryFn: () => paidApi.reconcile(range.dateFrom, range.dateTo),
      enabled: DATE_PATTERN.test(range.dateFrom) && DATE_PATTERN.test(range.dateTo),
    }),
};
