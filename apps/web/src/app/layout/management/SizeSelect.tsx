import { Dropdown, Tooltip, message } from 'antd';
import { FontSizeOutlined } from '@ant-design/icons';
import { useLocation } from 'react-router';
import { normalizePath } from '../../../shared/routing/route-table';
import { dispatchTags, useTagsStore } from '../../tags-view/tags-store';
import { SIZE_OPTIONS, useSettingsStore, type UiSize } from '../settings-store';

/** The size setting (docs/architecture.md "Layouts and their numbers"): 默认, 中等, 紧凑, 迷你; the open pages are refreshed, then 布局大小已切换. */
export const SIZE_SWITCH_MESSAGE = '布局大小已切换';

export function SizeSelect() {
  const size = useSettingsStore((s) => s.size);
  const setSize = useSettingsStore((s) => s.setSize);
  const path = normalizePath(useLocation().pathname);
  const change = (next: UiSize) => {
    setSize(next);
    // The old portal reloaded the cached views after a size change; remount the visible page.
    if (useTagsStore.getState().visited.some((v) => v.path === path)) dispatchTags({ type: 'refresh', path });
    void message.success(SIZE_SWITCH_MESSAGE);
  };
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [size],
        items: SIZE_OPTIONS.map((o) => ({ key: o.value, label: o.label, disabled: o.value === size })),
        onClick: ({ key }) => change(key as UiSize),
      }}
    >
      <Tooltip title="布局大小">
        <FontSizeOutlined className="navbar-icon" role="button" aria-label="布局大小" />
      </Tooltip>
    </Dropdown>
  );
}
