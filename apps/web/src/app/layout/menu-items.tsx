import type { ReactNode } from 'react';
import type { MenuProps } from 'antd';
import {
  AccountBookOutlined,
  ApartmentOutlined,
  AppstoreOutlined,
  AuditOutlined,
  BankOutlined,
  CalculatorOutlined,
  CheckSquareOutlined,
  CloudServerOutlined,
  ClusterOutlined,
  ControlOutlined,
  NotificationOutlined,
  CreditCardOutlined,
  DashboardOutlined,
  DesktopOutlined,
  EditOutlined,
  FileOutlined,
  FileTextOutlined,
  FundProjectionScreenOutlined,
  HistoryOutlined,
  LinkOutlined,
  LoginOutlined,
  PartitionOutlined,
  PrinterOutlined,
  ReconciliationOutlined,
  TableOutlined,
  RollbackOutlined,
  SafetyCertificateOutlined,
  SafetyOutlined,
  SettingOutlined,
  SwapOutlined,
  TeamOutlined,
  TransactionOutlined,
  UserOutlined,
  WalletOutlined,
} from '@ant-design/icons';
import type { MenuDef } from '@portal/contract/menus';
import { findRoute, HOME_PATH, ownerPath, visibleChildren } from '../../shared/routing/route-table';

type MenuItem = Required<MenuProps>['items'][number];

const ICONS: Record<string, ReactNode> = {
  [HOME_PATH]: <DashboardOutlined />,
  '/factoring/contract': <FileTextOutlined />,
  '/factoring/pa': <WalletOutlined />,
  '/factoring/accounts': <AccountBookOutlined />,
  '/factoring/credit': <SafetyCertificateOutlined />,
  '/factoring/config': <SettingOutlined />,
  '/permission': <TeamOutlined />,
  '/monitor': <FundProjectionScreenOutlined />,
  '/system': <SettingOutlined />,
  '/crm': <BankOutlined />,
  '/ec': <AuditOutlined />,
  '/fc': <LinkOutlined />,
  '/dw': <AppstoreOutlined />,
};

/**
 * A collapsed menu shows only icons: without one antd clips the label to its first character
 * (来/来/来/对). Pages shown at the top of a menu (the topbar sidebar lists a section's pages)
 * take their own icon, else their section's.
 */
const PAGE_ICONS: Record<string, ReactNode> = {
  '/factoring/contract/info': <FileTextOutlined />,
  '/factoring/contract/change': <EditOutlined />,
  '/factoring/contract/handover': <SwapOutlined />,
  '/factoring/pa/mgr': <WalletOutlined />,
  '/factoring/accounts/income': <TransactionOutlined />,
  '/factoring/accounts/paid': <CheckSquareOutlined />,
  '/factoring/accounts/paid-red': <RollbackOutlined />,
  '/factoring/accounts/reconcile': <ReconciliationOutlined />,
  '/factoring/accounts/ledger': <TableOutlined />,
  '/factoring/accounts/statement': <AccountBookOutlined />,
  '/factoring/credit/info': <SafetyCertificateOutlined />,
  '/factoring/credit/distribution': <PartitionOutlined />,
  '/factoring/credit/change': <EditOutlined />,
  '/factoring/config/company': <BankOutlined />,
  '/factoring/config/bank': <CreditCardOutlined />,
  '/factoring/config/ruler': <CalculatorOutlined />,
  '/factoring/config/print': <PrinterOutlined />,
  '/factoring/config/process': <ApartmentOutlined />,
  '/permission/role': <SafetyOutlined />,
  '/permission/org': <ClusterOutlined />,
  '/permission/user': <UserOutlined />,
  '/monitor/operlog': <HistoryOutlined />,
  '/monitor/logininfor': <LoginOutlined />,
  '/monitor/online': <DesktopOutlined />,
  '/system/config': <ControlOutlined />,
  '/system/notice': <NotificationOutlined />,
  '/system/server': <CloudServerOutlined />,
};

function iconOf(path: string): ReactNode {
  const section = Object.keys(ICONS).find((p) => path.startsWith(`${p}/`));
  return ICONS[path] ?? PAGE_ICONS[path] ?? (section ? ICONS[section] : <FileOutlined />);
}

export const HOME_MENU: MenuDef = { title: '工作', path: HOME_PATH };

/** antd Menu items of a menu tree (hidden routes left out); `leafOnly` renders sections as links. */
export function toMenuItems(
  menus: readonly MenuDef[],
  opts: { leafOnly?: (m: MenuDef) => boolean; depth?: number } = {},
): MenuItem[] {
  const depth = opts.depth ?? 0;
  const items: MenuItem[] = [];
  for (const m of menus) {
    if (m.hidden) continue;
    const icon = depth === 0 ? iconOf(m.path) : undefined;
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

/** The top-level entries only (topbar mode), with their icons. */
export function topMenuItems(menus: readonly MenuDef[]): MenuItem[] {
  return menus.filter((m) => !m.hidden).map((m) => ({ key: m.path, icon: iconOf(m.path), label: m.title }));
}
