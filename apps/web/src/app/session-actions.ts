import { logoutCall } from '../features/auth/api';
import { clearUnsaved } from '../shared/editor/unsaved';
import { clearListConditions } from '../shared/list/list-condition';
import { useSessionStore } from '../shared/session/session-store';
import { queryClient } from './query-client';
import { resetRoutes } from './router/access-store';
import { dispatchTags } from './tags-view/tags-store';

/** Everything a signed-out browser must forget: token, roles, generated routes, tabs, caches. */
export function clearClientSession(): void {
  useSessionStore.getState().resetSession();
  resetRoutes();
  dispatchTags({ type: 'closeAll' });
  clearListConditions();
  clearUnsaved();
  queryClient.clear();
}

/** 退出登录: the server session is revoked, tokens and roles cleared, all tabs closed. */
export async function logout(): Promise<void> {
  await logoutCall();
  clearClientSession();
}
