import { useMemo, useState } from 'react';
import { Select } from 'antd';
import { useNavigate } from 'react-router';
import { buildSearchPool, createRouteSearcher, type SearchItem } from '../route-search';
import { useMenus } from '../use-menus';

/**
 * The route search's box with fuse.js behind it, loaded when the search is first opened: no first
 * screen waits for fuse.js (bench/README.md "First screen").
 */
export default function SearchBox({ onDone }: { onDone: () => void }) {
  const navigate = useNavigate();
  const { all } = useMenus();
  const search = useMemo(() => createRouteSearcher(buildSearchPool(all)), [all]);
  const [options, setOptions] = useState<SearchItem[]>([]);
  return (
    <Select
      autoFocus
      className="header-search__select"
      showSearch={{ filterOption: false, onSearch: (q) => setOptions(search(q)) }}
      placeholder="搜索菜单"
      value={null}
      defaultActiveFirstOption
      notFoundContent={null}
      suffixIcon={null}
      options={options.map((o) => ({ value: o.path, label: o.title.join(' > ') }))}
      onChange={(path: string) => {
        onDone();
        navigate(path);
      }}
      onBlur={onDone}
      aria-label="搜索菜单"
      popupMatchSelectWidth={false}
    />
  );
}
