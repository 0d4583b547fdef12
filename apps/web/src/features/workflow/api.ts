import { queryOptions } from '@tanstack/react-query';
import { WORKFLOW_PATHS, type ProcessDefList } from '@portal/contract/workflow';
import { post } from '../../shared/request/http';

/** The keys of the 审批流程 queries (under the workflow's root: an action on a document refreshes them). */
export const processKeys = {
  definitions: ['workflow', 'definitions'] as const,
};

/** The 审批流程 reads as query options. */
export const processQueries = {
  /** Each document type's approval steps. */
  definitions: () =>
    queryOptions({
      queryKey: processKeys.definitions,
      queryFn: () => post<ProcessDefList>(WORKFLOW_PATHS.defList),
    }),
};
