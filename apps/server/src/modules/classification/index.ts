/**
 * What other modules may use of classification (docs/architecture.md "Modules"): they import from here,
 * never from its files, and change its tables only through these functions.
 */
export { classAsOf, classMigration, storedDistribution, viewAdj } from './queries';
export { classifyAtDayEnd } from './service';
