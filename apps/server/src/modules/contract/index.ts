/**
 * What other modules may use of contract (docs/architecture.md "Modules"): they import from here,
 * never from its files, and change its tables only through these functions.
 */
export { viewHandover } from './handover';
export {
  activeItems,
  computePlan,
  insertItems,
  openUpfrontDues,
  planViews,
  ruleFor,
  viewScheme,
} from './plan';
export {
  applyDisbursement,
  recordWriteOff,
  reverseDisbursement,
  reversePlanSettlement,
  reverseWriteOff,
  settlePlanItems,
  type Disbursement,
  type PlanPayment,
  type PlanWaiver,
  type UpfrontDeduction,
} from './postings';
export {
  findContract,
  lockContract,
  payersOf,
  receiveOnDue,
  requireEffective,
  resolveRefs,
  scopeOf,
  viewInfo,
  type ContractRow,
} from './service';
