import type { ScopeKindDef } from '../../platform/auth/row-scope';
import { ofContract, TO_CONTRACT } from '../contract';

/** The row-scope kinds of classification's tables, registered with its plugin (routes.ts). */
export const CLASSIFICATION_SCOPE_KINDS = {
  classAdjust: ofContract(
    '分类调整单',
    'class_adjustments',
    TO_CONTRACT,
    ['ft-classification'],
    ['bizCode', 'adjBizCode'],
  ),
} as const satisfies Record<string, ScopeKindDef>;

declare module '../../platform/auth/row-scope' {
  interface ScopeKindsOf {
    classification: typeof CLASSIFICATION_SCOPE_KINDS;
  }
}
