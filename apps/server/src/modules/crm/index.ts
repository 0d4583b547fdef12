/**
 * What other modules may use of crm (docs/architecture.md "Modules"): they import from here,
 * never from its files, and change its tables only through these functions.
 */
export { registerUserDisableCheck } from './users';
export { addApprovedUser, addDemoManager, transferManager } from './managers';
