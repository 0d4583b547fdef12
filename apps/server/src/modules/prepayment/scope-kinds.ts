import type { ScopeKindDef } from '../../platform/auth/row-scope';
import { ofContract, TO_CONTRACT } from '../contract';

/** The row-scope kinds of prepayment's tables, registered with its plugin (routes.ts). */
export const PREPAYMENT_SCOPE_KINDS = {
  prepayment: ofContract('前期款', 'prepayments', TO_CONTRACT, ['ft-pa-mgr'], ['bizCode', 'preamtBizCode']),
} as const satisfies Record<string, ScopeKindDef>;

declare module '../../platform/auth/row-scope' {
  interface ScopeKindsOf {
    prepayment: typeof PREPAYMENT_SCOPE_KINDS;
  }
}
