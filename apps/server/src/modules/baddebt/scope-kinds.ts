import type { ScopeKindDef } from '../../platform/auth/row-scope';
import { ofContract, TO_CONTRACT } from '../contract';

/** The row-scope kind of baddebt's table, registered with its plugin (routes.ts). */
export const BAD_DEBT_SCOPE_KINDS = {
  badDebt: ofContract('核销坏账', 'bad_debts', TO_CONTRACT, ['ft-bad-debt'], ['bizCode', 'badDebtBizCode']),
} as const satisfies Record<string, ScopeKindDef>;

declare module '../../platform/auth/row-scope' {
  interface ScopeKindsOf {
    baddebt: typeof BAD_DEBT_SCOPE_KINDS;
  }
}
