import { create } from 'zustand';
import { RELEASE_PAGE_EVENT } from '../../shared/editor/unsaved';
import { findRoute, normalizePath, ROUTE_TABLE } from '../../shared/routing/route-table';
import { initialTagsState, tagsReducer, type TagView, type TagsAction, type TagsState } from './tags-reducer';

const affixViews: TagView[] = [...ROUTE_TABLE.values()]
  .filter((r) => r.affix)
  .map((r) => ({ path: r.path, fullPath: r.path, title: r.title, affix: true }));

/**
 * The open tabs survive a reload (F5) of this browser tab: their addresses are kept in
 * sessionStorage and opened again, in order, when the app starts; a path no longer a tab (a route
 * removed, a page of another layout) is dropped. 退出登录 closes them all (session-actions.ts).
 */
export const TAGS_STORAGE_KEY = 'portal:open-tabs';

function storedTabs(): TagView[] {
  try {
    const raw: unknown = JSON.parse(sessionStorage.getItem(TAGS_STORAGE_KEY) ?? '[]');
    if (!Array.isArray(raw)) return [];
    return raw.flatMap((fullPath) => {
      if (typeof fullPath !== 'string' || !fullPath.startsWith('/')) return [];
      const q = fullPath.indexOf('?');
      const view = tagForLocation(q < 0 ? fullPath : fullPath.slice(0, q), q < 0 ? '' : fullPath.slice(q));
      return view ? [view] : [];
    });
  } catch {
    return [];
  }
}

function startingTabs(): TagsState {
  let state = tagsReducer(initialTagsState, { type: 'initAffix', views: affixViews });
  for (const view of storedTabs()) state = tagsReducer(state, { type: 'add', view });
  return state;
}

export const useTagsStore = create<TagsState & { dispatch(action: TagsAction): void }>()((set) => ({
  ...startingTabs(),
  dispatch: (action) => set((s) => tagsReducer(s, action)),
}));

useTagsStore.subscribe((s, before) => {
  if (s.visited === before.visited) return;
  try {
    const open = s.visited.filter((v) => !v.affix).map((v) => v.fullPath);
    sessionStorage.setItem(TAGS_STORAGE_KEY, JSON.stringify(open));
  } catch {
    // storage full or refused: the tabs are simply not kept over a reload
  }
});

export function dispatchTags(action: TagsAction): void {
  useTagsStore.getState().dispatch(action);
}

/** The tab of a location: management-layout screens only (not the login, error or website pages). */
export function tagForLocation(pathname: string, search: string): TagView | null {
  const path = normalizePath(pathname);
  const meta = findRoute(path);
  if (!meta || meta.redirect || meta.layout !== 'management' || (meta.isPublic && !meta.affix)) return null;
  return {
    path,
    fullPath: `${path}${search}`,
    title: meta.tabTitle ? `${meta.title}-${meta.tabTitle}` : meta.title,
    noCache: meta.noCache,
    affix: meta.affix,
  };
}

/** Called for every completed navigation (the router's subscription): adds the tab once per path. */
export function trackVisitedTag(location: { pathname: string; search: string }): void {
  const view = tagForLocation(location.pathname, location.search);
  if (view) dispatchTags({ type: 'add', view });
}

// An editor left with its input given up (its 返回) lets its page go: its tab closes.
if (typeof window !== 'undefined') {
  window.addEventListener(RELEASE_PAGE_EVENT, (e) => {
    const { path } = (e as CustomEvent<{ path: string }>).detail;
    dispatchTags({ type: 'close', path: normalizePath(path) });
  });
}
