import { queryOptions } from '@tanstack/react-query';
import type { Page } from '@portal/contract/api';
import { JOB_PATHS, type JobRunView, type JobView } from '@portal/contract/jobs';
import { post } from '../../shared/request/http';

/** The keys of the 定时任务 queries: an action invalidates `all`. */
export const jobKeys = {
  all: ['jobs'] as const,
  list: ['jobs', 'list'] as const,
  runs: (code: string, pageNum: number) => ['jobs', 'runs', code, pageNum] as const,
};

/** The 定时任务 reads as query options. */
export const jobQueries = {
  list: () => queryOptions({ queryKey: jobKeys.list, queryFn: () => post<JobView[]>(JOB_PATHS.list) }),
  /** One page of a job's runs, newest first. */
  runs: (code: string, pageNum: number, pageSize: number) =>
    queryOptions({
      queryKey: jobKeys.runs(code, pageNum),
      queryFn: () => post<Page<JobRunView>>(JOB_PATHS.runs, { code, pageNum, pageSize }),
    }),
};
