/**
 * Visited tabs: a tab per path, added once (a later visit with another query updates its
 * fullPath); closed singly, all others, or all; affixed tabs survive every close. `cached` lists the
 * paths whose page state is kept: every open tab, editors (noCache routes) included, so that a tab
 * switch never loses input (docs/architecture.md "Editors keep their input"); a noCache page is
 * mounted afresh only when it is opened again for another document (KeepAliveOutlet).
 */
export interface TagView {
  path: string;
  fullPath: string;
  title: string;
  affix?: boolean;
  noCache?: boolean;
}

export interface TagsState {
  visited: TagView[];
  cached: string[];
  /** Bumped by Refresh: the page of that path is mounted anew. */
  refresh: Record<string, number>;
}

export type TagsAction =
  | { type: 'add'; view: TagView }
  | { type: 'close'; path: string }
  | { type: 'closeOthers'; path: string }
  | { type: 'closeAll' }
  | { type: 'refresh'; path: string }
  | { type: 'initAffix'; views: TagView[] };

export const initialTagsState: TagsState = { visited: [], cached: [], refresh: {} };

function cache(cached: string[], view: TagView): string[] {
  return cached.includes(view.path) ? cached : [...cached, view.path];
}

export function tagsReducer(state: TagsState, action: TagsAction): TagsState {
  switch (action.type) {
    case 'add': {
      const { view } = action;
      const existing = state.visited.find((v) => v.path === view.path);
      if (existing) {
        if (existing.fullPath === view.fullPath && existing.title === view.title) return state;
        return {
          ...state,
          visited: state.visited.map((v) =>
            v.path === view.path ? { ...v, fullPath: view.fullPath, title: view.title } : v,
          ),
        };
      }
      return { ...state, visited: [...state.visited, view], cached: cache(state.cached, view) };
    }
    case 'initAffix': {
      let next = state;
      for (const view of action.views) {
        if (next.visited.some((v) => v.path === view.path)) continue;
        const affix = { ...view, affix: true };
        next = {
          ...next,
          visited: [affix, ...next.visited.filter((v) => v.path !== view.path)],
          cached: cache(next.cached, affix),
        };
      }
      return next;
    }
    case 'close': {
      const target = state.visited.find((v) => v.path === action.path);
      if (!target || target.affix) return state;
      return {
        ...state,
        visited: state.visited.filter((v) => v.path !== action.path),
        cached: state.cached.filter((p) => p !== action.path),
      };
    }
    case 'closeOthers': {
      const keep = state.visited.filter((v) => v.affix || v.path === action.path);
      const paths = new Set(keep.map((v) => v.path));
      return { ...state, visited: keep, cached: state.cached.filter((p) => paths.has(p)) };
    }
    case 'closeAll': {
      const keep = state.visited.filter((v) => v.affix);
      const paths = new Set(keep.map((v) => v.path));
      return { ...state, visited: keep, cached: state.cached.filter((p) => paths.has(p)), refresh: {} };
    }
    case 'refresh':
      return {
        ...state,
        refresh: { ...state.refresh, [action.path]: (state.refresh[action.path] ?? 0) + 1 },
      };
    default:
      return state;
  }
}

/** Where to go after closing the active tab: the last remaining tab, else home. */
export function nextAfterClose(visited: readonly TagView[], home = '/'): string {
  const last = visited[visited.length - 1];
  return last ? last.fullPath : home;
}
