import { GUARANTEE_FILE_DOC_TYPE } from '@portal/contract/credit';
import { documentKind, type ScopeKindDef } from '../../platform/auth/row-scope';

const CREDIT_MENUS = ['ft-credit-info', 'ft-credit-dist', 'ft-credit-chg'];

/** The row-scope kinds of credit's tables, registered with its plugin (routes.ts). */
export const CREDIT_SCOPE_KINDS = {
  // A credit's contracts of guarantee are filed under their own type with the credit's code
  // (credit/guarantees.ts): they follow their credit.
  credit: {
    ...documentKind('授信', 'credits', CREDIT_MENUS, ['bizCode', 'credBizCode', 'platCredBizCode']),
    docTypes: [GUARANTEE_FILE_DOC_TYPE],
  },
  credDistribution: documentKind('额度分配', 'cred_distributions', ['ft-credit-dist']),
  credChange: documentKind('额度变更', 'cred_changes', ['ft-credit-chg']),
} as const satisfies Record<string, ScopeKindDef>;

declare module '../../platform/auth/row-scope' {
  interface ScopeKindsOf {
    credit: typeof CREDIT_SCOPE_KINDS;
  }
}
