/**
 * What other modules may use of company (docs/architecture.md "Modules"): they import from here,
 * never from its files, and change its tables only through these functions.
 */
export {
  applyCompanyValues,
  checkUscc,
  COMPANY_DOC_TYPE,
  COMPANY_USAGE,
  companyDict,
  customerNames,
  getCustomer,
  lockCustomer,
  regionName,
  requireActiveCustomer,
  requireCustomer,
  viewCompany,
} from './service';
