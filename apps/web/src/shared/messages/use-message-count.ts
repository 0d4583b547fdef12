import { useQuery, useQueryClient } from '@tanstack/react-query';
import { MESSAGE_PATHS, MESSAGE_POLL_MS, type MessageCount } from '@portal/contract/messages';
import { getRevalidated, type Revalidated } from '../request/http';

export const MESSAGE_COUNT_KEY = ['messages', 'count'] as const;

/**
 * The caller's message count (docs/operations.md "Messages"): asked every MESSAGE_POLL_MS and on
 * focus by a background conditional GET (it does not keep an idle session alive). The bell and the
 * 工作 dashboard's 通知公告 share this one query, so a published announcement reaches both by the
 * same poll.
 */
export function useMessageCount() {
  const qc = useQueryClient();
  return useQuery({
    queryKey: MESSAGE_COUNT_KEY,
    // Revalidated by ETag: an unchanged count costs no body and keeps the same object.
    queryFn: () =>
      getRevalidated<MessageCount>(
        MESSAGE_PATHS.count,
        qc.getQueryData<Revalidated<MessageCount>>(MESSAGE_COUNT_KEY),
        { loading: false },
      ),
    refetchInterval: MESSAGE_POLL_MS,
    refetchOnWindowFocus: true,
  });
}
