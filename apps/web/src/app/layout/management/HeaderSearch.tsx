import { useMemo, useRef, useState } from 'react';
import { Select, Tooltip } from 'antd';
import type { RefSelectProps } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { buildSearchPool, createRouteSearcher, type SearchItem } from '../route-search';
import { useMenus } from '../use-menus';

/** Route search (docs/architecture.md "Layouts and their numbers"): fuse.js over the routes the user may see. */
export function HeaderSearch() {
  const navigate = useNavigate();
  const { all } = useMenus();
  const search = useMemo(() => createRouteSearcher(buildSearchPool(all)), [all]);
  const [open, setOpen] = useState(false);
  const [options, setOptions] = useState<SearchItem[]>([]);
  const ref = useRef<RefSelectProps>(null);

  const show = () => {
    setOpen(true);
    setTimeout(() => ref.current?.focus(), 0);
  };
  const hide = () => {
    setOpen(false);
    setOptions([]);
  };

  return (
    <div className={`header-search ${open ? 'is-open' : ''}`}>
      <Tooltip title="搜索菜单">
        <SearchOutlined
          className="navbar-icon"
          aria-label="搜索菜单"
          role="button"
          onClick={() => (open ? hide() : show())}
        />
      </Tooltip>
      {open ? (
        <Select
          ref={ref}
          className="header-search__select"
          showSearch={{ filterOption: false, onSearch: (q) => setOptions(search(q)) }}
          placeholder="搜索菜单"
          value={null}
          defaultActiveFirstOption
          notFoundContent={null}
          suffixIcon={null}
          options={options.map((o) => ({ value: o.path, label: o.title.join(' > ') }))}
          onChange={(path: string) => {
            hide();
            navigate(path);
          }}
          onBlur={hide}
          aria-label="搜索菜单"
          popupMatchSelectWidth={false}
        />
      ) : null}
    </div>
  );
}
