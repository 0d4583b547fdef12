import { Menu, Tooltip } from 'antd';
import { MenuFoldOutlined, MenuUnfoldOutlined, SettingOutlined } from '@ant-design/icons';
import { useLocation, useNavigate } from 'react-router';
import type { MenuDef } from '@portal/contract/menus';
import { normalizePath } from '../../../shared/routing/route-table';
import { BizDateBadge } from '../../../shared/bizdate/BizDateBadge';
import { MessageBell } from '../../../shared/messages/MessageBell';
import { ErrorLog } from '../common/ErrorLog';
import { UserMenu } from '../common/UserMenu';
import { selectedMenuPath, toMenuItems, topMenuItems, topSectionOf } from '../menu-items';
import { useSettingsStore } from '../settings-store';
import { isWebsiteSection } from '../use-menus';
import { Breadcrumb } from './Breadcrumb';
import { HeaderSearch } from './HeaderSearch';
import { Screenfull } from './Screenfull';
import { SidebarLogo } from './Sidebar';
import { SizeSelect } from './SizeSelect';

export function Hamburger() {
  const opened = useSettingsStore((s) => s.sidebarOpened);
  const toggle = useSettingsStore((s) => s.toggleSidebar);
  const Icon = opened ? MenuFoldOutlined : MenuUnfoldOutlined;
  return (
    <Icon
      className="hamburger navbar-icon"
      role="button"
      aria-label="切换侧边栏"
      data-testid="hamburger"
      onClick={toggle}
    />
  );
}

function RightMenu() {
  const device = useSettingsStore((s) => s.device);
  const openSettings = useSettingsStore((s) => s.setSettingsPanelOpen);
  return (
    <div className="right-menu">
      <BizDateBadge />
      <HeaderSearch />
      <MessageBell />
      {import.meta.env.PROD ? <ErrorLog /> : null}
      {device === 'mobile' ? null : (
        <>
          <Screenfull />
          <SizeSelect />
        </>
      )}
      <Tooltip title="布局设置">
        <SettingOutlined
          className="navbar-icon"
          role="button"
          aria-label="布局设置"
          onClick={() => openSettings(true)}
        />
      </Tooltip>
      <UserMenu />
    </div>
  );
}

/**
 * The navbar of the management layout. vertical: hamburger + breadcrumb; topbar: logo + the top-level
 * menu (its children go to the sidebar); horizontal: logo + the whole menu. Mobile: hamburger only.
 */
export function Navbar({ menus }: { menus: readonly MenuDef[] }) {
  const mode = useSettingsStore((s) => s.sidebarMode);
  const device = useSettingsStore((s) => s.device);
  const navigate = useNavigate();
  const path = normalizePath(useLocation().pathname);
  const mobile = device === 'mobile';

  if (mobile || mode === 'vertical') {
    return (
      <div className="navbar">
        <Hamburger />
        <Breadcrumb />
        <RightMenu />
      </div>
    );
  }

  const top = topSectionOf(selectedMenuPath(path), menus);
  const items = mode === 'topbar' ? topMenuItems(menus) : toMenuItems(menus, { leafOnly: isWebsiteSection });
  return (
    <>
      <div className="navbar navbar--menu">
        <SidebarLogo collapsed={false} />
        <Menu
          className="navbar-menu"
          mode="horizontal"
          // Never collapsed, so its items' title tooltips never show: not rendered (see Sidebar).
          tooltip={false}
          selectedKeys={mode === 'topbar' ? (top ? [top.path] : []) : [selectedMenuPath(path)]}
          items={items}
          onClick={({ key }) => navigate(key)}
        />
        <RightMenu />
      </div>
      <div className="navbar navbar--sub">
        {mode === 'topbar' ? <Hamburger /> : null}
        <Breadcrumb />
      </div>
    </>
  );
}
