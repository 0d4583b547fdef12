import { Menu } from 'antd';
import { useLocation, useNavigate } from 'react-router';
import type { MenuDef } from '@portal/contract/menus';
import { APP_TITLE } from '../../../shared/config/runtime';
import { normalizePath } from '../../../shared/routing/route-table';
import { openMenuPaths, selectedMenuPath, toMenuItems } from '../menu-items';
import { isWebsiteSection } from '../use-menus';

export interface SidebarProps {
  menus: readonly MenuDef[];
  collapsed: boolean;
  showLogo: boolean;
  onNavigate?: () => void;
}

export function SidebarLogo({ collapsed }: { collapsed: boolean }) {
  const navigate = useNavigate();
  return (
    <div
      className="sidebar-logo"
      role="link"
      tabIndex={0}
      onClick={() => navigate('/')}
      onKeyDown={(e) => e.key === 'Enter' && navigate('/')}
    >
      <span className="sidebar-logo__mark">保</span>
      {collapsed ? null : <span className="sidebar-logo__title">{APP_TITLE}</span>}
    </div>
  );
}

/** The left menu of the management layout (vertical: the whole tree; topbar: the current section). */
export function Sidebar({ menus, collapsed, showLogo, onNavigate }: SidebarProps) {
  const location = useLocation();
  const navigate = useNavigate();
  const path = normalizePath(location.pathname);
  return (
    <div className={`sidebar ${collapsed ? 'is-collapsed' : ''}`} data-testid="sidebar">
      {showLogo ? <SidebarLogo collapsed={collapsed} /> : null}
      <Menu
        mode="inline"
        theme="dark"
        inlineCollapsed={collapsed}
        // An item's title tooltip shows only while the menu is collapsed; open, antd still renders a
        // closed Tooltip around every item, the hidden path-measuring copy of the whole tree
        // included (bench/README.md §4 ninth pass): none then.
        tooltip={collapsed ? undefined : false}
        selectedKeys={[selectedMenuPath(path)]}
        defaultOpenKeys={collapsed ? [] : openMenuPaths(path)}
        items={toMenuItems(menus, { leafOnly: isWebsiteSection })}
        onClick={({ key }) => {
          navigate(key);
          onNavigate?.();
        }}
      />
    </div>
  );
}
