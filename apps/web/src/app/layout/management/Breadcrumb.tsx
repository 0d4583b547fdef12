import type { ReactNode } from 'react';
import { Breadcrumb as AntBreadcrumb } from 'antd';
import { Link, useLocation } from 'react-router';
import { findRoute, HOME_PATH, normalizePath, ROUTE_TABLE } from '../../../shared/routing/route-table';

/**
 * The route's title chain; 工作 first (a link home), sections link to their landing pages (the
 * guard sends a section to the first page of it the user may see).
 */
export function Breadcrumb() {
  const path = normalizePath(useLocation().pathname);
  const meta = findRoute(path);
  const items: { key: string; title: ReactNode }[] = [];
  items.push({ key: HOME_PATH, title: path === HOME_PATH ? '工作' : <Link to={HOME_PATH}>工作</Link> });
  if (meta && path !== HOME_PATH && !meta.isPublic) {
    for (const a of meta.ancestors) {
      const m = ROUTE_TABLE.get(a);
      if (!m) continue;
      items.push({ key: a, title: m.redirect ? <Link to={m.path}>{m.title}</Link> : m.title });
    }
    items.push({ key: path, title: meta.tabTitle ?? meta.title });
  }
  return <AntBreadcrumb className="app-breadcrumb" items={items} />;
}
