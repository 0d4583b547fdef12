import { fetchMenuCodes, fetchUserInfo } from '../../features/auth/api';
import { fetchProvinces, PROVINCES_QUERY_KEY } from '../../shared/geo/provinces';
import { useSessionStore } from '../../shared/session/session-store';
import { queryClient } from '../query-client';
import { generateRoutes } from './access-store';

export type SessionLoad = 'ok' | 'empty';

/**
 * SPEC §2.1, roles not loaded yet: user info and the menu-code list are fetched, the routes are
 * generated from the codes, and the province list is fetched. No codes at all = empty permissions.
 */
export async function loadSession(): Promise<SessionLoad> {
  const [info, codes] = await Promise.all([fetchUserInfo(), fetchMenuCodes()]);
  if (codes.length === 0) return 'empty';
  generateRoutes(codes);
  useSessionStore.getState().setUser(info, codes);
  const provinces = await fetchProvinces();
  queryClient.setQueryData(PROVINCES_QUERY_KEY, provinces);
  return 'ok';
}
