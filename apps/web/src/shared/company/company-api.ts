import { useQuery } from '@tanstack/react-query';
import {
  COMPANY_INFO_DICT,
  COMPANY_PATHS,
  type CompanyInfoDict,
  type DictItem,
  type UsccCheckResult,
} from '@portal/contract/company';
import { post } from '../request/http';
import { postDict } from '../request/dict';

/** Company types, customer roles and industries (placeholder: the contract's own copy). */
export function useInfoDict() {
  return useQuery({
    queryKey: ['company', 'infoDict'],
    queryFn: () => post<CompanyInfoDict>(COMPANY_PATHS.infoDict, undefined, { loading: false }),
    staleTime: Infinity,
    placeholderData: COMPANY_INFO_DICT,
  });
}

/** Customers for pickers ({code,label}): enabled ones, or all with `all`. */
export function useCompanyDict(all = false) {
  return useQuery({
    queryKey: ['company', 'dict', all],
    queryFn: () => postDict<DictItem>(COMPANY_PATHS.dict, all ? { all } : {}, { loading: false }),
    staleTime: 60_000,
  });
}

export const checkUscc = (usccCode: string, compCode?: string) =>
  post<UsccCheckResult>(COMPANY_PATHS.checkUscc, { usccCode, compCode }, { loading: false });

export const findSupComp = (compName: string) =>
  post<{ compCode: string; compName: string }[]>(COMPANY_PATHS.supCompFind, undefined, {
    query: { compName },
    loading: false,
  });
