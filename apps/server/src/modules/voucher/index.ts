/**
 * What other modules may use of voucher (docs/architecture.md "Modules"): they import from here,
 * never from its files, and change its tables only through these functions.
 */
export { accrueMonthEnds } from './accrual';
export { lastProvisionDate, provideMonthEnd, reserveHeld } from './provision';
export { isClosed, postEvent, reverseDocument, type Alongside } from './service';
