/**
 * What other modules may use of credit (docs/architecture.md "Modules"): they import from here,
 * never from its files, and change its tables only through these functions.
 */
export { parseReceivablesXlsx, previewReceivables } from './invoices';
export { canOccupy, linesOfCustomer, occupy, release, releaseRepaid, reoccupy } from './ledger';
export { getCredit, viewPlatform } from './queries';
export { guaranteeWatchAtDayEnd, type GuaranteeWatch } from './guarantees';
