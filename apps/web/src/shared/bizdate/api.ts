import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  BIZDATE_PATHS,
  type BizDateView,
  type DayEndProgress,
  type ReminderItem,
} from '@portal/contract/bizdate';
import type { Page } from '@portal/contract/api';
import { post } from '../request/http';

/** The keys of the business-date queries: a move of the date invalidates `all`. */
export const bizDateKeys = {
  all: ['bizdate'] as const,
  view: ['bizdate', 'view'] as const,
  reminders: (pageNum: number) => ['bizdate', 'reminders', pageNum] as const,
  progress: (from: string, to: string) => ['bizdate', 'progress', from, to] as const,
};

export const bizDateApi = {
  view: () => post<BizDateView>(BIZDATE_PATHS.view),
  reminders: (pageNum: number, pageSize: number) =>
    post<Page<ReminderItem>>(BIZDATE_PATHS.reminders, { pageNum, pageSize }),
  progress: () => post<DayEndProgress>(BIZDATE_PATHS.progress),
};

/** The query of the business date (also fetched ahead with the session: app/router/load-session.ts). */
export const bizDateQuery = queryOptions({
  queryKey: bizDateKeys.view,
  queryFn: bizDateApi.view,
  staleTime: 60_000,
});

/** The business-date reads as query options. */
export const bizDateQueries = {
  /** 到期提醒, a page at a time. */
  reminders: (pageNum: number, pageSize: number) =>
    queryOptions({
      queryKey: bizDateKeys.reminders(pageNum),
      queryFn: () => bizDateApi.reminders(pageNum, pageSize),
    }),
  /** The day-end running now while a move from `from` to `to` catches up, polled every second. */
  progress: (from: string, to: string) =>
    queryOptions({
      queryKey: bizDateKeys.progress(from, to),
      queryFn: bizDateApi.progress,
      refetchInterval: 1000,
    }),
};

/** The business date every screen computes with (the header shows it). */
export function useBizDate() {
  return useQuery(bizDateQuery);
}
