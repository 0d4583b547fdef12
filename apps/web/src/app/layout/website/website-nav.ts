import type { MenuDef } from '@portal/contract/menus';
import {
  findRoute,
  lastSegment,
  normalizePath,
  ownerPath,
  visibleChildren,
  type RouteMeta,
} from '../../../shared/routing/route-table';
import type { KeepRule } from '../common/KeptPages';

/** The website header menu shows the first 2 items and folds the rest. */
export const HEADER_MENU_KEEP = 2;

export function splitHeaderMenu<T>(
  items: readonly T[],
  keep = HEADER_MENU_KEEP,
): { shown: T[]; folded: T[] } {
  return { shown: items.slice(0, keep), folded: items.slice(keep) };
}

/** The website section (客户管理, 凭证, …) a path belongs to. */
export function sectionOf(path: string, sections: readonly MenuDef[]): MenuDef | undefined {
  const p = normalizePath(path);
  return sections.find((s) => p === s.path || p.startsWith(`${s.path}/`));
}

/** The left sidebar: the section's visible sub-pages; null (hidden) when it has none. */
export function sidebarMenus(path: string, sections: readonly MenuDef[]): MenuDef[] | null {
  const section = sectionOf(path, sections);
  if (!section) return null;
  const children = visibleChildren(section);
  return children.length > 0 ? children : null;
}

/** The 查看详情 tabs of the current page: a detail route's tabs, the active one by last path segment. */
export function detailTabs(path: string): { detail: RouteMeta; active: string } | null {
  const meta = findRoute(path);
  if (!meta) return null;
  const detail = meta.tabOf ? findRoute(meta.tabOf) : meta.tabs ? meta : undefined;
  if (!detail?.tabs) return null;
  const seg = lastSegment(path);
  const active = detail.tabs.find((t) => t.path === seg)?.path ?? detail.tabs[0]?.path ?? '';
  return { detail, active };
}

/** 返回: by the `judge` query, back to the permit list of the originating area. */
export const BACK_TARGETS: Record<string, string> = {
  comp: '/ec/permit/comp',
  personal: '/ec/permit/personal',
  dwComp: '/dw/permit/comp',
  dwPersonal: '/dw/permit/personal',
};

export function backTarget(judge: string | null): string | null {
  return judge ? (BACK_TARGETS[judge] ?? null) : null;
}

/**
 * 返回 of a detail page (`detailPath`, whatever tab is open): the judge's permit list;
 * else the page the record was opened from (`origin`: path and query of the last page that was not
 * a detail page); else the list the detail route belongs to. Never back through the tabs.
 */
export function backDestination(judge: string | null, origin: string | null, detailPath: string): string {
  return backTarget(judge) ?? origin ?? ownerPath(detailPath);
}

/** Without a known judge, 返回 emits this window event; a screen may cancel it to handle back itself. */
export const WEBSITE_BACK_EVENT = 'portal:website-back';

/**
 * What the website layout keeps mounted (docs/architecture.md "Editors keep their input"): the tab
 * pages of the record on screen, while the user moves among them (the same detail route, the same
 * query). Leaving the record lets them go, asking first when one holds unsaved input.
 */
export const WEBSITE_KEEP: KeepRule = {
  keeps: (kept, at) => {
    const detail = findRoute(kept.path)?.tabOf;
    return (
      !!detail &&
      detail === findRoute(normalizePath(at.pathname))?.tabOf &&
      kept.location.search === at.search
    );
  },
  freshOnEntry: () => true,
};
