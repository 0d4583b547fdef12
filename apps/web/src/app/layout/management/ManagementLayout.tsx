import { useEffect } from 'react';
import { Drawer } from 'antd';
import { useLocation } from 'react-router';
import type { MenuDef } from '@portal/contract/menus';
import { normalizePath, visibleChildren } from '../../../shared/routing/route-table';
import { useSignedIn } from '../../../shared/session/session-store';
import { SessionHost } from '../common/SessionHost';
import { selectedMenuPath, topSectionOf } from '../menu-items';
import { useSettingsStore } from '../settings-store';
import { useMenus } from '../use-menus';
import { useResponsive } from '../use-responsive';
import { KeepAliveOutlet } from './KeepAliveOutlet';
import { Navbar } from './Navbar';
import { SettingsPanel } from './SettingsPanel';
import { Sidebar } from './Sidebar';
import { TagsView } from './TagsView';
import { isEmbeddedWithHiddenHeader } from '../../router/frame';

/** The management layout (docs/architecture.md "Layouts and their numbers"): sidebar (vertical / horizontal / topbar), navbar, tags view, pages. */
export default function ManagementLayout() {
  useResponsive();
  const location = useLocation();
  const path = normalizePath(location.pathname);
  const { all } = useMenus();
  const s = useSettingsStore();
  const mobile = s.device === 'mobile';
  const frame = isEmbeddedWithHiddenHeader(location.search);
  const headerHidden = frame.embedded && frame.headerHidden;

  // Mobile: the sidebar is a drawer, closed after each navigation.
  const closeSidebar = s.closeSidebar;
  useEffect(() => {
    if (mobile) closeSidebar();
  }, [mobile, path, closeSidebar]);

  let sideMenus: readonly MenuDef[] | null = all;
  if (!mobile && s.sidebarMode === 'horizontal') sideMenus = null;
  if (!mobile && s.sidebarMode === 'topbar') {
    const top = topSectionOf(selectedMenuPath(path), all);
    const children = top ? visibleChildren(top) : [];
    sideMenus = top && top.layout !== 'website' && children.length > 0 ? children : null;
  }
  const collapsed = !mobile && !s.sidebarOpened;
  const signedIn = useSignedIn();
  if (!signedIn) return null;

  const classes = [
    'app-wrapper',
    mobile ? 'mobile' : 'desktop',
    `mode-${s.sidebarMode}`,
    sideMenus ? 'has-sidebar' : 'no-sidebar',
    collapsed ? 'hide-sidebar' : 'open-sidebar',
    s.fixedHeader ? 'has-fixed-header' : '',
    headerHidden ? 'header-hidden' : '',
  ].join(' ');

  return (
    <div
      className={classes}
      data-device={s.device}
      data-sidebar-mode={s.sidebarMode}
      data-testid="management-layout"
    >
      {mobile ? (
        <Drawer
          placement="left"
          open={s.sidebarOpened}
          onClose={closeSidebar}
          size={210}
          closable={false}
          styles={{ body: { padding: 0 } }}
          className="sidebar-drawer"
        >
          <Sidebar menus={all} collapsed={false} showLogo={s.sidebarLogo} onNavigate={closeSidebar} />
        </Drawer>
      ) : sideMenus ? (
        <aside className="sidebar-container">
          <Sidebar
            key={s.sidebarMode}
            menus={sideMenus}
            collapsed={collapsed}
            showLogo={s.sidebarLogo && s.sidebarMode === 'vertical'}
          />
        </aside>
      ) : null}
      <div className="main-container">
        {headerHidden ? null : (
          <header className="app-header">
            <Navbar menus={all} />
            {s.tagsView ? (
              <div className="tags-view-slot">
                <TagsView />
              </div>
            ) : null}
          </header>
        )}
        <main className="app-main">
          <KeepAliveOutlet />
        </main>
      </div>
      <SettingsPanel />
      <SessionHost />
    </div>
  );
}
