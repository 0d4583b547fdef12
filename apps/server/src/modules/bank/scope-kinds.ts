import { documentKind, type ScopeKindDef } from '../../platform/auth/row-scope';

/** The row-scope kinds of bank's tables, registered with its plugin (routes.ts). */
export const BANK_SCOPE_KINDS = {
  // Our own accounts are the company's (every income and contract form picks them); a customer's
  // follow the customer (stamped from it, migrations/0020).
  bankAccount: {
    ...documentKind('银行账户', 'bank_accounts', ['ft-bank', 'crm-cor-bank']),
    companyWide: "r.owner_type = 'self'",
  },
} as const satisfies Record<string, ScopeKindDef>;

declare module '../../platform/auth/row-scope' {
  interface ScopeKindsOf {
    bank: typeof BANK_SCOPE_KINDS;
  }
}
