/**
 * What other modules may use of debtor (docs/architecture.md "Modules"): linking the debtors a
 * save names to customers, and moving a contract's hold on the debtor lines.
 */
export { DEBTOR_LINKERS, linkDebtors, type DebtorLinker, type DocScope } from './link';
export { syncContractDebtors, type DebtorDoc } from './lines';
