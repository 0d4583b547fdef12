import { describe, expect, it } from 'vitest';
import { ALL_CODES, MANAGEMENT_MENUS, WEBSITE_MENUS, button, flattenCatalogue, type MenuDef } from './menus';

describe('menu catalogue', () => {
  it('carries every role code of the product exactly as written', () => {
    for (const code of [
      'crm',
      'crm-cor',
      'crm-cor-cor',
      'crm-cor-cor-e',
      'crm-cor-cor-v',
      'crm-cor-info',
      'crm-cor-bank',
      'crm-cor-mg',
      'ec-permit-comp',
      'fc-fc',
      'dw-permit-comp',
    ]) {
      expect(ALL_CODES.has(code), code).toBe(true);
    }
  });

  it('gives every code one parent and unique paths', () => {
    const entries = flattenCatalogue();
    const codes = entries.map((e) => e.code);
    expect(new Set(codes).size).toBe(codes.length);
    const paths: string[] = [];
    const walk = (nodes: readonly MenuDef[]) =>
      nodes.forEach((n) => (paths.push(n.path), n.children && walk(n.children)));
    walk([...MANAGEMENT_MENUS, ...WEBSITE_MENUS]);
    expect(new Set(paths).size).toBe(paths.length);
    for (const e of entries) if (e.parentCode) expect(ALL_CODES.has(e.parentCode)).toBe(true);
  });

  it('puts the permission code of an open route in the role tree without making it a route role', () => {
    const entries = flattenCatalogue();
    expect(entries.find((e) => e.code === 'ec-permit-personal')).toMatchObject({
      kind: 'menu',
      parentCode: null,
    });
    expect(entries.find((e) => e.code === 'crm-cor-org')).toMatchObject({
      kind: 'menu',
      parentCode: 'crm-cor',
    });
    expect(button('ec-permit-personal', 'open')).toBe('ec-permit-personal:open');
    expect(entries.find((e) => e.code === 'ec-permit-personal:open')).toMatchObject({
      kind: 'button',
      parentCode: 'ec-permit-personal',
    });
    const find = (nodes: readonly MenuDef[]): MenuDef | undefined =>
      nodes.reduce<MenuDef | undefined>(
        (hit, n) => hit ?? (n.path === '/ec/permit/personal' ? n : find(n.children ?? [])),
        undefined,
      );
    expect(find(WEBSITE_MENUS)?.code).toBeUndefined();
  });

  it('names buttons menu:action and refuses unknown ones', () => {
    expect(button('ft-paid', 'rushRed')).toBe('ft-paid:rushRed');
    expect(() => button('ft-paid', 'cfgSave')).toThrow();
  });
});
