import { queryOptions } from '@tanstack/react-query';
import type { Page } from '@portal/contract/api';
import {
  MESSAGE_PATHS,
  MESSAGE_POLL_MS,
  type MessageCount,
  type MessageView,
} from '@portal/contract/messages';
import { getRevalidated, post, type Revalidated } from '../request/http';

/** The message cache keys: the count the bell and the dashboard share, and the bell's latest page. */
export const messageKeys = {
  count: ['messages', 'count'] as const,
  list: ['messages', 'list'] as const,
};

export const messageQueries = {
  /**
   * The caller's message count (docs/operations.md "Messages"): asked every MESSAGE_POLL_MS and on
   * focus by a background conditional GET (it does not keep an idle session alive), revalidated by
   * ETag: an unchanged count costs no body and keeps the same object.
   */
  count: () =>
    queryOptions({
      queryKey: messageKeys.count,
      queryFn: ({ client }) =>
        getRevalidated<MessageCount>(
          MESSAGE_PATHS.count,
          client.getQueryData<Revalidated<MessageCount>>(messageKeys.count),
          { loading: false },
        ),
      refetchInterval: MESSAGE_POLL_MS,
      refetchOnWindowFocus: true,
    }),
  /** The latest ten messages, asked again whenever the count's newest message changes. */
  latest: (latestId: number, enabled: boolean) =>
    queryOptions({
      queryKey: [...messageKeys.list, latestId],
      queryFn: () =>
        post<Page<MessageView>>(MESSAGE_PATHS.list, { pageNum: 1, pageSize: 10 }, { loading: false }),
      enabled,
    }),
};
