import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import {
  DASHBOARD_PATHS,
  type AgingRow,
  type PortfolioFigures,
  type TrendPoint,
} from '@portal/contract/dashboard';
import { CREDIT_PATHS, type UtilisationRow } from '@portal/contract/credit';
import { NOTICE_PATHS, type NoticeShown } from '@portal/contract/notices';
import { post } from '../../shared/request/http';
import { isAdmin } from '../../shared/session/session-store';

/** The dashboard's widgets: each its own call, loading and failing on its own. */
const dashboardApi = {
  portfolio: () => post<PortfolioFigures>(DASHBOARD_PATHS.portfolio, {}),
  aging: () => post<AgingRow[]>(DASHBOARD_PATHS.aging, {}),
  trend: (months = 12) => post<TrendPoint[]>(DASHBOARD_PATHS.trend, { months }),
  utilisation: () => post<UtilisationRow[]>(CREDIT_PATHS.utilisation, {}),
  /** 通知公告 in force for me (the server chooses them: window, state, my organisation). */
  notices: () => post<NoticeShown[]>(NOTICE_PATHS.mine, undefined, { loading: false }),
};

const dashboardKeys = {
  portfolio: ['dashboard', 'portfolio'] as const,
  aging: ['dashboard', 'aging'] as const,
  trend: ['dashboard', 'trend'] as const,
  utilisation: ['dashboard', 'utilisation'] as const,
  /** Under the message count's `notices` cue: a moved cue asks again. */
  notices: (cue: string) => ['dashboard', 'notices', cue] as const,
};

/** The widgets as query options: none retries (a failed widget says so at once). */
export const dashboardQueries = {
  portfolio: () =>
    queryOptions({ queryKey: dashboardKeys.portfolio, queryFn: dashboardApi.portfolio, retry: false }),
  aging: () => queryOptions({ queryKey: dashboardKeys.aging, queryFn: dashboardApi.aging, retry: false }),
  /** The last twelve months. */
  trend: () =>
    queryOptions({ queryKey: dashboardKeys.trend, queryFn: () => dashboardApi.trend(12), retry: false }),
  utilisation: () =>
    queryOptions({ queryKey: dashboardKeys.utilisation, queryFn: dashboardApi.utilisation, retry: false }),
  /**
   * 通知公告 at the count's `cue`, asked once the count has answered (`enabled`); the panel stays as
   * it was while the next list is asked.
   */
  notices: (cue: string, enabled: boolean) =>
    queryOptions({
      queryKey: dashboardKeys.notices(cue),
      queryFn: dashboardApi.notices,
      retry: false,
      enabled,
      placeholderData: keepPreviousData,
    }),
};

/** Whether a user with these menu codes sees a widget of the menu `code` (the dashboard's rule). */
export function holdsMenu(roles: readonly string[] | null, code: string): boolean {
  return isAdmin(roles) || (roles ?? []).includes(code);
}

/**
 * Starts the 资产概况 call, the dashboard's first figures, on a cold start while the screen's
 * chunks are still on their way (app/screens.tsx `prefetchScreenData`), for a user who sees it:
 * the same query the widget then finds in flight or answered (bench/README.md "Fifteenth pass").
 */
export function prefetchDashboard(client: QueryClient, roles: readonly string[] | null): void {
  if (holdsMenu(roles, 'ft-contract-info')) void client.prefetchQuery(dashboardQueries.portfolio());
}
