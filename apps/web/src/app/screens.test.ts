import { describe, expect, it } from 'vitest';
import { ROUTE_TABLE } from '../shared/routing/route-table';
import { SCREENS } from './screens';

describe('screens', () => {
  it('gives every route of the menu catalogue a screen of its own (no 功能建设中 left)', () => {
    const missing = [...ROUTE_TABLE.values()]
      .filter((meta) => !meta.isPublic && !meta.redirect && !SCREENS[meta.path])
      .map((meta) => meta.path);
    expect(missing).toEqual([]);
  });
});
