import { PERMIT_AREA_MENU, PERMIT_CHG_MENU, PERMIT_USER_AREA_MENU } from '@portal/contract/permit';
import { documentKind, type ScopeKindDef } from '../../platform/auth/row-scope';

const PERMIT_MENUS = [
  ...Object.values(PERMIT_AREA_MENU),
  ...Object.values(PERMIT_USER_AREA_MENU),
  PERMIT_CHG_MENU,
].filter((m): m is string => m !== undefined);

/** The row-scope kinds of permit's tables, registered with its plugin (routes.ts). */
export const PERMIT_SCOPE_KINDS = {
  permit: documentKind('准入记录', 'permits', PERMIT_MENUS, ['bizCode'], false),
  permitRoleChange: {
    label: '企业角色变更',
    from: 'permit_role_changes x join permits r on r.id = x.permit_id',
    code: 'x.biz_code',
    org: 'r.org_id',
    owner: 'r.created_by',
    live: 'true',
    params: ['bizCode'],
    menus: PERMIT_MENUS,
  },
} as const satisfies Record<string, ScopeKindDef>;

declare module '../../platform/auth/row-scope' {
  interface ScopeKindsOf {
    permit: typeof PERMIT_SCOPE_KINDS;
  }
}
