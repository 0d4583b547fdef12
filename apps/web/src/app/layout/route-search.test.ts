import { describe, expect, it } from 'vitest';
import { MANAGEMENT_MENUS, WEBSITE_MENUS } from '@portal/contract/menus';
import { buildSearchPool, createRouteSearcher, ROUTE_SEARCH_OPTIONS } from './route-search';

const pool = buildSearchPool([...MANAGEMENT_MENUS, ...WEBSITE_MENUS]);
const search = createRouteSearcher(pool);

describe('route search (fuse threshold 0.4, title 0.7, path 0.3)', () => {
  it('uses the options of the spec', () => {
    expect(ROUTE_SEARCH_OPTIONS.threshold).toBe(0.4);
    expect(ROUTE_SEARCH_OPTIONS.keys).toEqual([
      { name: 'title', weight: 0.7 },
      { name: 'path', weight: 0.3 },
    ]);
  });

  it('holds visible screens only, with their title chains', () => {
    expect(pool).toContainEqual({ path: '/factoring/contract/info', title: ['合同管理', '合同信息'] });
    expect(pool.some((i) => i.path.endsWith('-editor'))).toBe(false);
    expect(pool.some((i) => i.path === '/factoring/contract')).toBe(false);
  });

  it('ranks an exact title first and finds fuzzy titles', () => {
    expect(search('来款核销')[0]?.path).toBe('/factoring/accounts/paid');
    expect(search('来款核销冲红')[0]?.path).toBe('/factoring/accounts/paid-red');
    expect(search('计息规则')[0]?.path).toBe('/factoring/config/ruler');
    // a title with a typo-like gap still matches
    expect(search('银行帐户').map((i) => i.path)).toContain('/factoring/config/bank');
  });

  it('matches by path too, and finds nothing for noise', () => {
    expect(search('permission/user')[0]?.path).toBe('/permission/user');
    expect(search('zzzzqqqq')).toEqual([]);
    expect(search('  ')).toEqual([]);
  });
});
