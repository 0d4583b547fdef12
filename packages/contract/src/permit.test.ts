import { describe, expect, it } from 'vitest';
import { ALL_CODES, WEBSITE_MENUS, type MenuDef } from './menus';
import {
  custSaveSchema,
  judgeOf,
  PERMIT_AREA_MENU,
  PERMIT_AREAS,
  PERMIT_CHG_MENU,
  PERMIT_USER_MENU,
  permitDict,
  roleNames,
  setRoleSchema,
  unknownRole,
} from './permit';

const paths = (nodes: readonly MenuDef[]): string[] =>
  nodes.flatMap((n) => [n.path, ...paths(n.children ?? [])]);

describe('admission contract', () => {
  it('maps each area and subject to the judge of its list (SPEC §2.4)', () => {
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
    expect(ALL_CODES.has(`${PERMIT_USER_MENU}:open`)).toBe(true);
    expect(ALL_CODES.has(`${PERMIT_CHG_MENU}:setRole`)).toBe(true);
  });

  it('has per-area role dictionaries in the SPEC §3 item shape', () => {
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
    expect(s.success && s.data.reason).toBe(undefined);
  });
});
