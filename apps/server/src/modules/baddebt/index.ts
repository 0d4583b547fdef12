/**
 * What other modules may use of baddebt (docs/architecture.md "Modules"): they import from here,
 * never from its files, and change its tables only through these functions.
 */
export { viewBadDebt } from './service';
