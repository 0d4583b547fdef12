import { useQuery } from '@tanstack/react-query';
import { messageKeys, messageQueries } from './api';

export const MESSAGE_COUNT_KEY = messageKeys.count;

/**
 * The caller's message count (docs/operations.md "Messages"). The bell and the 工作 dashboard's
 * 通知公告 share this one query, so a published announcement reaches both by the same poll.
 */
export function useMessageCount() {
  return useQuery(messageQueries.count());
}
