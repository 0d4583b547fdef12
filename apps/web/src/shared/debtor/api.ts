import { queryOptions } from '@tanstack/react-query';
import { DEBTOR_PATHS, type DebtorPick } from '@portal/contract/debtor';
import { postDict } from '../request/dict';

/** The debtor cache keys; features/debtor's reads are under the same root, so one refresh covers both. */
export const debtorKeys = {
  all: ['debtor'] as const,
};

export const debtorDictQueries = {
  /** The debtors a picker offers: enabled customers in the buyer or core role (docs/credit.md "Debtors"). */
  dict: () =>
    queryOptions({
      queryKey: [...debtorKeys.all, 'dict'],
      queryFn: () => postDict<DebtorPick>(DEBTOR_PATHS.dict, {}, { loading: false }),
      staleTime: 60_000,
    }),
};
