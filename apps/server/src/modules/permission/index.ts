/**
 * What other modules may use of permission (docs/architecture.md "Modules"): they import from here,
 * never from its files, and change its tables only through these functions.
 */
export { orgTree } from './orgs';
export { activeAdminIds } from './common';
