import { redirect, type LoaderFunctionArgs } from 'react-router';
import { getToken } from '../../shared/auth/token';
import { getRuntimeConfig } from '../../shared/config/runtime';
import { trackRouteForListCondition } from '../../shared/list/list-condition';
import { ensureRsaKey, hasRsaKey } from '../../shared/request/envelope-keys';
import { notifyError, showError } from '../../shared/ui/feedback-lazy';
import {
  findMenu,
  findRoute,
  landingPath,
  normalizePath,
  pathAccess,
} from '../../shared/routing/route-table';
import { useSessionStore } from '../../shared/session/session-store';
import { logout, clearClientSession } from '../session-actions';
import { useAccessStore } from './access-store';
import { decideGuard, loginRedirect, OPEN_PATHS, type GuardAction } from './guard';
import { isEmbeddedWithHiddenHeader } from './frame';
import { loadSession } from './load-session';
import { prefetchScreenData, preloadScreen } from '../screens';

/**
 * Empty permissions (docs/architecture.md "The web shell"): error 权限为空！ for 5 s, logout, redirect after 2 s.
 */
export const EMPTY_PERMISSION_MESSAGE = '权限为空！';
export const LOGOUT_REDIRECT_MS = 2000;

function decide(path: string, fullPath: string, search: string): GuardAction {
  const sites = getRuntimeConfig();
  return decideGuard({
    path,
    fullPath,
    hasToken: !!getToken(),
    rolesLoaded: useSessionStore.getState().roles !== null && useAccessStore.getState().generated,
    access: (p) => pathAccess(p, useAccessStore.getState().paths),
    frame: isEmbeddedWithHiddenHeader(search),
    sites: { voucher: sites.voucherSite, dw: sites.dwSite },
  });
}

/**
 * Where a route with a redirect leads this user: a menu section to the first page of it the user
 * may see (its static redirect may name one the user lacks), a detail route to its first tab.
 */
function sectionLanding(path: string, redirectTo: string): string {
  const { management, website } = useAccessStore.getState();
  const section = findMenu([...management, ...website], path);
  if (!section?.children) return redirectTo;
  const landing = landingPath(section);
  return landing === path ? '/404' : landing;
}

/** The page is leaving: keep the router waiting instead of rendering this route here. */
const leaving = () => new Promise<never>(() => {});

function fail(err: unknown, fullPath: string): never {
  clearClientSession();
  const text = err instanceof Error && err.message ? err.message : 'Has Error';
  showError(text);
  throw redirect(loginRedirect(fullPath));
}

/**
 * The session guard (docs/architecture.md "The web shell"), run before every navigation as the root route's
 * loader. The decisions are the pure `decideGuard`; this function carries them out.
 */
export async function guardLoader({ request }: LoaderFunctionArgs): Promise<null> {
  const url = new URL(request.url);
  const path = normalizePath(url.pathname);
  const fullPath = `${url.pathname}${url.search}`;
  // The key call goes out first: Chromium opens six connections to the server, and behind the
  // screen's chunks the call the whole page waits on queued for most of a second.
  const rsaKey = hasRsaKey() ? null : ensureRsaKey();
  rsaKey?.catch(() => undefined);
  // Signed in: the screen's chunks download while the key and the session load.
  if (getToken()) preloadScreen(path);

  // Without a session nothing here needs the key: the login page renders while it loads, and its
  // submit waits for the same fetch.
  if (rsaKey && getToken()) {
    try {
      await rsaKey;
    } catch (err) {
      if (getToken() && !OPEN_PATHS.includes(path)) fail(err, fullPath);
    }
  }

  let action = decide(path, fullPath, url.search);
  const firstLoad = action.type === 'load-session';
  if (action.type === 'load-session') {
    let result: Awaited<ReturnType<typeof loadSession>>;
    try {
      result = await loadSession();
    } catch (err) {
      fail(err, fullPath);
    }
    if (result === 'empty') {
      notifyError(EMPTY_PERMISSION_MESSAGE, 5);
      await logout();
      // Within the app, not a reload: a reload took the notification with it after 1 s.
      await new Promise((r) => setTimeout(r, LOGOUT_REDIRECT_MS));
      throw redirect('/login');
    }
    action = decide(path, fullPath, url.search);
  }

  switch (action.type) {
    case 'external':
      window.location.replace(action.url);
      return leaving();
    case 'top-window':
      if (window.top) window.top.location.href = action.url;
      return leaving();
    case 'redirect':
      throw redirect(action.to);
    case 'load-session':
      // roles still missing after loading: treat as a failure rather than loop
      return fail(new Error('Has Error'), fullPath);
    case 'allow': {
      const meta = findRoute(path);
      if (meta?.redirect) throw redirect(`${sectionLanding(path, meta.redirect)}${url.search}`);
      trackRouteForListCondition(path);
      // The page's first screen (kept-alive screens refetch on their own terms afterwards).
      if (firstLoad) prefetchScreenData(path, url.search);
      return null;
    }
  }
}
