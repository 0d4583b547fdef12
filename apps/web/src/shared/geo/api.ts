import { queryOptions } from '@tanstack/react-query';
import { GEO_PATHS, type LinkageNode } from '@portal/contract/geo';
import { post } from '../request/http';

export const geoQueries = {
  /** The province / city / district tree for the cascader. */
  linkage: () =>
    queryOptions({
      queryKey: ['geo', 'linkage'],
      queryFn: () => post<LinkageNode[]>(GEO_PATHS.linkage, undefined, { loading: false }),
      staleTime: Infinity,
    }),
};
