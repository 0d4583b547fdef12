/** What the load scenarios call (shared by the runner and the bench server). */
export const FLOOR_PATH = '/bench/floor/ruler-list';
export const LIST_PATH = '/api/ft/api/businessCfg/ruler/list';
/** Two filters and a sort, as the list scenario asks. */
export const LIST_BODY = {
  pageNum: 1,
  pageSize: 20,
  name: '基准',
  state: 'enabled' as const,
  orderBy: 'annualRate',
  order: 'desc' as const,
};
