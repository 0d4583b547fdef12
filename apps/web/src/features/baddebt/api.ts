import { BAD_DEBT_PATHS, type BadDebtQuote, type BadDebtView } from '@portal/contract/baddebt';
import { post, update } from '../../shared/request/http';

/** 核销坏账 screens (docs/accounting.md "Bad-debt write-off"). */
export const BAD_DEBT_ROUTES = {
  list: '/factoring/accounts/bad-debt',
  editor: '/factoring/accounts/bad-debt-editor',
  view: '/factoring/accounts/bad-debt-view',
} as const;
const withCode = (badDebtBizCode: string) => ({ query: { badDebtBizCode } });

/** The keys of the 核销坏账 queries: a change invalidates `all`. */
export const badDebtKeys = {
  all: ['badDebt'] as const,
};

/** The 核销坏账 calls as the screens use them. */
export const badDebtApi = {
  view: (code: string) => post<BadDebtView>(BAD_DEBT_PATHS.viewBaseInfo, undefined, withCode(code)),
  quote: (contBizCode: string, writeOffDate: string) =>
    post<BadDebtQuote>(BAD_DEBT_PATHS.quote, undefined, { query: { contBizCode, writeOffDate } }),
  remove: (code: string) =>
    update(BAD_DEBT_PATHS.deleteInfo, undefined, {
      ...withCode(code),
      confirm: '确定要删除该核销坏账单吗？',
    }),
  rushRed: (code: string, reason: string) =>
    update(
      BAD_DEBT_PATHS.rushRed,
      { reason },
      { ...withCode(code), confirm: '确定要冲红该核销坏账单吗？合同的还款计划将恢复，合同重新履约。' },
    ),
};
