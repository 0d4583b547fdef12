import { API_PREFIX } from '@portal/contract/api';

/** What the load scenarios call (shared by the runner and the bench server). */
/** The floor's route as registered by its module, which serves under the API prefix like every module. */
export const FLOOR_ROUTE = '/bench/floor/contract-list';
export const FLOOR_PATH = `${API_PREFIX}${FLOOR_ROUTE}`;
/** The bench server's count of database statements per route since the last call (and reset). */
export const STATEMENTS_ROUTE = '/bench/statements';
export const STATEMENTS_PATH = `${API_PREFIX}${STATEMENTS_ROUTE}`;
/**
 * The bench server's own runtime since the last call (and reset): its GC pauses, its event loop's
 * delay and its pool's queue (bench/README.md "Twelfth pass").
 */
export const RUNTIME_ROUTE = '/bench/runtime';
export const RUNTIME_PATH = `${API_PREFIX}${RUNTIME_ROUTE}`;
export const LIST_PATH = '/api/ft/api/contract/list';
/** Two filters and a sort, as the list scenario asks (page 1; page 500 below). */
export const LIST_BODY = {
  pageNum: 1,
  pageSize: 20,
  state: 'approved' as const,
  status: 'effective' as const,
  orderBy: 'financingAmount',
  order: 'desc' as const,
};
export const LIST_BODY_PAGE_500 = { ...LIST_BODY, pageNum: 500 };
/** The business date of the seeded portfolio and of the bench server. */
export const AS_OF = '2026-11-20';
/** A seeded contract (row 12,345 at scale 1; the seed's codes start at 100,000,001). */
export const VIEW_CODE = String(100_000_000 + 1234).padStart(12, '0');
export const VIEW_PATHS = [
  `/api/ft/api/contract/info/view?bizCode=${VIEW_CODE}`,
  `/api/ft/api/contract/scheme/view?contBizCode=${VIEW_CODE}`,
] as const;
export const DASHBOARD_CALLS = [
  ['dashboard portfolio', '/api/ft/api/dashboard/portfolio', {}],
  ['dashboard aging', '/api/ft/api/dashboard/aging', {}],
  ['dashboard trend', '/api/ft/api/dashboard/trend', { months: 12 }],
] as const;
