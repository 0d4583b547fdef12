import { useQuery } from '@tanstack/react-query';
import { BANK_PATHS, type BankDictItem } from '@portal/contract/bank';
import { post } from '../request/http';

/** The bank dictionary (code, name) for 开户银行 pickers. */
export function useBankDict() {
  return useQuery({
    queryKey: ['bank', 'dict'],
    queryFn: () => post<BankDictItem[]>(BANK_PATHS.dict, undefined, { loading: false }),
    staleTime: Infinity,
  });
}
