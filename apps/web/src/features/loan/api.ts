import { queryOptions } from '@tanstack/react-query';
import {
  LOAN_PATHS,
  type LoanInit,
  type LoanPlanPreview,
  type LoanRedView,
  type LoanView,
} from '@portal/contract/loan';
import type { DocState } from '@portal/contract/workflow';
import { BANK_PATHS, type BankAccountView } from '@portal/contract/bank';
import { DATE_PATTERN } from '@portal/contract/fields';
import { post, update } from '../../shared/request/http';

export const LOAN_ROUTES = {
  list: '/factoring/accounts/loan',
  editor: '/factoring/accounts/loan-editor',
  view: '/factoring/accounts/loan-view',
  redView: '/factoring/accounts/loan-red-view',
} as const;
const byCode = (loanBizCode: string) => ({ query: { loanBizCode } });

/** The 放款单 and 冲红 calls as the screens use them. */
export const loanApi = {
  view: (code: string) => post<LoanView>(LOAN_PATHS.viewBaseInfo, undefined, byCode(code)),
  init: (contBizCode: string) => post<LoanInit>(LOAN_PATHS.initBase, undefined, { query: { contBizCode } }),
  preview: (code: string) => post<LoanPlanPreview>(LOAN_PATHS.planPreview, undefined, byCode(code)),
  draftPreview: (contBizCode: string, valueDate: string) =>
    post<LoanPlanPreview>(LOAN_PATHS.planDraft, undefined, { query: { contBizCode, valueDate } }),
  supplierAccounts: (custCode: string) =>
    post<{ list: BankAccountView[] }>(BANK_PATHS.list, {
      ownerType: 'customer',
      ownerCode: custCode,
      pageNum: 1,
      pageSize: 500,
    }).then((r) => r.list),
  remove: (code: string) =>
    update(LOAN_PATHS.deleteInfo, undefined, { ...byCode(code), confirm: '确定要删除该放款单吗？' }),
  // 冲红 goes to a checker: the request makes a 放款单冲红 entry; its approval reverses.
  rushRed: (code: string, reason: string) =>
    update(
      LOAN_PATHS.rushRed,
      { reason },
      {
        ...byCode(code),
        confirm: '确定要冲红该放款单吗？冲红单经复核通过后，合同恢复为未放款。',
        successText: '冲红单已提交复核',
      },
    ),
  redView: (code: string) =>
    post<LoanRedView>(LOAN_PATHS.redView, undefined, { query: { loanRedBizCode: code } }),
};

/** The keys of the 放款单 queries: every save invalidates `all`. */
export const loanKeys = {
  all: ['loan'] as const,
  view: (code: string) => ['loan', code] as const,
  init: (contBizCode: string) => ['loan', 'init', contBizCode] as const,
  payees: (custCode: string | undefined) => ['loan', 'payees', custCode] as const,
  draftPlan: (contBizCode: string | undefined, valueDate: string) =>
    ['loan', 'draftPlan', contBizCode, valueDate] as const,
  plan: (code: string, state: DocState) => ['loan', 'plan', code, state] as const,
};

/** The 放款单 reads as query options (`useQuery(loanQueries.view(code))`). */
export const loanQueries = {
  view: (code: string) =>
    queryOptions({ queryKey: loanKeys.view(code), queryFn: () => loanApi.view(code), enabled: !!code }),
  /** A new 放款单's prefill from its contract. */
  init: (contBizCode: string, enabled: boolean) =>
    queryOptions({
      queryKey: loanKeys.init(contBizCode),
      queryFn: () => loanApi.init(contBizCode),
      enabled,
      retry: false,
    }),
  /** The customer's own accounts a loan pays to; no head (contract) yet: off. */
  payees: (custCode: string | undefined) =>
    queryOptions({
      queryKey: loanKeys.payees(custCode),
      queryFn: () => loanApi.supplierAccounts(custCode!),
      enabled: custCode !== undefined,
    }),
  /** The plan a draft would make, once its contract and value date are known. */
  draftPlan: (contBizCode: string | undefined, valueDate: string) =>
    queryOptions({
      queryKey: loanKeys.draftPlan(contBizCode, valueDate),
      queryFn: () => loanApi.draftPreview(contBizCode!, valueDate),
      enabled: contBizCode !== undefined && DATE_PATTERN.test(valueDate),
      retry: false,
    }),
  /** The plan a saved 放款单 makes, until it is approved (then the plan is the contract's). */
  plan: (code: string, state: DocState) =>
    queryOptions({
      queryKey: loanKeys.plan(code, state),
      queryFn: () => loanApi.preview(code),
      enabled: state !== 'approved',
      retry: false,
    }),
};
