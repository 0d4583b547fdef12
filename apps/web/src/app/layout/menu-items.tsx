import type { ReactNode } from 'react';
import type { MenuProps } from 'antd';
import {
  AccountBookOutlined,
  AppstoreOutlined,
  AuditOutlined,
  BankOutlined,
  DashboardOutlined,
  FileTextOutlined,
  LinkOutlined,
  SafetyCertificateOutlined,
  SettingOutlined,
  TeamOutlined,
  WalletOutlined,
} from '@ant-design/icons';
import type { MenuDef } from '@portal/contract/menus';
import { findRoute, HOME_PATH, ownerPath } from '../../shared/routing/route-table';

type MenuItem = Required<MenuProps>['items'][number];

const ICONS: Record<string, ReactNode> = {
  [HOME_PATH]: <DashboardOutlined />,
  '/factoring/contract': <FileTextOutlined />,
  '/factoring/pa': <WalletOutlined />,
  '/factoring/accounts': <AccountBookOutlined />,
  '/factoring/credit': <SafetyCertificateOutlined />,
  '/factoring/config': <SettingOutlined />,
  '/permission': <TeamOutlined />,
  '/crm': <BankOutlined />,
  '/ec': <AuditOutlined />,
  '/fc': <LinkOutlined />,
  '/dw': <AppstoreOutlined />,
};

export const HOME_MENU: MenuDef = { title: '工作', path: HOME_PATH };

export function visibleChildren(menu: MenuDef): MenuDef[] {
  return (menu.children ?? []).filter((c) => !c.hidden);
}

/** antd Menu items of a menu tree (hidden routes left out); `leafOnly` renders sections as links. */
export function toMenuItems(
  menus: readonly MenuDef[],
  opts: { leafOnly?: (m: MenuDef) => boolean; depth?: number } = {},
): MenuItem[] {
  const depth = opts.depth ?? 0;
  const items: MenuItem[] = [];
  for (const m of menus) {
    if (m.hidden) continue;
    const icon = depth === 0 ? ICONS[m.path] : undefined;
    const children = visibleChildren(m);
    if (children.length > 0 && !opts.leafOnly?.(m)) {
      items.push({
        key: m.path,
        icon,
        label: m.title,
        children: toMenuItems(children, { ...opts, depth: depth + 1 }),
      });
    } else {
      items.push({ key: m.path, icon, label: m.title });
    }
  }
  return items;
}

/** The menu entry to highlight for a path: hidden detail pages highlight the list they belong to. */
export function selectedMenuPath(path: string): string {
  return ownerPath(path);
}

/** Ancestor paths of a route, for the open submenus. */
export function openMenuPaths(path: string): string[] {
  return [...(findRoute(ownerPath(path))?.ancestors ?? [])];
}

/** The top-level section of a path (topbar mode highlights it and shows its children aside). */
export function topSectionOf(path: string, tops: readonly MenuDef[]): MenuDef | undefined {
  return tops.find((t) => path === t.path || path.startsWith(`${t.path}/`));
}

/** Where a click on a section goes: its redirect, else its first visible child, else itself. */
export function landingPath(menu: MenuDef): string {
  if (menu.redirect) return menu.redirect;
  const first = visibleChildren(menu)[0];
  return first ? landingPath(first) : menu.path;
}

/** The top-level entries only (topbar mode), with their icons. */
export function topMenuItems(menus: readonly MenuDef[]): MenuItem[] {
  return menus.filter((m) => !m.hidden).map((m) => ({ key: m.path, icon: ICONS[m.path], label: m.title }));
}
