/**
 * What other modules may use of bizdate (docs/architecture.md "Modules"): they import from here,
 * never from its files.
 */
export { scheduledDayEnd } from './service';
