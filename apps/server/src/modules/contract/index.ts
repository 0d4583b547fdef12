/**
 * What other modules may use of contract (docs/architecture.md "Modules"): they import from here,
 * never from its files, and change its tables only through these functions.
 */
export { viewHandover } from './handover';
export { ofContract, TO_CONTRACT } from './scope-kinds';
export {
  contractRule,
  itemAsOf,
  itemPayment,
  itemsReadFromLines,
  lastPostingDate,
  planAndLinesForPosting,
  planItemsAndLastPosting,
  openAsOf,
  paymentsByContract,
  paymentsOf,
  planItems,
  writtenOffBy,
  type ItemAsOf,
  type ItemRow,
  type StoredLine,
} from './open-items';
export { overdueItems, type OverdueItem } from './overdue';
export { OPENING_STEPS, type OpeningRepayment, type OpeningVoucher } from './opening-steps';
export { activeItems, computePlan, openUpfrontDues, planViews, ruleFor, viewScheme } from './plan';
export {
  applyDisbursement,
  planPaymentsMove,
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
export { findContract, payersOf, requireEffective, scopeOf, viewInfo, type ContractRow } from './queries';
export { lockContract, receiveOnDue, resolveRefs } from './service';
