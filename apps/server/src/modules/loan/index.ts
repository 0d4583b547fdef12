/**
 * What other modules may use of loan (docs/architecture.md "Modules"): they import from here,
 * never from its files, and change its tables only through these functions.
 */
export { viewLoan } from './queries';
