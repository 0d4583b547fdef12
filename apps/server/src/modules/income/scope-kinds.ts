import { documentKind, type ScopeKindDef } from '../../platform/auth/row-scope';

/** The row-scope kinds of income's tables, registered with its plugin (routes.ts). */
export const INCOME_SCOPE_KINDS = {
  income: documentKind('来款', 'incomes', ['ft-income', 'ft-paid'], ['bizCode', 'fiidBizCode']),
} as const satisfies Record<string, ScopeKindDef>;

declare module '../../platform/auth/row-scope' {
  interface ScopeKindsOf {
    income: typeof INCOME_SCOPE_KINDS;
  }
}
