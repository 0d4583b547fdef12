import { useQuery } from '@tanstack/react-query';
import { BIZDATE_PATHS, type BizDateView, type ReminderItem } from '@portal/contract/bizdate';
import type { Page } from '@portal/contract/api';
import { post } from '../request/http';

export const bizDateKeys = {
  view: ['bizdate', 'view'] as const,
  reminders: (pageNum: number) => ['bizdate', 'reminders', pageNum] as const,
};

export const bizDateApi = {
  view: () => post<BizDateView>(BIZDATE_PATHS.view),
  reminders: (pageNum: number, pageSize: number) =>
    post<Page<ReminderItem>>(BIZDATE_PATHS.reminders, { pageNum, pageSize }),
};

/** The query of the business date (also fetched ahead with the session: app/router/load-session.ts). */
export const bizDateQuery = { queryKey: bizDateKeys.view, queryFn: bizDateApi.view, staleTime: 60_000 };

/** The business date every screen computes with (the header shows it). */
export function useBizDate() {
  return useQuery(bizDateQuery);
}
