import { useQuery } from '@tanstack/react-query';
import { geoQueries } from './api';

/** The province / city / district tree for the cascader. */
export function useLinkage() {
  return useQuery(geoQueries.linkage());
}
