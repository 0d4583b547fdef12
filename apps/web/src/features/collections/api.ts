import { queryOptions } from '@tanstack/react-query';
import {
  COLLECTION_PATHS,
  type CollectionCaseView,
  type CollectionStaff,
} from '@portal/contract/collections';
import { post } from '../../shared/request/http';

/** 催收 calls (docs/collections.md). */
const collectionApi = {
  /** A contract's case with its records (the drawer). */
  case: (contBizCode: string) =>
    post<CollectionCaseView>(COLLECTION_PATHS.records, undefined, { query: { contBizCode } }),
  staff: () => post<CollectionStaff[]>(COLLECTION_PATHS.staff),
};

/** The keys of the 催收 queries: a save puts its answer under `case`. */
export const collectionKeys = {
  case: (contBizCode: string) => ['collection', 'case', contBizCode] as const,
  staff: ['collection', 'staff'] as const,
};

/** The 催收 reads as query options. */
export const collectionQueries = {
  case: (contBizCode: string) =>
    queryOptions({
      queryKey: collectionKeys.case(contBizCode),
      queryFn: () => collectionApi.case(contBizCode),
    }),
  /** Who a case can be assigned to, while the case dialog is open. */
  staff: (enabled: boolean) =>
    queryOptions({ queryKey: collectionKeys.staff, queryFn: collectionApi.staff, enabled }),
};
