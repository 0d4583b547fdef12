import { queryOptions } from '@tanstack/react-query';
import {
  COMPANY_INFO_DICT,
  COMPANY_PATHS,
  type CompanyInfoDict,
  type DictItem,
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
