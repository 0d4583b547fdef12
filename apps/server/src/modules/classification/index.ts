/**
 * What other modules may use of classification (docs/architecture.md "Modules"): they import from here,
 * never from its files, and change its tables only through these functions.
 */
export { classAsOf, classifyAtDayEnd, classMigration, storedDistribution, viewAdj } from './service';
