import Fuse, { type IFuseOptions } from 'fuse.js';
import type { MenuDef } from '@portal/contract/menus';

/** Fuzzy route search (docs/architecture.md "Layouts and their numbers"), threshold 0.4, title weight 0.7, path weight 0.3. */
export interface SearchItem {
  path: string;
  /** Title chain, outermost first (合同管理 > 合同信息). */
  title: string[];
}

export const ROUTE_SEARCH_OPTIONS: IFuseOptions<SearchItem> = {
  shouldSort: true,
  threshold: 0.4,
  location: 0,
  distance: 100,
  minMatchCharLength: 1,
  keys: [
    { name: 'title', weight: 0.7 },
    { name: 'path', weight: 0.3 },
  ],
};

/** The routes the user may see: visible menu entries with a screen (sections with children excluded). */
export function buildSearchPool(menus: readonly MenuDef[], prefixTitles: string[] = []): SearchItem[] {
  const pool: SearchItem[] = [];
  for (const m of menus) {
    if (m.hidden) continue;
    const title = [...prefixTitles, m.title];
    const visibleChildren = (m.children ?? []).filter((c) => !c.hidden);
    if (visibleChildren.length === 0 && !m.redirect) pool.push({ path: m.path, title });
    if (m.children) pool.push(...buildSearchPool(m.children, title));
  }
  return pool;
}

export function createRouteSearcher(pool: readonly SearchItem[]): (query: string) => SearchItem[] {
  const fuse = new Fuse([...pool], ROUTE_SEARCH_OPTIONS);
  return (query) => (query.trim() ? fuse.search(query.trim()).map((r) => r.item) : []);
}
