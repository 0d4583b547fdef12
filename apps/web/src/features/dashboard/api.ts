import {
  DASHBOARD_PATHS,
  type AgingRow,
  type PortfolioFigures,
  type TrendPoint,
} from '@portal/contract/dashboard';
import { CREDIT_PATHS, type UtilisationRow } from '@portal/contract/credit';
import { NOTICE_PATHS, type NoticeShown } from '@portal/contract/notices';
import { post } from '../../shared/request/http';

/** The dashboard's widgets: each its own call, loading and failing on its own. */
export const dashboardApi = {
  portfolio: () => post<PortfolioFigures>(DASHBOARD_PATHS.portfolio, {}),
  aging: () => post<AgingRow[]>(DASHBOARD_PATHS.aging, {}),
  trend: (months = 12) => post<TrendPoint[]>(DASHBOARD_PATHS.trend, { months }),
  utilisation: () => post<UtilisationRow[]>(CREDIT_PATHS.utilisation, {}),
  /** 通知公告 in force for me (the server chooses them: window, state, my organisation). */
  notices: () => post<NoticeShown[]>(NOTICE_PATHS.mine, undefined, { loading: false }),
};

export const dashboardKeys = {
  portfolio: ['dashboard', 'portfolio'] as const,
  aging: ['dashboard', 'aging'] as const,
  trend: ['dashboard', 'trend'] as const,
  utilisation: ['dashboard', 'utilisation'] as const,
  notices: ['dashboard', 'notices'] as const,
};
