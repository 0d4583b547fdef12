import { queryOptions } from '@tanstack/react-query';
import type { OrgNode } from '@portal/contract/permission';
import { NOTICE_PATHS } from '@portal/contract/notices';
import { post } from '../../shared/request/http';

/** The keys of the 通知公告 queries. */
const noticeKeys = {
  orgTree: ['notices', 'orgTree'] as const,
};

/** The 通知公告 reads as query options. */
export const noticeQueries = {
  /** The organisations a notice can be shown to. */
  orgTree: () =>
    queryOptions({
      queryKey: noticeKeys.orgTree,
      queryFn: () => post<OrgNode[]>(NOTICE_PATHS.orgTree, undefined, { loading: false }),
      staleTime: 30_000,
    }),
};
