import { useQuery } from '@tanstack/react-query';
import { bankQueries } from './api';

/** The bank dictionary (code, name) for 开户银行 pickers. */
export function useBankDict() {
  return useQuery(bankQueries.dict());
}
