import { useQuery } from '@tanstack/react-query';
import { accountLabel, BANK_PATHS, type BankAccountView } from '@portal/contract/bank';
import { post } from '../request/http';

/** Our own (本公司) receiving accounts as select options: incomings and prepayments pick one. */
export function useOurAccountOptions() {
  const query = useQuery({
    queryKey: ['bank', 'ours'],
    queryFn: () =>
      post<{ list: BankAccountView[] }>(BANK_PATHS.list, {
        ownerType: 'self',
        pageNum: 1,
        pageSize: 500,
      }).then((r) => r.list),
  });
  return {
    loading: query.isLoading,
    options: (query.data ?? []).map((a) => ({ value: a.bizCode, label: accountLabel(a) })),
  };
}
