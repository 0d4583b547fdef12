import type { ComponentType } from 'react';
import type { RouteMeta } from '../routing/route-table';

/** What every screen registered in src/app/screens.tsx receives. */
export interface ScreenProps {
  meta: RouteMeta;
}

export type ScreenComponent = ComponentType<ScreenProps>;
