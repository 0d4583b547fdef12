/**
 * What other modules may use of assignment (docs/architecture.md "Modules"): the 放款单 asks
 * requireNoticesSettled, the print reads findNotice. Another module
 * imports from here, never from its files.
 */
export { findNotice, requireNoticesSettled } from './service';
