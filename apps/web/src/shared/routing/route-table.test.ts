import { describe, expect, it } from 'vitest';
import { MANAGEMENT_MENUS, WEBSITE_MENUS, type MenuDef } from '@portal/contract/menus';
import {
  accessiblePaths,
  filterMenus,
  pruneEmptySections,
  findRoute,
  hasPermission,
  ownerPath,
  pathAccess,
  titleChain,
} from './route-table';

const paths = (menus: readonly MenuDef[]): string[] =>
  menus.flatMap((m) => [m.path, ...paths(m.children ?? [])]);

describe('routes generated from menu codes (SPEC §6)', () => {
  it("gives 'admin' the whole table", () => {
    expect(filterMenus(MANAGEMENT_MENUS, ['admin'])).toEqual([...MANAGEMENT_MENUS]);
    expect(paths(filterMenus(WEBSITE_MENUS, ['admin']))).toEqual(paths(WEBSITE_MENUS));
  });

  it('keeps only routes without roles for a user without codes', () => {
    expect(filterMenus(MANAGEMENT_MENUS, [])).toEqual([]);
    const site = paths(filterMenus(WEBSITE_MENUS, []));
    expect(site).toContain('/ec/permit/comp-role-chg'); // no role code: open
    expect(site).not.toContain('/ec/permit/comp'); // ec-permit-comp
    expect(site).not.toContain('/crm'); // crm
    expect(site).not.toContain('/fc/fc');
  });

  it('needs any one matching code, and a permitted parent', () => {
    const route: MenuDef = { code: 'ft-pa-mgr', title: 't', path: '/x' };
    expect(hasPermission(['other', 'ft-pa-mgr'], route)).toBe(true);
    expect(hasPermission(['other'], route)).toBe(false);
    expect(hasPermission([], { title: 'open', path: '/y' })).toBe(true);

    const got = paths(filterMenus(MANAGEMENT_MENUS, ['nothing', 'ft-pa', 'ft-pa-mgr']));
    expect(got).toEqual([
      '/factoring/pa',
      '/factoring/pa/mgr',
      '/factoring/pa/mgr-editor',
      '/factoring/pa/mgr-view',
    ]);
    // the child code alone does not reach through a parent the user lacks
    expect(filterMenus(MANAGEMENT_MENUS, ['ft-pa-mgr'])).toEqual([]);
    // a parent without its children's codes keeps only the open children
    const crm = filterMenus(WEBSITE_MENUS, ['crm']).find((m) => m.path === '/crm');
    expect(paths(crm ? [crm] : [])).toEqual(['/crm', '/crm/frim', '/crm/frim/list', '/crm/frim/frimcheck']);
  });

  it('leaves sections emptied by the filter out of the menus', () => {
    const menus = pruneEmptySections(filterMenus(WEBSITE_MENUS, []));
    expect(paths(menus)).toEqual([
      '/ec',
      '/ec/permit',
      '/ec/permit/comp-role-chg',
      '/ec/permit/comp-role-chg-editor',
      '/ec/permit/comp-role-chg-view',
      '/ec/permit/personal',
    ]);
  });

  it('knows which paths are public, permitted, forbidden or unknown, tab sub-routes included', () => {
    const allowed = accessiblePaths(['ft-pa', 'ft-pa-mgr']);
    expect(allowed.has('/factoring/pa/mgr-editor/basic-info')).toBe(true);
    expect(pathAccess('/factoring/pa/mgr', allowed)).toBe('permitted');
    expect(pathAccess('/factoring/pa/mgr/', allowed)).toBe('permitted');
    expect(pathAccess('/permission/role', allowed)).toBe('forbidden');
    expect(pathAccess('/dashboard', allowed)).toBe('public');
    expect(pathAccess('/nowhere', allowed)).toBe('unknown');
  });

  it('carries the route metadata: title, roles, hidden, noCache, affix, layout', () => {
    expect(findRoute('/dashboard')).toMatchObject({ title: '工作', affix: true, layout: 'management' });
    expect(findRoute('/factoring/contract/info-editor')).toMatchObject({
      hidden: true,
      noCache: true,
      roles: ['ft-contract-info'],
    });
    expect(findRoute('/crm/corporation/edit/role')).toMatchObject({
      tabOf: '/crm/corporation/edit',
      tabTitle: '企业角色',
      layout: 'website',
    });
    expect(findRoute('/crm/corporation/edit')?.redirect).toBe('/crm/corporation/edit/corporation');
    expect(titleChain('/factoring/contract/info')).toEqual(['合同管理', '合同信息']);
  });

  it('matches hidden pages to their list by last path segment', () => {
    expect(ownerPath('/factoring/contract/info-editor')).toBe('/factoring/contract/info');
    expect(ownerPath('/factoring/accounts/paid-red-view')).toBe('/factoring/accounts/paid-red');
    expect(ownerPath('/factoring/accounts/paid-view')).toBe('/factoring/accounts/paid');
    expect(ownerPath('/crm/corporation/manager-add')).toBe('/crm/corporation/manager');
    expect(ownerPath('/crm/corporation/edit/account')).toBe('/crm/corporation/list');
    expect(ownerPath('/factoring/contract/info')).toBe('/factoring/contract/info');
  });
});
