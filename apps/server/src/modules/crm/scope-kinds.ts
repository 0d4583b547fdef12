import type { ScopeKindDef } from '../../platform/auth/row-scope';
import { ofCustomer } from '../company';

/** The row-scope kinds of crm's tables, registered with its plugin (routes.ts). */
export const CRM_SCOPE_KINDS = {
  compUser: ofCustomer('企业用户', 'comp_users', 'user_code', ['userCode']),
  compRole: ofCustomer('企业角色', 'comp_roles', 'role_code', ['roleCode']),
  compDept: ofCustomer('部门', 'comp_depts', 'dept_code', ['deptCode']),
  compRelation: ofCustomer('企业关系', 'comp_relations', 'biz_code', ['bizCode'], 'core_comp_code'),
} as const satisfies Record<string, ScopeKindDef>;

declare module '../../platform/auth/row-scope' {
  interface ScopeKindsOf {
    crm: typeof CRM_SCOPE_KINDS;
  }
}
