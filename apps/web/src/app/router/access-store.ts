import { create } from 'zustand';
import { MANAGEMENT_MENUS, WEBSITE_MENUS, type MenuDef } from '@portal/contract/menus';
import { accessiblePaths, menusFor } from '../../shared/routing/route-table';

/**
 * The routes generated from the user's menu codes (docs/architecture.md "The web shell"; the old portal's
 * addRoutes): menus and paths.
 */
interface AccessState {
  management: MenuDef[];
  website: MenuDef[];
  paths: ReadonlySet<string>;
  generated: boolean;
}

const empty: AccessState = { management: [], website: [], paths: new Set(), generated: false };

export const useAccessStore = create<AccessState>()(() => empty);

export function generateRoutes(codes: readonly string[]): AccessState {
  const state: AccessState = {
    management: menusFor(MANAGEMENT_MENUS, codes),
    website: menusFor(WEBSITE_MENUS, codes),
    paths: accessiblePaths(codes),
    generated: true,
  };
  useAccessStore.setState(state, true);
  return state;
}

export function resetRoutes(): void {
  useAccessStore.setState(empty, true);
}
