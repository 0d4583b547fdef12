import type { QueryClient } from '@tanstack/react-query';
import type { Page } from '@portal/contract/api';
import { fetchList, type ListParams } from '../request/http';
import { listConditionKey, readListCondition } from './list-condition';

/** PROTOCOL.md §4 default page size. */
export const DEFAULT_PAGE_SIZE = 20;

export type ListFetcher<T> = (params: ListParams) => Promise<Pick<Page<T>, 'list' | 'total'>>;

/** The fetcher of a list posted to `path` through the request layer. */
export function listPathFetcher<T>(path: string): ListFetcher<T> {
  return (p) => fetchList<T>(path, p).then((body) => body.data ?? { list: [], total: 0 });
}

/** The react-query key of one page of a list (`base` is the list's key, `nonce` its reload count). */
export function listQueryKey(base: readonly unknown[], params: ListParams, nonce: number): unknown[] {
  return [...base, params, nonce];
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
    queryKey: listQueryKey(['list', source], params, 0),
    queryFn: () => fetcher(params),
    retry: false,
  });
}

/** A list's first page: the condition kept for its route (SPEC §2.1), else the defaults. */
export function initialListParams(
  conditionKey: string,
  defaults: Record<string, unknown> = {},
  pageSize = DEFAULT_PAGE_SIZE,
): ListParams {
  const saved = readListCondition(conditionKey);
  if (saved) return { ...saved.filters, pageNum: saved.pageNum, pageSize: saved.pageSize };
  return { ...defaults, pageNum: 1, pageSize };
}
