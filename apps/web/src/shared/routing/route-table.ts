import {
  ADMIN_CODE,
  MANAGEMENT_MENUS,
  WEBSITE_MENUS,
  type Layout,
  type MenuDef,
  type TabDef,
} from '@portal/contract/menus';

/**
 * The route table generated from the menu catalogue of '@portal/contract/menus'
 * plus the public routes (login, 404, the dashboard, previews). Route metadata: roles, hidden,
 * affix, noCache, title.
 */
export interface RouteMeta {
  path: string;
  title: string;
  /** meta.roles: the route's role codes (empty = open to every signed-in user). */
  roles: readonly string[];
  hidden: boolean;
  affix: boolean;
  noCache: boolean;
  layout: Layout;
  redirect?: string;
  /** Detail tabs of a hidden route: each is served at `${path}/${tab.path}`. */
  tabs?: readonly TabDef[];
  /** For a tab sub-route: the detail route it belongs to, and the tab's own title. */
  tabOf?: string;
  tabTitle?: string;
  /** Paths of the menu ancestors, outermost first. */
  ancestors: readonly string[];
  /** true for the public routes (no menu code, never filtered). */
  isPublic: boolean;
}

export const HOME_PATH = '/dashboard';
export const LOGIN_PATH = '/login';

/** Public routes (/ redirects to /dashboard, titled 工作 and pinned). */
const PUBLIC_ROUTES: RouteMeta[] = [
  { path: '/login', title: '登录' },
  { path: '/auth-redirect', title: '登录跳转' },
  { path: '/404', title: '404' },
  { path: '/401', title: '401' },
  { path: '/preview-html', title: 'HTML预览' },
  { path: '/', title: '工作', redirect: HOME_PATH },
  { path: HOME_PATH, title: '工作', affix: true },
].map((r) => ({
  roles: [],
  hidden: r.path !== HOME_PATH,
  affix: false,
  noCache: false,
  layout: 'management' as Layout,
  ancestors: [],
  isPublic: true,
  ...r,
}));

export function normalizePath(path: string): string {
  if (path.length > 1 && path.endsWith('/')) return path.replace(/\/+$/, '') || '/';
  return path || '/';
}

export function routeRoles(menu: MenuDef): string[] {
  return menu.code ? [menu.code] : [];
}

/** A route without roles is open; otherwise any of its roles in the user's codes suffices. */
export function hasPermission(codes: readonly string[], menu: MenuDef): boolean {
  const roles = routeRoles(menu);
  return roles.length === 0 || roles.some((role) => codes.includes(role));
}

/**
 * 'admin' receives the whole async table; anyone else gets the routes filtered by
 * meta.roles, recursively (a child is reachable only through a permitted parent).
 */
export function filterMenus(menus: readonly MenuDef[], codes: readonly string[]): MenuDef[] {
  if (codes.includes(ADMIN_CODE)) return [...menus];
  const out: MenuDef[] = [];
  for (const menu of menus) {
    if (!hasPermission(codes, menu)) continue;
    out.push(menu.children ? { ...menu, children: filterMenus(menu.children, codes) } : menu);
  }
  return out;
}

export function visibleChildren(menu: MenuDef): MenuDef[] {
  return (menu.children ?? []).filter((c) => !c.hidden);
}

/**
 * A route the catalogue leaves without a role stays open, but its data goes only to holders of its
 * `permCode`: to anyone else the menu entry would lead to a screen of 没有该操作的权限 toasts.
 */
function servesData(codes: readonly string[], menu: MenuDef): boolean {
  return !menu.permCode || codes.includes(ADMIN_CODE) || codes.includes(menu.permCode);
}

/**
 * For the menus: a section whose visible children were all filtered away is left out (it leads
 * nowhere: its hidden detail pages open only from a list).
 */
export function pruneEmptySections(menus: readonly MenuDef[], codes: readonly string[] = []): MenuDef[] {
  const out: MenuDef[] = [];
  for (const m of menus) {
    if (!servesData(codes, m)) continue;
    if (!m.children) {
      out.push(m);
      continue;
    }
    const children = pruneEmptySections(m.children, codes);
    if (children.some((c) => !c.hidden)) out.push({ ...m, children });
  }
  return out;
}

/** The menus of a user with these codes: only entries that open a screen serving them data. */
export function menusFor(menus: readonly MenuDef[], codes: readonly string[]): MenuDef[] {
  return pruneEmptySections(filterMenus(menus, codes), codes);
}

/**
 * Where a section of the user's menus leads: its redirect's page when the user has it, else its
 * first visible child (the static redirect may name a page the user lacks: /404). A page leads to
 * itself.
 */
export function landingPath(menu: MenuDef): string {
  const children = visibleChildren(menu);
  const redirect = menu.redirect;
  const preferred = redirect
    ? children.find((c) => c.path === redirect || redirect.startsWith(`${c.path}/`))
    : undefined;
  const next = preferred ?? children[0];
  return next ? landingPath(next) : menu.path;
}

/** The menu entry at `path` in a menu tree. */
export function findMenu(menus: readonly MenuDef[], path: string): MenuDef | undefined {
  for (const m of menus) {
    if (m.path === path) return m;
    const inside = m.children ? findMenu(m.children, path) : undefined;
    if (inside) return inside;
  }
  return undefined;
}

function collect(
  menus: readonly MenuDef[],
  layout: Layout,
  ancestors: string[],
  out: Map<string, RouteMeta>,
): void {
  for (const m of menus) {
    const here = m.layout ?? layout;
    const meta: RouteMeta = {
      path: m.path,
      title: m.title,
      roles: routeRoles(m),
      hidden: !!m.hidden,
      affix: !!m.affix,
      noCache: !!m.noCache,
      layout: here,
      ancestors,
      isPublic: false,
      ...(m.redirect ? { redirect: m.redirect } : {}),
      ...(m.tabs?.length ? { tabs: m.tabs, redirect: `${m.path}/${m.tabs[0]!.path}` } : {}),
    };
    if (!out.has(m.path)) out.set(m.path, meta);
    for (const tab of m.tabs ?? []) {
      const path = `${m.path}/${tab.path}`;
      out.set(path, {
        ...meta,
        path,
        hidden: true,
        tabs: undefined,
        redirect: undefined,
        tabOf: m.path,
        tabTitle: tab.title,
        ancestors: [...ancestors, m.path],
      });
    }
    if (m.children) collect(m.children, here, [...ancestors, m.path], out);
  }
}

function buildTable(): Map<string, RouteMeta> {
  const table = new Map<string, RouteMeta>();
  for (const r of PUBLIC_ROUTES) table.set(r.path, r);
  collect(MANAGEMENT_MENUS, 'management', [], table);
  collect(WEBSITE_MENUS, 'website', [], table);
  return table;
}

/** Every route the product knows (public and access-controlled), by absolute path. */
export const ROUTE_TABLE: ReadonlyMap<string, RouteMeta> = buildTable();

export function findRoute(path: string): RouteMeta | undefined {
  return ROUTE_TABLE.get(normalizePath(path));
}

/** The paths reachable with these menu codes (filtered menus, their tab sub-routes). */
export function accessiblePaths(codes: readonly string[]): Set<string> {
  const paths = new Set<string>();
  const walk = (menus: readonly MenuDef[]) => {
    for (const m of menus) {
      paths.add(m.path);
      for (const tab of m.tabs ?? []) paths.add(`${m.path}/${tab.path}`);
      if (m.children) walk(m.children);
    }
  };
  walk(filterMenus(MANAGEMENT_MENUS, codes));
  walk(filterMenus(WEBSITE_MENUS, codes));
  return paths;
}

export type PathAccess = 'public' | 'permitted' | 'forbidden' | 'unknown';

export function pathAccess(path: string, permitted: ReadonlySet<string>): PathAccess {
  const p = normalizePath(path);
  const meta = ROUTE_TABLE.get(p);
  if (!meta) return 'unknown';
  if (meta.isPublic) return 'public';
  return permitted.has(p) ? 'permitted' : 'forbidden';
}

/** Title chain of a route (ancestors then itself), for breadcrumbs and route search. */
export function titleChain(path: string): string[] {
  const meta = findRoute(path);
  if (!meta) return [];
  const chain = meta.ancestors.map((a) => ROUTE_TABLE.get(a)?.title ?? '').filter(Boolean);
  chain.push(meta.tabOf ? (meta.tabTitle ?? meta.title) : meta.title);
  return chain;
}

/**
 * The list page a route belongs to, matched by last path segment: a hidden editor/view route
 * (`info-editor`, `paid-red-view`, `manager-add`) belongs to the visible sibling whose last segment
 * is the longest prefix of its own; a hidden route without such a sibling (corporation `edit`)
 * to its section's first visible page. Visible routes own themselves.
 */
export function ownerPath(path: string): string {
  const meta = findRoute(path);
  if (!meta) return normalizePath(path);
  const base = meta.tabOf ? findRoute(meta.tabOf) : meta;
  if (!base || !base.hidden || base.isPublic) return base?.path ?? meta.path;
  const parent = base.ancestors[base.ancestors.length - 1];
  const siblings = [...ROUTE_TABLE.values()].filter(
    (r) =>
      !r.hidden &&
      !r.tabOf &&
      r.ancestors[r.ancestors.length - 1] === parent &&
      r.ancestors.length === base.ancestors.length,
  );
  const last = lastSegment(base.path);
  let best: RouteMeta | undefined;
  for (const s of siblings) {
    const seg = lastSegment(s.path);
    if ((last === seg || last.startsWith(`${seg}-`)) && (!best || seg.length > lastSegment(best.path).length))
      best = s;
  }
  return (best ?? siblings[0] ?? base).path;
}

export function lastSegment(path: string): string {
  const parts = normalizePath(path).split('/').filter(Boolean);
  return parts[parts.length - 1] ?? '';
}

export function segmentCount(path: string): number {
  return normalizePath(path).split('/').filter(Boolean).length;
}
