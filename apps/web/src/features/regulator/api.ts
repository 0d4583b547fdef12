import { queryOptions } from '@tanstack/react-query';
import { REGULATOR_PATHS, type RegulatorReport } from '@portal/contract/regulator';
import { post } from '../../shared/request/http';

/** The keys of the 监管报表 queries. */
const regulatorKeys = {
  report: (month: string) => ['regulator', month] as const,
};

/** The 监管报表 reads as query options. */
export const regulatorQueries = {
  /** The month's figures ('YYYY-MM'). */
  report: (month: string) =>
    queryOptions({
      queryKey: regulatorKeys.report(month),
      queryFn: () => post<RegulatorReport>(REGULATOR_PATHS.report, { month }),
    }),
};
