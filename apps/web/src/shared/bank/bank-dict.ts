import { useQuery } from '@tanstack/react-query';
import { BANK_PATHS, type BankDictItem } from '@portal/contract/bank';
import { postDict } from '../request/dict';

/** The bank dictionary (code, name) for 开户银行 pickers. */
export function useBankDict() {
  return useQuery({
    queryKey: ['bank', 'dict'],
    queryFn: () => postDict<BankDictItem>(BANK_PATHS.dict, undefined, { loading: false }),
    staleTime: Infinity,
  });
}
