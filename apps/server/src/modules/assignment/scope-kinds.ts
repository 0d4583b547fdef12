import type { ScopeKindDef } from '../../platform/auth/row-scope';

/** The row-scope kinds of assignment's tables, registered with its plugin (routes.ts). */
export const ASSIGNMENT_SCOPE_KINDS = {
  /** 应收账款转让通知 (docs/assignment-notice.md): one per debtor, following its contract. */
  assignNotice: {
    label: '转让通知',
    from: 'assignment_notices x join contracts r on r.id = x.contract_id',
    code: 'x.biz_code',
    org: 'r.org_id',
    owner: 'r.created_by',
    live: 'r.deleted_at is null',
    params: ['noticeBizCode'],
    menus: ['ft-contract-info'],
  },
} as const satisfies Record<string, ScopeKindDef>;

declare module '../../platform/auth/row-scope' {
  interface ScopeKindsOf {
    assignment: typeof ASSIGNMENT_SCOPE_KINDS;
  }
}
