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
  const [info, codes] = await Promise.all([fetchUserInfo(), fetchMenuCodes()]);
  if (codes.length === 0) return 'empty';
  generateRoutes(codes);
  useSessionStore.getState().setUser(info, codes);
  queryClient.setQueryData(PROVINCES_QUERY_KEY, await provinces);
  return 'ok';
}
