import { create } from 'zustand';
import { findRoute, normalizePath, ROUTE_TABLE } from '../../shared/routing/route-table';
import { initialTagsState, tagsReducer, type TagView, type TagsAction, type TagsState } from './tags-reducer';

const affixViews: TagView[] = [...ROUTE_TABLE.values()]
  .filter((r) => r.affix)
  .map((r) => ({ path: r.path, fullPath: r.path, title: r.title, affix: true }));

export const useTagsStore = create<TagsState & { dispatch(action: TagsAction): void }>()((set) => ({
  ...tagsReducer(initialTagsState, { type: 'initAffix', views: affixViews }),
  dispatch: (action) => set((s) => tagsReducer(s, action)),
}));

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
