/**
 * What other modules may use of bank (docs/architecture.md "Modules"): they import from here,
 * never from its files, and change its tables only through these functions.
 */
export {
  BANK_ACCOUNT_USAGE,
  defaultAccount,
  deleteAccount,
  getBankAccount,
  listAccounts,
  requireBankAccount,
  saveAccount,
  setDefaultAccount,
} from './service';
