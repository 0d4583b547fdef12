import { queryOptions } from '@tanstack/react-query';
import { BANK_PATHS, type BankAccountView, type BankDictItem } from '@portal/contract/bank';
import { postDict } from '../request/dict';
import { post } from '../request/http';

/** The keys of the bank queries. */
const bankKeys = {
  ours: ['bank', 'ours'] as const,
  dict: ['bank', 'dict'] as const,
};

/** The bank reads as query options. */
export const bankQueries = {
  /** Our own (本公司) accounts. */
  ours: () =>
    queryOptions({
      queryKey: bankKeys.ours,
      queryFn: () =>
        post<{ list: BankAccountView[] }>(BANK_PATHS.list, {
          ownerType: 'self',
          pageNum: 1,
          pageSize: 500,
        }).then((r) => r.list),
    }),
  /** The bank dictionary (code, name): it does not change while the app runs. */
  dict: () =>
    queryOptions({
      queryKey: bankKeys.dict,
      queryFn: () => postDict<BankDictItem>(BANK_PATHS.dict, undefined, { loading: false }),
      staleTime: Infinity,
    }),
};
