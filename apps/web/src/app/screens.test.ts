import { describe, expect, it } from 'vitest';
import { CONTRACT_PATHS } from '@portal/contract/contract';
import { ROUTE_TABLE } from '../shared/routing/route-table';
import { SCREEN_LISTS, SCREENS } from './screens';

describe('screens', () => {
  it('gives every route of the menu catalogue a screen of its own (no 功能建设中 left)', () => {
    const missing = [...ROUTE_TABLE.values()]
      .filter((meta) => !meta.isPublic && !meta.redirect && !SCREENS[meta.path])
      .map((meta) => meta.path);
    expect(missing).toEqual([]);
  });

  it('prefetches the list call the screen itself makes', () => {
    expect(SCREEN_LISTS).toEqual({ '/factoring/contract/info': CONTRACT_PATHS.list });
  });
});
