import { useQuery } from '@tanstack/react-query';
import { GEO_PATHS, type LinkageNode } from '@portal/contract/geo';
import { post } from '../request/http';

/** The province / city / district tree for the cascader. */
export function useLinkage() {
  return useQuery({
    queryKey: ['geo', 'linkage'],
    queryFn: () => post<LinkageNode[]>(GEO_PATHS.linkage, undefined, { loading: false }),
    staleTime: Infinity,
  });
}
