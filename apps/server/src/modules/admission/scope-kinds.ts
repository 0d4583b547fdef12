import { documentKind, type ScopeKindDef } from '../../platform/auth/row-scope';

/** The row-scope kinds of admission's tables, registered with its plugin (routes.ts). */
export const ADMISSION_SCOPE_KINDS = {
  custAdmission: documentKind('客户准入单', 'cust_admissions', ['ft-cust-admit']),
} as const satisfies Record<string, ScopeKindDef>;

declare module '../../platform/auth/row-scope' {
  interface ScopeKindsOf {
    admission: typeof ADMISSION_SCOPE_KINDS;
  }
}
