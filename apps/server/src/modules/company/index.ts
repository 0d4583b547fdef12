/**
 * What other modules may use of company (docs/architecture.md "Modules"): they import from here,
 * never from its files, and change its tables only through these functions.
 */
export {
  companyCodeByUscc,
  COMPANY_DOC_TYPE,
  companyDict,
  customerNames,
  getCustomer,
  regionName,
  viewCompany,
} from './queries';
export {
  admitCustomer,
  applyCompanyValues,
  checkUscc,
  COMPANY_USAGE,
  lockCustomer,
  requireActiveCustomer,
  requireAdmittedCustomer,
  requireCustomer,
} from './service';
export { customerScope, ofCustomer } from './scope-kinds';
