import { describe, expect, it } from 'vitest';
import { WEBSITE_MENUS } from '@portal/contract/menus';
import { findRoute, ownerPath, titleChain } from '../../shared/routing/route-table';
import { recordLink } from './api';
import { PERMIT_SCREENS } from './screens';

const pathOf = (link: string) => link.split('?')[0]!;
const sectionOf = (path: string) => WEBSITE_MENUS.find((s) => path.startsWith(`${s.path}/`))?.title;

describe('the admission record opens under its own section', () => {
  it.each([
    ['ec', 'cust', '凭证', '/ec/permit/comp-role-chg'],
    ['ec', 'user', '凭证', '/ec/permit/comp-role-chg'],
    ['dw', 'cust', '山高E融', '/dw/permit/comp'],
    ['dw', 'user', '山高E融', '/dw/permit/comp'],
    ['fc', 'cust', '银企链', '/fc/fc'],
  ] as const)('%s %s record: header %s, sidebar %s', (area, subject, section, owner) => {
    const path = pathOf(recordLink({ bizCode: '000000000001', subject, area }));
    expect(sectionOf(path)).toBe(section);
    expect(findRoute(path)).toBeTruthy();
    expect(PERMIT_SCREENS[path]).toBeTruthy();
    expect(ownerPath(path)).toBe(owner);
    expect(titleChain(path)[0]).toBe(section);
  });
});
