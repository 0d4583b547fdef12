/**
 * What other modules may use of monitor (docs/architecture.md "Modules"): they import from here,
 * never from its files, and change its tables only through these functions.
 */
export { purgeLogs } from './retention';
export { detailChanges } from './service';
