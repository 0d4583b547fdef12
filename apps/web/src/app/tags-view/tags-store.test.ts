import { afterEach, describe, expect, it, vi } from 'vitest';
import { ROUTE_TABLE } from '../../shared/routing/route-table';

const screens = [...ROUTE_TABLE.values()].filter(
  (r) => r.layout === 'management' && !r.affix && !r.redirect && !r.isPublic && !r.path.includes(':'),
);

afterEach(() => {
  sessionStorage.clear();
  vi.resetModules();
});

describe('open tabs over a reload (F5)', () => {
  it('opens again the tabs that were open, in order, with their query', async () => {
    const [a, b] = screens;
    const first = await import('./tags-store');
    first.trackVisitedTag({ pathname: a!.path, search: '?x=1' });
    first.trackVisitedTag({ pathname: b!.path, search: '' });
    // The page reloads: the module starts anew from what the browser tab kept.
    vi.resetModules();
    const reloaded = await import('./tags-store');
    const paths = reloaded.useTagsStore
      .getState()
      .visited.filter((v) => !v.affix)
      .map((v) => v.fullPath);
    expect(paths).toEqual([`${a!.path}?x=1`, b!.path]);
  });

  it('drops an address that is no longer a tab, and keeps nothing after 关闭所有', async () => {
    sessionStorage.setItem('portal:open-tabs', JSON.stringify(['/no/such/screen', screens[0]!.path]));
    const store = await import('./tags-store');
    expect(
      store.useTagsStore
        .getState()
        .visited.filter((v) => !v.affix)
        .map((v) => v.path),
    ).toEqual([screens[0]!.path]);
    store.dispatchTags({ type: 'closeAll' });
    expect(JSON.parse(sessionStorage.getItem(store.TAGS_STORAGE_KEY)!)).toEqual([]);
  });
});
