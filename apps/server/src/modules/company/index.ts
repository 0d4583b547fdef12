/**
 * What other modules may use of company (docs/architecture.md "Modules"): they import from here,
 * never from its files, and change its tables only through these functions.
 */
export {
  admitCustomer,
  applyCompanyValues,
  checkUscc,
  companyCodeByUscc,
  COMPANY_DOC_TYPE,
  COMPANY_USAGE,
  companyDict,
  customerNames,
  getCustomer,
  lockCustomer,
  regionName,
  requireActiveCustomer,
  requireAdmittedCustomer,
  requireCustomer,
  viewCompany,
} from './service';
export { customerScope, ofCustomer } from './scope-kinds';
