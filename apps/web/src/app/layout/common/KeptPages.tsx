import { Activity, Suspense, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import {
  UNSAFE_LocationContext,
  useBlocker,
  useLocation,
  useNavigationType,
  useOutlet,
  type Location,
} from 'react-router';
import { findRoute, normalizePath } from '../../../shared/routing/route-table';
import { confirmDiscard, isDirty } from '../../../shared/editor/unsaved';
import { PageLoading } from './PageLoading';

interface Entry {
  path: string;
  element: ReactNode;
  location: Location;
  /** Bumped when a page is entered again for another document: mounted afresh. */
  mount: number;
}

export interface KeepRule {
  /** Does the page `kept` (its path and the location it was left at) stay mounted while `at` shows? */
  keeps: (kept: { path: string; location: Location }, at: Location) => boolean;
  /** Is `path` mounted afresh when it is entered from another page with another query? */
  freshOnEntry: (path: string) => boolean;
}

/**
 * The pages of a layout's outlet, kept mounted by the layout's rule (docs/architecture.md
 * "Editors keep their input"): each inside React 19's `<Activity>`, the hidden ones keeping their
 * state (form input, filters) but running no effects and seeing the location they were left at.
 * The management layout keeps the page of every open tab, the website layout the tabs of the
 * record on screen. Refresh (`refresh`) remounts one page. Window scroll is kept per page.
 *
 * The one guard of typed input when leaving: a navigation that would let go of a page holding
 * unsaved input (shared/editor/unsaved.ts), or mount it afresh for another document, asks first.
 */
export function KeptPages({ rule, refresh = {} }: { rule: KeepRule; refresh?: Record<string, number> }) {
  const outlet = useOutlet();
  const location = useLocation();
  const navigationType = useNavigationType();
  const path = normalizePath(location.pathname);
  const cacheable = !!findRoute(path);
  const [entries, setEntries] = useState<Entry[]>([]);
  const [shown, setShown] = useState(path);
  const entering = shown !== path;
  if (entering) setShown(path);

  // Derive the kept pages during render (React's "adjust state while rendering").
  const kept = entries.filter((e) => e.path === path || rule.keeps(e, location));
  const current = kept.find((e) => e.path === path);
  let next = kept;
  if (cacheable && !current) next = [...kept, { path, element: outlet, location, mount: 0 }];
  else if (!cacheable && current) next = kept.filter((e) => e.path !== path);
  else if (current && current.location !== location) {
    // A page entered from another one for another document starts afresh; its own navigation
    // (the URL it sets after a save) keeps it.
    const fresh = entering && rule.freshOnEntry(path) && current.location.search !== location.search;
    next = kept.map((e) =>
      e.path !== path
        ? e
        : fresh
          ? { path, element: outlet, location, mount: e.mount + 1 }
          : { ...e, location },
    );
  }
  if (next.length !== entries.length || next.some((e, i) => e !== entries[i])) setEntries(next);

  // The pages a navigation from `from` to `to` lets go of (or mounts afresh).
  const released = (from: Location, to: Location): string[] => {
    const toPath = normalizePath(to.pathname);
    if (toPath === normalizePath(from.pathname)) return [];
    return next
      .filter(
        (e) =>
          !rule.keeps(e, to) ||
          (e.path === toPath && rule.freshOnEntry(toPath) && e.location.search !== to.search),
      )
      .map((e) => e.path);
  };
  const blocker = useBlocker(({ currentLocation, nextLocation }) =>
    released(currentLocation, nextLocation).some(isDirty),
  );
  const asking = useRef(false);
  useEffect(() => {
    if (blocker.state !== 'blocked' || asking.current) return;
    asking.current = true;
    void confirmDiscard(released(location, blocker.location)).then((ok) => {
      asking.current = false;
      if (ok) blocker.proceed();
      else blocker.reset();
    });
    // `released` reads this render's pages, as the blocker did.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [blocker]);

  // Window scroll per page: remember where a page was left, restore it when it shows again.
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
