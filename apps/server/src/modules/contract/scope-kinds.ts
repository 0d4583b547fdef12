import { type ScopeKindDef, documentKind } from '../../platform/auth/row-scope';

/**
 * A document of a contract (change, handover, prepayment, write-off, disbursement …): it follows
 * its contract's organisation and maker, as the contract's own screens always scoped it. `join`
 * leads from the document `x` to its contract `r` (`TO_CONTRACT` when it names the contract).
 * Other modules describe their documents of a contract with it (modules/README.md "Row scope").
 */
export const ofContract = (
  label: string,
  table: string,
  join: string,
  menus: readonly string[],
  params: readonly string[] = ['bizCode'],
): ScopeKindDef => ({
  label,
  from: `${table} x ${join}`,
  code: 'x.biz_code',
  org: 'r.org_id',
  owner: 'r.created_by',
  live: 'x.deleted_at is null',
  params,
  menus,
});
export const TO_CONTRACT = 'join contracts r on r.id = x.contract_id';

const CONTRACT_MENUS = ['ft-contract-info', 'ft-contract-chg', 'ft-contract-handover'];

/** The row-scope kinds of contract's tables, registered with its plugin (routes.ts). */
export const CONTRACT_SCOPE_KINDS = {
  contract: documentKind('合同', 'contracts', CONTRACT_MENUS, ['bizCode', 'contBizCode']),
  contractDetail: {
    label: '业务信息',
    from: 'contract_details d join contracts r on r.id = d.contract_id',
    code: 'd.biz_code',
    org: 'r.org_id',
    owner: 'r.created_by',
    live: 'r.deleted_at is null',
    params: ['contractdetailCode'],
    menus: CONTRACT_MENUS,
  },
  contractChange: ofContract('合同变更', 'contract_changes', TO_CONTRACT, ['ft-contract-chg']),
  handover: ofContract('资料交接单', 'handovers', TO_CONTRACT, ['ft-contract-handover']),
} as const satisfies Record<string, ScopeKindDef>;

declare module '../../platform/auth/row-scope' {
  interface ScopeKindsOf {
    contract: typeof CONTRACT_SCOPE_KINDS;
  }
}
