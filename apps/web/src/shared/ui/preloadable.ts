import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

export type Preloadable<P extends object> = LazyExoticComponent<ComponentType<P>> & {
  /** Fetches and evaluates the chunk now, before anything renders it. */
  preload(): Promise<unknown>;
};

/**
 * React.lazy whose chunk can be fetched ahead of the render: the first screen's chunks download
 * while the session is still loading instead of after it. A failed load is forgotten, so the
 * render tries again.
 */
export function preloadable<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
): Preloadable<P> {
  let loading: Promise<{ default: ComponentType<P> }> | undefined;
  const once = () =>
    (loading ??= load().catch((err: unknown) => {
      loading = undefined;
      throw err;
    }));
  return Object.assign(lazy(once), { preload: once });
}
