/**
 * What other modules may use of ledger (docs/architecture.md "Modules"): they import from here,
 * never from its files, and change its tables only through these functions.
 */
export { statement } from './statement';
export { interestSplit, principalOpenAsOf } from './as-of';
export { ledgerBatches } from './service';
export { keepLedgerAtDayEnd, vacuumTouches } from './keep';
