import type { ScopeKindDef } from '../../platform/auth/row-scope';
import { ofContract, TO_CONTRACT } from '../contract';

/** The row-scope kinds of paid's tables, registered with its plugin (routes.ts). */
export const PAID_SCOPE_KINDS = {
  paid: ofContract('来款核销', 'paids', TO_CONTRACT, ['ft-paid', 'ft-paid-red'], ['bizCode', 'paidBizCode']),
  paidRed: ofContract(
    '来款核销冲红',
    'paid_reds',
    'join paids p on p.id = x.paid_id join contracts r on r.id = p.contract_id',
    ['ft-paid-red'],
    ['bizCode', 'paidRedBizCode'],
  ),
} as const satisfies Record<string, ScopeKindDef>;

declare module '../../platform/auth/row-scope' {
  interface ScopeKindsOf {
    paid: typeof PAID_SCOPE_KINDS;
  }
}
