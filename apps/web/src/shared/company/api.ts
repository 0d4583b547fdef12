import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  COMPANY_INFO_DICT,
  COMPANY_PATHS,
  type CompanyInfoDict,
  type DictItem,
  type UsccCheckResult,
} from '@portal/contract/company';
import { post } from '../request/http';
import { postDict } from '../request/dict';

/** The customer (company) cache keys; a saved customer makes everything under `all` stale. */
export const companyKeys = {
  all: ['company'] as const,
};

/** The customer reads every screen shares, as query options. */
export const companyQueries = {
  /** Company types, customer roles and industries (placeholder: the contract's own copy). */
  infoDict: () =>
    queryOptions({
      queryKey: [...companyKeys.all, 'infoDict'],
      queryFn: () => post<CompanyInfoDict>(COMPANY_PATHS.infoDict, undefined, { loading: false }),
      staleTime: Infinity,
      placeholderData: COMPANY_INFO_DICT,
    }),
  /** Customers for pickers ({code,label}): enabled ones, or all with `all`. */
  dict: (all = false) =>
    queryOptions({
      queryKey: [...companyKeys.all, 'dict', all],
      queryFn: () => postDict<DictItem>(COMPANY_PATHS.dict, all ? { all } : {}, { loading: false }),
      staleTime: 60_000,
    }),
};

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
