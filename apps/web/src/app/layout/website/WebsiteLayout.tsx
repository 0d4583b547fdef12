import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Button, Menu } from 'antd';
import {
  ArrowLeftOutlined,
  DownOutlined,
  EllipsisOutlined,
  HomeOutlined,
  UpOutlined,
} from '@ant-design/icons';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { APP_TITLE } from '../../../shared/config/runtime';
import { setAuditSlotTarget } from '../../../shared/layout/audit-slot';
import { HOME_PATH, normalizePath } from '../../../shared/routing/route-table';
import { isEmbeddedWithHiddenHeader } from '../../router/frame';
import { KeptPages } from '../common/KeptPages';
import { useSignedIn } from '../../../shared/session/session-store';
import { SessionHost } from '../common/SessionHost';
import { UserMenu } from '../common/UserMenu';
import { openMenuPaths, selectedMenuPath, toMenuItems, topMenuItems } from '../menu-items';
import { useMenus } from '../use-menus';
import { useResponsive } from '../use-responsive';
import { useSettingsStore } from '../settings-store';
import {
  backDestination,
  detailTabs,
  sectionOf,
  sidebarMenus,
  splitHeaderMenu,
  WEBSITE_BACK_EVENT,
  WEBSITE_KEEP,
} from './website-nav';

/**
 * The website layout (docs/architecture.md "Layouts and their numbers") (/crm, /ec, /fc, /dw): header menu (first 2 sections, the rest folded),
 * left sidebar of the section's sub-pages, the 查看详情 tabs sidebar with 返回, and the audit sidebar.
 */
export default function WebsiteLayout() {
  useResponsive();
  const location = useLocation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const path = normalizePath(location.pathname);
  const { website } = useMenus();
  const device = useSettingsStore((s) => s.device);
  const frame = isEmbeddedWithHiddenHeader(location.search);
  const headerHidden = frame.embedded && frame.headerHidden;
  const signedIn = useSignedIn();
  const onDetail = !!detailTabs(path);
  // The last page that was not a detail page: where a record was opened from, target of 返回.
  const origin = useRef<string | null>(null);
  // On a phone the side menus fold to their title, so that the page starts on the first screen.
  const [sideOpen, setSideOpen] = useState(false);
  useEffect(() => setSideOpen(false), [path]);
  const folds = device === 'mobile';
  useEffect(() => {
    if (!onDetail) origin.current = `${path}${location.search}`;
  }, [onDetail, path, location.search]);
  if (!signedIn) return null;

  const section = sectionOf(path, website);
  const { shown, folded } = splitHeaderMenu(topMenuItems(website));
  const headerItems = [
    ...shown,
    ...(folded.length > 0
      ? [{ key: 'website-more', icon: <EllipsisOutlined />, label: '更多', children: folded }]
      : []),
  ];
  const side = sidebarMenus(path, website);
  const tabs = detailTabs(path);

  const back = () => {
    const event = new CustomEvent(WEBSITE_BACK_EVENT, { cancelable: true, detail: { path } });
    if (!params.get('judge') && !window.dispatchEvent(event)) return;
    navigate(backDestination(params.get('judge'), origin.current, tabs?.detail.path ?? path));
  };

  return (
    <div className={`website-layout ${device}`} data-device={device} data-testid="website-layout">
      {headerHidden ? null : (
        <header className="website-header">
          <div className="website-header__brand" role="link" tabIndex={0} onClick={() => navigate(HOME_PATH)}>
            <HomeOutlined /> <span>{APP_TITLE}</span>
          </div>
          <Menu
            className="website-header__menu"
            mode="horizontal"
            theme="dark"
            disabledOverflow
            selectedKeys={section ? [section.path] : []}
            items={headerItems}
            onClick={({ key }) => navigate(key)}
          />
          <div className="website-header__right">
            <UserMenu />
          </div>
        </header>
      )}
      <div className="website-body">
        {side ? (
          <aside className="website-sidebar" data-testid="website-sidebar">
            <SideTitle folds={folds} open={sideOpen} onToggle={() => setSideOpen(!sideOpen)}>
              {section?.title}
            </SideTitle>
            {folds && !sideOpen ? null : (
              <Menu
                mode="inline"
                selectedKeys={[selectedMenuPath(path)]}
                defaultOpenKeys={openMenuPaths(path)}
                items={toMenuItems(side)}
                onClick={({ key }) => navigate(key)}
              />
            )}
          </aside>
        ) : null}
        {tabs ? (
          <aside className="website-tabs" data-testid="website-tabs">
            <SideTitle folds={folds} open={sideOpen} onToggle={() => setSideOpen(!sideOpen)}>
              查看详情
            </SideTitle>
            {folds && !sideOpen ? null : (
              <Menu
                mode="inline"
                selectedKeys={[tabs.active]}
                items={tabs.detail.tabs?.map((t) => ({ key: t.path, label: t.title }))}
                onClick={({ key }) => navigate(`${tabs.detail.path}/${key}${location.search}`)}
              />
            )}
            <Button className="website-tabs__back" icon={<ArrowLeftOutlined />} onClick={back} block>
              返回
            </Button>
          </aside>
        ) : null}
        <main className="website-main">
          <KeptPages rule={WEBSITE_KEEP} />
        </main>
        <aside className="audit-sidebar" ref={setAuditSlotTarget} />
      </div>
      <SessionHost />
    </div>
  );
}

/** A side menu's title; on a phone, the button that unfolds its menu. */
function SideTitle({
  folds,
  open,
  onToggle,
  children,
}: {
  folds: boolean;
  open: boolean;
  onToggle: () => void;
  children: ReactNode;
}) {
  if (!folds) return <div className="website-sidebar__title">{children}</div>;
  return (
    <button
      type="button"
      className="website-sidebar__title website-sidebar__toggle"
      aria-expanded={open}
      onClick={onToggle}
    >
      {children} {open ? <UpOutlined /> : <DownOutlined />}
    </button>
  );
}
