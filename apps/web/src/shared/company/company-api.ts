import { useQuery } from '@tanstack/react-query';
import { COMPANY_PATHS, type UsccCheckResult } from '@portal/contract/company';
import { post } from '../request/http';
import { companyQueries } from './api';

/** Company types, customer roles and industries. */
export function useInfoDict() {
  return useQuery(companyQueries.infoDict());
}

/** Customers for pickers ({code,label}): enabled ones, or all with `all`. */
export function useCompanyDict(all = false) {
  return useQuery(companyQueries.dict(all));
}

export const checkUscc = (usccCode: string, compCode?: string) =>
  post<UsccCheckResult>(COMPANY_PATHS.checkUscc, { usccCode, compCode }, { loading: false });

export const findSupComp = (compName: string) =>
  post<{ compCode: string; compName: string }[]>(COMPANY_PATHS.supCompFind, undefined, {
    query: { compName },
    loading: false,
  });
