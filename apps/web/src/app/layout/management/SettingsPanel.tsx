import type { ReactNode } from 'react';
import { Divider, Drawer, Segmented, Switch, Typography } from 'antd';
import { SIDEBAR_MODE_OPTIONS, useSettingsStore, type SidebarMode } from '../settings-store';

/** The settings panel (docs/architecture.md "Layouts and their numbers"): sidebar mode, sidebar logo, tags view, fixed header. */
export function SettingsPanel() {
  const s = useSettingsStore();
  const row = (label: string, control: ReactNode) => (
    <div className="settings-row">
      <span>{label}</span>
      {control}
    </div>
  );
  return (
    <Drawer
      title="系统布局配置"
      open={s.settingsPanelOpen}
      onClose={() => s.setSettingsPanelOpen(false)}
      size={300}
    >
      <Typography.Text strong>导航模式</Typography.Text>
      <Segmented<SidebarMode>
        block
        style={{ marginTop: 8 }}
        value={s.sidebarMode}
        options={SIDEBAR_MODE_OPTIONS}
        onChange={(v) => s.setSetting('sidebarMode', v)}
      />
      <Divider />
      {row(
        '侧边栏 Logo',
        <Switch
          aria-label="侧边栏 Logo"
          checked={s.sidebarLogo}
          onChange={(v) => s.setSetting('sidebarLogo', v)}
        />,
      )}
      {row(
        '开启标签页',
        <Switch aria-label="开启标签页" checked={s.tagsView} onChange={(v) => s.setSetting('tagsView', v)} />,
      )}
      {row(
        '固定头部',
        <Switch
          aria-label="固定头部"
          checked={s.fixedHeader}
          onChange={(v) => s.setSetting('fixedHeader', v)}
        />,
      )}
    </Drawer>
  );
}
