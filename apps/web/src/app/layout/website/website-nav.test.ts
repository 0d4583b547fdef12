import { describe, expect, it } from 'vitest';
import { WEBSITE_MENUS } from '@portal/contract/menus';
import { backTarget, detailTabs, sectionOf, sidebarMenus, splitHeaderMenu } from './website-nav';

describe('website layout navigation', () => {
  it('keeps the first 2 header items and folds the rest', () => {
    expect(splitHeaderMenu(['crm', 'ec', 'fc', 'dw'])).toEqual({
      shown: ['crm', 'ec'],
      folded: ['fc', 'dw'],
    });
    expect(splitHeaderMenu(['crm'])).toEqual({ shown: ['crm'], folded: [] });
  });

  it('derives the left sidebar from the path, hidden without children', () => {
    expect(sectionOf('/crm/corporation/list', WEBSITE_MENUS)?.path).toBe('/crm');
    expect(sidebarMenus('/crm/corporation/list', WEBSITE_MENUS)?.map((m) => m.title)).toEqual([
      '企业管理',
      '企业用户',
    ]);
    expect(sidebarMenus('/fc/fc', [{ title: '银企链', path: '/fc', children: [] }])).toBeNull();
    expect(sidebarMenus('/nowhere', WEBSITE_MENUS)).toBeNull();
  });

  it('shows the 查看详情 tabs of a detail route, active by last path segment', () => {
    const t = detailTabs('/crm/corporation/view/approval');
    expect(t?.detail.path).toBe('/crm/corporation/view');
    expect(t?.active).toBe('approval');
    expect(t?.detail.tabs?.map((x) => x.title)).toContain('审核信息');
    expect(detailTabs('/crm/corporation/list')).toBeNull();
  });

  it('goes back by judge to the permit list of the area, else emits the back event', () => {
    expect(backTarget('comp')).toBe('/ec/permit/comp');
    expect(backTarget('personal')).toBe('/ec/permit/personal');
    expect(backTarget('dwComp')).toBe('/dw/permit/comp');
    expect(backTarget('dwPersonal')).toBe('/dw/permit/personal');
    expect(backTarget(null)).toBeNull();
    expect(backTarget('other')).toBeNull();
  });
});
