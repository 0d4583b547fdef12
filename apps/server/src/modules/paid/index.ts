/**
 * What other modules may use of paid (docs/architecture.md "Modules"): they import from here,
 * never from its files, and change its tables only through these functions.
 */
export { viewPaid } from './service';
export {
  checkClosureDate,
  closureCode,
  closureLines,
  closureQuote,
  quoteValues,
  requireQuoteUnchanged,
  postClosure,
  reverseClosure,
  type ClosureKind,
  type ClosureQuote,
} from './closure';
export { INCOME_ALLOCATIONS } from './reconcile';
