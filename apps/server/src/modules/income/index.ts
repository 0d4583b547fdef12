/**
 * What other modules may use of income (docs/architecture.md "Modules"): they import from here,
 * never from its files, and change its tables only through these functions.
 */
export {
  allocatedMove,
  findIncome,
  INCOME_USAGE,
  insertIncome,
  listIncomes,
  lockIncome,
  moveAllocated,
  postIncome,
  type IncomeRecord,
} from './service';
export { approveDemoIncomes } from './demo';
