import { useQuery } from '@tanstack/react-query';
import { accountLabel } from '@portal/contract/bank';
import { bankQueries } from './api';

/** Our own (本公司) receiving accounts as select options: incomings and prepayments pick one. */
export function useOurAccountOptions() {
  const query = useQuery(bankQueries.ours());
  return {
    loading: query.isLoading,
    options: (query.data ?? []).map((a) => ({ value: a.bizCode, label: accountLabel(a) })),
  };
}
