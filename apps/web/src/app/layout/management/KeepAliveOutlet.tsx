import { Activity, Suspense, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import {
  UNSAFE_LocationContext,
  useLocation,
  useNavigationType,
  useOutlet,
  type Location,
} from 'react-router';
import { findRoute, normalizePath } from '../../../shared/routing/route-table';
import { useTagsStore } from '../../tags-view/tags-store';
import { PageLoading } from '../common/PageLoading';

interface Entry {
  path: string;
  element: ReactNode;
  location: Location;
  /** Bumped when a noCache page is opened again for another document: mounted afresh. */
  mount: number;
}

/**
 * Per-tab page state (docs/architecture.md "Editors keep their input"): the page of every visited tab stays
 * mounted inside React 19's `<Activity>`; hidden pages keep their state (form input, filters) but
 * run no effects and see the location they were left at. Editors (noCache routes) are kept too, so a
 * tab switch loses no input (docs/architecture.md "Editors keep their input"), but are mounted
 * afresh when their tab is entered again with another query (another document); Refresh remounts
 * one page; a closed tab releases its page. Window scroll is kept per tab.
 */
export function KeepAliveOutlet() {
  const outlet = useOutlet();
  const location = useLocation();
  const navigationType = useNavigationType();
  const path = normalizePath(location.pathname);
  const meta = findRoute(path);
  const cacheable = !!meta;
  const cached = useTagsStore((s) => s.cached);
  const refresh = useTagsStore((s) => s.refresh);
  const [entries, setEntries] = useState<Entry[]>([]);
  const [shown, setShown] = useState(path);
  const entering = shown !== path;
  if (entering) setShown(path);

  // Derive the kept pages from the tabs during render (React's "adjust state while rendering").
  const kept = entries.filter((e) => e.path === path || cached.includes(e.path));
  const current = kept.find((e) => e.path === path);
  let next = kept;
  if (cacheable && !current) next = [...kept, { path, element: outlet, location, mount: 0 }];
  else if (!cacheable && current) next = kept.filter((e) => e.path !== path);
  else if (current && current.location !== location) {
    // An editor entered from another tab for another document starts afresh; its own navigation
    // (the URL it sets after a save) keeps it.
    const fresh = entering && !!meta?.noCache && current.location.search !== location.search;
    next = kept.map((e) =>
      e.path !== path
        ? e
        : fresh
          ? { path, element: outlet, location, mount: e.mount + 1 }
          : { ...e, location },
    );
  }
  if (next.length !== entries.length || next.some((e, i) => e !== entries[i])) setEntries(next);

  // Window scroll per tab: remember where a page was left, restore it when it shows again.
  const scrolls = useRef(new Map<string, number>());
  const previous = useRef(path);
  useLayoutEffect(() => {
    if (previous.current === path) return;
    scrolls.current.set(previous.current, window.scrollY);
    previous.current = path;
    window.scrollTo(0, scrolls.current.get(path) ?? 0);
  }, [path]);

  return (
    <>
      {next.map((e) => {
        const active = e.path === path;
        return (
          <Activity key={`${e.path}#${refresh[e.path] ?? 0}#${e.mount}`} mode={active ? 'visible' : 'hidden'}>
            <UNSAFE_LocationContext.Provider
              value={{ location: active ? location : e.location, navigationType }}
            >
              <div className="keep-alive-page" data-page-path={e.path}>
                <Suspense fallback={<PageLoading />}>{active ? outlet : e.element}</Suspense>
              </div>
            </UNSAFE_LocationContext.Provider>
          </Activity>
        );
      })}
      {cacheable ? null : (
        <div key={`${path}#${refresh[path] ?? 0}`} className="keep-alive-page" data-page-path={path}>
          <Suspense fallback={<PageLoading />}>{outlet}</Suspense>
        </div>
      )}
    </>
  );
}
