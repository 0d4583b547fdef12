import { queryOptions } from '@tanstack/react-query';
import { BIZDATE_PATHS, type DayEndItem } from '@portal/contract/bizdate';
import { post } from '../../shared/request/http';

/** The keys of the 日终 queries, under the business date's root (a move of the date refreshes them). */
const dayEndKeys = {
  items: (businessDate: string | undefined) => ['bizdate', 'items', businessDate] as const,
};

/** The 日终 reads as query options. */
export const dayEndQueries = {
  /** The day-end's items of the business date; none known yet: off. */
  items: (businessDate: string | undefined) =>
    queryOptions({
      queryKey: dayEndKeys.items(businessDate),
      queryFn: () => post<DayEndItem[]>(BIZDATE_PATHS.dayEndItems, undefined, { query: { businessDate } }),
      enabled: !!businessDate,
    }),
};
