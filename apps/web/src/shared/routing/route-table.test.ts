import { describe, expect, it } from 'vitest';
import { MANAGEMENT_MENUS, WEBSITE_MENUS, type MenuDef } from '@portal/contract/menus';
import {
  accessiblePaths,
  filterMenus,
  findMenu,
  findRoute,
  landingPath,
  menusFor,
  hasPermission,
  ownerPath,
  pathAccess,
  titleChain,
} from './route-table';

const paths = (menus: readonly MenuDef[]): string[] =>
  menus.flatMap((m) => [m.path, ...paths(m.children ?? [])]);

describe('routes generated from menu codes', () => {
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

  it('leaves out of the menus sections emptied by the filter and open pages serving others’ data', () => {
    // 凭证's open pages serve their data only to holders of their permCodes; the hidden detail
    // pages left alone lead nowhere.
    expect(menusFor(WEBSITE_MENUS, [])).toEqual([]);
    expect(paths(menusFor(WEBSITE_MENUS, ['ec-permit-chg']))).toEqual([
      '/ec',
      '/ec/permit',
      '/ec/permit/comp-role-chg',
      '/ec/permit/comp-role-chg-editor',
      '/ec/permit/comp-role-chg-view',
    ]);
    const crm = paths(menusFor(WEBSITE_MENUS, ['crm', 'crm-cor', 'crm-cor-cor']));
    expect(crm).toContain('/crm/corporation/list');
    expect(crm).not.toContain('/crm/corporation/org'); // crm-cor-org
    expect(crm).not.toContain('/crm/frim'); // its one page needs crm-frim
    expect(paths(menusFor(WEBSITE_MENUS, ['admin']))).toEqual(paths(WEBSITE_MENUS));
  });

  it('lands a section on its redirect when the user has it, else on the first page the user may see', () => {
    const config = (codes: string[]) => findMenu(menusFor(MANAGEMENT_MENUS, codes), '/factoring/config')!;
    expect(landingPath(config(['admin']))).toBe('/factoring/config/company');
    expect(landingPath(config(['ft-config', 'ft-bank', 'ft-print']))).toBe('/factoring/config/bank');
    const ec = findMenu(menusFor(WEBSITE_MENUS, ['ec-permit-personal']), '/ec')!;
    expect(landingPath(ec)).toBe('/ec/permit/personal');
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
