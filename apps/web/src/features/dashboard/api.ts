import {
  DASHBOARD_PATHS,
  type AgingRow,
  type PortfolioFigures,
  type TrendPoint,
} from '@portal/contract/dashboard';
import { CREDIT_PATHS, type UtilisationRow } from '@portal/contract/credit';
import { post } from '../../shared/request/http';

/** The dashboard's widgets: each its own call, loading and failing on its own. */
export const dashboardApi = {
  portfolio: () => post<PortfolioFigures>(DASHBOARD_PATHS.portfolio, {}),
  aging: () => post<AgingRow[]>(DASHBOARD_PATHS.aging, {}),
  trend: (months = 12) => post<TrendPoint[]>(DASHBOARD_PATHS.trend, { months }),
  utilisation: () => post<UtilisationRow[]>(CREDIT_PATHS.utilisation, {}),
};

export const dashboardKeys = {
  portfolio: ['dashboard', 'portfolio'] as const,
  aging: ['dashboard', 'aging'] as const,
  trend: ['dashboard', 'trend'] as const,
  utilisation: ['dashboard', 'utilisation'] as const,
};
