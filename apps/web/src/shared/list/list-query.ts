import type { Query, QueryClient } from '@tanstack/react-query';
import type { Page } from '@portal/contract/api';
import { fetchList, setUpdatedHandler, type ListParams } from '../request/http';
import { listConditionKey, readListCondition } from './list-condition';

/** The default page size (docs/protocol.md "Lists"). */
export const DEFAULT_PAGE_SIZE = 20;

export type ListFetcher<T> = (params: ListParams) => Promise<Pick<Page<T>, 'list' | 'total'>>;

/** The fetcher of a list posted to `path` through the request layer. */
export function listPathFetcher<T>(path: string): ListFetcher<T> {
  return (p) => fetchList<T>(path, p).then((body) => body.data ?? { list: [], total: 0 });
}

/** The react-query key of one page of a list (`base` is the list's key). */
export function listQueryKey(base: readonly unknown[], params: ListParams): unknown[] {
  return [...base, params];
}

/** Marks the queries of `ListPage`s, whatever their keys, so that `refreshLists` finds them all. */
export const LIST_QUERY_META = { list: true } as const;

const isListQuery = (query: Query): boolean => query.meta?.list === true;

/**
 * After a change: every list is stale (the rows' versions and states moved), the open ones fetch
 * again. A call already in flight is kept rather than restarted, so a list invalidated again by
 * its screen after the change costs no second call.
 */
export function refreshLists(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ predicate: isListQuery }, { cancelRefetch: false });
}

/**
 * Every successful `update()` refreshes the lists of `client`: the screens never reload a list
 * themselves after a row action or a save (a row shown with its old version would answer 409).
 */
export function refreshListsOnUpdate(client: QueryClient): void {
  setUpdatedHandler(() => void refreshLists(client));
}

/**
 * Starts the first page of a `ListPage` posted to `source` (default key, no filters, no custom
 * condition key) before its screen has rendered: the screen's `useQuery` then finds the call in
 * flight or its answer in the cache. Same key, fetcher and parameters as the list's own first
 * call, so it is that call started earlier, not a second one.
 */
export function prefetchListPage(client: QueryClient, source: string, path: string): void {
  const params = initialListParams(listConditionKey(path));
  const fetcher = listPathFetcher<unknown>(source);
  void client.prefetchQuery({
    queryKey: listQueryKey(['list', source], params),
    queryFn: () => fetcher(params),
    meta: LIST_QUERY_META,
    retry: false,
  });
}

/** A list's first page: the condition kept for its route, else the defaults. */
export function initialListParams(
  conditionKey: string,
  defaults: Record<string, unknown> = {},
  pageSize = DEFAULT_PAGE_SIZE,
): ListParams {
  const saved = readListCondition(conditionKey);
  if (saved) return { ...saved.filters, pageNum: saved.pageNum, pageSize: saved.pageSize };
  return { ...defaults, pageNum: 1, pageSize };
}
