import { queryOptions } from '@tanstack/react-query';
import { CLASS_PATHS, type ClassDistribution, type ClassMigration } from '@portal/contract/classification';
import { post } from '../request/http';

/** 五级分类 distribution and migration (docs/classification.md), on the 台账, 五级分类 and 工作 screens. */
const classSummaryApi = {
  distribution: (asOf?: string) => post<ClassDistribution>(CLASS_PATHS.distribution, asOf ? { asOf } : {}),
  migration: (fromMonth: string, toMonth: string) =>
    post<ClassMigration>(CLASS_PATHS.migration, { fromMonth, toMonth }),
};

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/** The month before 'YYYY-MM'. */
export function previousMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
}

/** Two month ends a migration can be asked between: both 'YYYY-MM', the first earlier. */
export function validMigration(from: string, to: string): boolean {
  return MONTH.test(from) && MONTH.test(to) && from < to;
}

/** The keys of the summary queries, under the 五级分类 root (a 分类调整单's change refreshes them). */
const classSummaryKeys = {
  distribution: (asOf: string | undefined) => ['classification', 'distribution', asOf ?? ''] as const,
  migration: (from: string, to: string) => ['classification', 'migration', from, to] as const,
};

/** The summary reads as query options. */
export const classSummaryQueries = {
  /** On a date (default the business date). */
  distribution: (asOf: string | undefined) =>
    queryOptions({
      queryKey: classSummaryKeys.distribution(asOf),
      queryFn: () => classSummaryApi.distribution(asOf),
      retry: false,
    }),
  /** Between two month ends; off until they are valid. */
  migration: (from: string, to: string) =>
    queryOptions({
      queryKey: classSummaryKeys.migration(from, to),
      queryFn: () => classSummaryApi.migration(from, to),
      enabled: validMigration(from, to),
      retry: false,
    }),
};
