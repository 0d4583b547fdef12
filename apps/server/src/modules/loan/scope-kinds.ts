import type { ScopeKindDef } from '../../platform/auth/row-scope';
import { ofContract, TO_CONTRACT } from '../contract';

/** The row-scope kinds of loan's tables, registered with its plugin (routes.ts). */
export const LOAN_SCOPE_KINDS = {
  loan: ofContract('放款单', 'loans', TO_CONTRACT, ['ft-loan'], ['bizCode', 'loanBizCode']),
  loanRed: ofContract(
    '放款单冲红',
    'loan_reds',
    'join loans l on l.id = x.loan_id join contracts r on r.id = l.contract_id',
    ['ft-loan'],
    ['bizCode', 'loanRedBizCode'],
  ),
} as const satisfies Record<string, ScopeKindDef>;

declare module '../../platform/auth/row-scope' {
  interface ScopeKindsOf {
    loan: typeof LOAN_SCOPE_KINDS;
  }
}
