import { fetchMenuCodes, fetchUserInfo } from '../../features/auth/api';
import { fetchProvinces, PROVINCES_QUERY_KEY } from '../../shared/geo/provinces';
import { useSessionStore } from '../../shared/session/session-store';
import { queryClient } from '../query-client';
import { generateRoutes } from './access-store';

export type SessionLoad = 'ok' | 'empty';

/**
 * Roles not loaded yet (docs/architecture.md "The web shell"): user info and the menu-code list are fetched,
 * the routes are generated from the codes, and the province list is fetched. No codes at all = empty
 * permissions.
 */
export async function loadSession(): Promise<SessionLoad> {
  // Asked for at once rather than after the routes: the first screen waits for all three anyway.
  const provinces = fetchProvinces();
  provinces.catch(() => undefined); // awaited below; not left unhandled if the others fail first
  // The business date, which the header shows and screens compute with (the dashboard's 五级分类
  // asks by its month), goes with them rather than after the first screen's render: one round trip
  // less before those calls (bench/README.md "First screen"). Not awaited: a screen that needs it
  // waits for it through its query. Imported here, as its contract module brings zod, which the
  // login page does without.
  void import('../../shared/bizdate/api')
    .then(({ bizDateQuery }) => queryClient.prefetchQuery(bizDateQuery))
    .catch(() => undefined);
  const [info, codes] = await Promise.all([fetchUserInfo(), fetchMenuCodes()]);
  if (codes.length === 0) return 'empty';
  generateRoutes(codes);
  useSessionStore.getState().setUser(info, codes);
  queryClient.setQueryData(PROVINCES_QUERY_KEY, await provinces);
  return 'ok';
}
