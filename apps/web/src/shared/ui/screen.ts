import type { ComponentType } from 'react';
import type { RouteMeta } from '../routing/route-table';
import { preloadable, type Preloadable } from './preloadable';

/** What every screen registered in src/app/screens.tsx receives. */
export interface ScreenProps {
  meta: RouteMeta;
}

export type ScreenComponent = ComponentType<ScreenProps>;

export type LazyScreen = Preloadable<ScreenProps>;

/** A screen whose chunk loads on first render, or earlier through `preload()`. */
export const lazyScreen = (load: () => Promise<{ default: ScreenComponent }>): LazyScreen =>
  preloadable(load);
