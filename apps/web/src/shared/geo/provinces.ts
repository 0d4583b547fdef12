import { GEO_PATHS, type Division } from '@portal/contract/geo';
import { post } from '../request/http';

/** The session guard fetches the province list once; screens read it from the cache. */
export const PROVINCES_QUERY_KEY = ['geo', 'provinces'] as const;

export function fetchProvinces(): Promise<Division[]> {
  return post<Division[]>(GEO_PATHS.provinces).then((list) => list ?? []);
}
