import type { ScopeKindDef } from '../../platform/auth/row-scope';
import { ofContract, TO_CONTRACT } from '../contract';

/** The row-scope kinds of buyback's tables, registered with its plugin (routes.ts). */
export const BUYBACK_SCOPE_KINDS = {
  buyback: ofContract('回购单', 'buybacks', TO_CONTRACT, ['ft-buyback'], ['bizCode', 'buybackBizCode']),
  buybackSettle: ofContract(
    '回购款核销',
    'buyback_settlements',
    'join buybacks b on b.id = x.buyback_id join contracts r on r.id = b.contract_id',
    ['ft-buyback'],
    ['bizCode', 'settleBizCode'],
  ),
} as const satisfies Record<string, ScopeKindDef>;

declare module '../../platform/auth/row-scope' {
  interface ScopeKindsOf {
    buyback: typeof BUYBACK_SCOPE_KINDS;
  }
}
