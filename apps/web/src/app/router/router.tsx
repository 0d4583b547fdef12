import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { createBrowserRouter, Navigate, Outlet, useLocation, type RouteObject } from 'react-router';
import { APP_TITLE } from '../../shared/config/runtime';
import { setSessionExpiredHandler } from '../../shared/request/http';
import { LOADING_TEXT } from '../../shared/request/loading-store';
import { findRoute, HOME_PATH, ROUTE_TABLE, type RouteMeta } from '../../shared/routing/route-table';
import { PageLoading } from '../layout/common/PageLoading';
import { AntdShell, ManagementLayout, WebsiteLayout } from '../layout/layouts';
import { screenFor } from '../screens';
import { clearClientSession } from '../session-actions';
import { trackVisitedTag } from '../tags-view/tags-store';
import { loginRedirect } from './guard';
import { guardLoader } from './guard-loader';

const LoginPage = lazy(() => import('../../features/auth/LoginPage'));
const AuthRedirectPage = lazy(() => import('../pages/AuthRedirectPage'));
const NotFoundPage = lazy(() => import('../pages/NotFoundPage'));
const UnauthorizedPage = lazy(() => import('../pages/UnauthorizedPage'));
const PreviewHtmlPage = lazy(() => import('../pages/PreviewHtmlPage'));

/** While the guard runs: our own spinner, so that the login path needs no antd (boot.css). */
function BootScreen() {
  return (
    <div className="boot-screen" role="status">
      <span className="portal-spinner" />
      <span>{LOADING_TEXT}</span>
    </div>
  );
}

function Page({ children }: { children: ReactNode }) {
  return <Suspense fallback={<PageLoading />}>{children}</Suspense>;
}

/** A screen of the menu catalogue: the lazy component registered in screens.tsx, given its meta. */
function Screen({ meta }: { meta: RouteMeta }) {
  const Component = screenFor(meta.path);
  return <Component meta={meta} />;
}

function KeepSearchRedirect({ to }: { to: string }) {
  const { search } = useLocation();
  return <Navigate to={`${to}${search}`} replace />;
}

/** Document title from the route (docs/architecture.md "The web shell"). */
function RootShell() {
  const { pathname } = useLocation();
  useEffect(() => {
    const meta = findRoute(pathname);
    document.title = meta ? `${meta.tabTitle ?? meta.title} - ${APP_TITLE}` : APP_TITLE;
  }, [pathname]);
  return <Outlet />;
}

// Shown only when a route fails: loaded then, so antd's Result stays out of the first chunk.
const RouteError = lazy(() => import('./RouteError'));

function routeFor(meta: RouteMeta): RouteObject {
  return {
    path: meta.path,
    handle: { meta },
    element: meta.redirect ? <KeepSearchRedirect to={meta.redirect} /> : <Screen meta={meta} />,
  };
}

export function buildRoutes(): RouteObject[] {
  const management: RouteObject[] = [];
  const website: RouteObject[] = [];
  for (const meta of ROUTE_TABLE.values()) {
    if (meta.isPublic) continue;
    (meta.layout === 'website' ? website : management).push(routeFor(meta));
  }
  const dashboard = ROUTE_TABLE.get(HOME_PATH)!;
  return [
    {
      id: 'root',
      loader: guardLoader,
      shouldRevalidate: () => true,
      HydrateFallback: BootScreen,
      errorElement: (
        <Suspense fallback={null}>
          <AntdShell>
            <RouteError />
          </AntdShell>
        </Suspense>
      ),
      element: <RootShell />,
      children: [
        {
          path: '/login',
          element: (
            <Page>
              <LoginPage />
            </Page>
          ),
        },
        {
          element: (
            <Page>
              <AntdShell />
            </Page>
          ),
          children: [
            {
              path: '/auth-redirect',
              element: (
                <Page>
                  <AuthRedirectPage />
                </Page>
              ),
            },
            {
              path: '/404',
              element: (
                <Page>
                  <NotFoundPage />
                </Page>
              ),
            },
            {
              path: '/401',
              element: (
                <Page>
                  <UnauthorizedPage />
                </Page>
              ),
            },
            {
              path: '/preview-html',
              element: (
                <Page>
                  <PreviewHtmlPage />
                </Page>
              ),
            },
            { path: '/', element: <Navigate to={HOME_PATH} replace /> },
            {
              element: (
                <Page>
                  <ManagementLayout />
                </Page>
              ),
              children: [routeFor(dashboard), ...management],
            },
            {
              element: (
                <Page>
                  <WebsiteLayout />
                </Page>
              ),
              children: website,
            },
          ],
        },
        { path: '*', element: <Navigate to="/404" replace /> },
      ],
    },
  ];
}

export const router = createBrowserRouter(buildRoutes());

// Every completed navigation adds its tab (once per path), even when navigations overlap.
router.subscribe((state) => {
  if (state.navigation.state === 'idle') trackVisitedTag(state.location);
});

// Status 403: tokens cleared, tabs closed, to /login with the way back.
setSessionExpiredHandler(() => {
  clearClientSession();
  const { pathname, search } = router.state.location;
  if (pathname === '/login') return;
  void router.navigate(loginRedirect(`${pathname}${search}`), { replace: true });
});
