import { describe, expect, it } from 'vitest';
import { ALL_CODES, flattenCatalogue, WEBSITE_MENUS, type MenuDef } from './menus';
import {
  custSaveSchema,
  judgeOf,
  PERMIT_AREA_MENU,
  PERMIT_AREAS,
  PERMIT_CHG_MENU,
  compDifQuery,
  permitActionSchema,
  PERMIT_USER_AREA_MENU,
  permitDict,
  roleNames,
  setRoleSchema,
  unknownRole,
  userAreaMenu,
} from './permit';

const paths = (nodes: readonly MenuDef[]): string[] =>
  nodes.flatMap((n) => [n.path, ...paths(n.children ?? [])]);

describe('admission contract', () => {
  it('maps each area and subject to the judge of its list', () => {
    expect(judgeOf('cust', 'ec')).toBe('comp');
    expect(judgeOf('user', 'ec')).toBe('personal');
    expect(judgeOf('cust', 'dw')).toBe('dwComp');
    expect(judgeOf('user', 'dw')).toBe('dwPersonal');
    expect(judgeOf('cust', 'fc')).toBeUndefined();
    // Every judge's list is a route of the catalogue (dwPersonal: the hidden /dw/permit/personal).
    expect(paths(WEBSITE_MENUS)).toEqual(
      expect.arrayContaining([
        '/ec/permit/comp',
        '/ec/permit/personal',
        '/dw/permit/comp',
        '/dw/permit/personal',
      ]),
    );
  });

  it('names only catalogue codes, with the buttons the screens use', () => {
    for (const a of PERMIT_AREAS)
      for (const action of ['add', 'save', 'open', 'disable', 'setRole'])
        expect(ALL_CODES.has(`${PERMIT_AREA_MENU[a]}:${action}`), `${a} ${action}`).toBe(true);
    for (const m of Object.values(PERMIT_USER_AREA_MENU))
      for (const action of ['add', 'save', 'open', 'disable', 'setRole'])
        expect(ALL_CODES.has(`${m}:${action}`), `${m} ${action}`).toBe(true);
    expect(ALL_CODES.has(`${PERMIT_CHG_MENU}:setRole`)).toBe(true);
  });

  it('gives each area with a user screen its own user-admission code; 银企链 has none', () => {
    expect(userAreaMenu('ec')).toBe('ec-permit-personal');
    expect(userAreaMenu('dw')).toBe('dw-permit-personal');
    expect(userAreaMenu('fc')).toBeUndefined();
    const find = (nodes: readonly MenuDef[]): MenuDef | undefined =>
      nodes.reduce<MenuDef | undefined>(
        (hit, n) => hit ?? (n.path === '/dw/permit/personal' ? n : find(n.children ?? [])),
        undefined,
      );
    // The route keeps dw-permit-comp as its role; its calls and buttons are dw-permit-personal's.
    expect(find(WEBSITE_MENUS)).toMatchObject({ code: 'dw-permit-comp', permCode: 'dw-permit-personal' });
    const entries = flattenCatalogue();
    expect(entries.find((e) => e.code === 'dw-permit-personal')).toMatchObject({
      kind: 'menu',
      parentCode: 'dw-permit-comp',
    });
    expect(entries.find((e) => e.code === 'dw-permit-personal:setRole')).toMatchObject({
      kind: 'button',
      parentCode: 'dw-permit-personal',
    });
    // dw-permit-comp keeps its own buttons, once.
    expect(entries.filter((e) => e.code === 'dw-permit-comp:open')).toHaveLength(1);
  });

  it('has per-area role dictionaries as { code, label } items', () => {
    const d = permitDict('cust');
    expect(d.areas.map((a) => a.code)).toEqual(['ec', 'dw', 'fc']);
    expect(d.roles.ec[0]).toEqual({ code: 'issuer', label: '开立方' });
    expect(unknownRole('cust', 'ec', ['issuer', 'bank'])).toBe('bank');
    expect(unknownRole('user', 'fc', ['operator'])).toBeUndefined();
    expect(roleNames('cust', 'fc', ['core', 'member'])).toBe('核心企业、链属企业');
  });

  it('validates with Chinese messages naming the field', () => {
    const r = custSaveSchema.safeParse({ area: 'ec', compCode: '12', roles: [] });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.message)).toEqual(['企业客户必须是12位数字编号', '角色不能为空']);
    const s = setRoleSchema.safeParse({ bizCode: '000000000001', area: 'dw', roles: ['core'], reason: ' ' });
    expect(s.success).toBe(false);
    expect(s.error?.issues.map((i) => i.message)).toEqual(['版本号不能为空']);
    const s2 = setRoleSchema.safeParse({
      bizCode: '000000000001',
      version: 3,
      area: 'dw',
      roles: ['core'],
      reason: ' ',
    });
    expect(s2.success && s2.data.reason).toBe(undefined);
    const a = permitActionSchema.safeParse({ area: 'ec' });
    expect(a.error?.issues.map((i) => i.message)).toEqual(['版本号不能为空']);
    const d = compDifQuery.safeParse({ compDif: '123' });
    expect(d.error?.issues[0]?.message).toMatch(/^统一社会信用代码/);
  });
});
