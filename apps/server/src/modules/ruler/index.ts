/**
 * What other modules may use of ruler (docs/architecture.md "Modules"): they import from here,
 * never from its files, and change its tables only through these functions.
 */
export { RULE_USAGE, ruleCalc, viewRule } from './service';
