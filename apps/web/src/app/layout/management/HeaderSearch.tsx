import { lazy, Suspense, useState } from 'react';
import { Tooltip } from 'antd';
import { SearchOutlined } from '@ant-design/icons';

const SearchBox = lazy(() => import('./SearchBox'));

/** Route search (docs/architecture.md "Layouts and their numbers"): fuse.js over the routes the user may see. */
export function HeaderSearch() {
  const [open, setOpen] = useState(false);
  const hide = () => setOpen(false);

  return (
    <div className={`header-search ${open ? 'is-open' : ''}`}>
      <Tooltip title="搜索菜单">
        <SearchOutlined
          className="navbar-icon"
          aria-label="搜索菜单"
          role="button"
          onClick={() => (open ? hide() : setOpen(true))}
        />
      </Tooltip>
      {open ? (
        <Suspense fallback={null}>
          <SearchBox onDone={hide} />
        </Suspense>
      ) : null}
    </div>
  );
}
