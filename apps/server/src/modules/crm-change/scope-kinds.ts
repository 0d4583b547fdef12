import { documentKind, type ScopeKindDef } from '../../platform/auth/row-scope';

/** The row-scope kinds of crm-change's tables, registered with its plugin (routes.ts). */
export const CRM_CHANGE_SCOPE_KINDS = {
  compInfoChange: documentKind('企业信息变更单', 'comp_info_changes', ['crm-cor-info']),
  compManagerChange: documentKind('管理员变更单', 'comp_manager_changes', ['crm-cor-mg']),
} as const satisfies Record<string, ScopeKindDef>;

declare module '../../platform/auth/row-scope' {
  interface ScopeKindsOf {
    'crm-change': typeof CRM_CHANGE_SCOPE_KINDS;
  }
}
