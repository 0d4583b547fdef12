import { create } from 'zustand';
import { getRuntimeConfig } from '../../shared/config/runtime';
import { getCookie, setCookie } from '../../shared/lib/cookie';

/** Layout settings (docs/architecture.md "Layouts and their numbers"). Sidebar state and size live in cookies shared by the subdomains. */
export type SidebarMode = 'vertical' | 'horizontal' | 'topbar';
export type UiSize = 'default' | 'medium' | 'small' | 'mini';
export type Device = 'desktop' | 'mobile';

export const SIDEBAR_COOKIE = 'sidebarStatus';
export const SIZE_COOKIE = 'size';
export const SETTINGS_STORAGE_KEY = 'portal:layout-settings';
/** Mobile mode under this width. */
export const MOBILE_BREAKPOINT = 992;
/** The tab strip stops following the page past this scroll offset. */
export const TAGS_SUSPEND_SCROLL = 92;

export const SIZE_OPTIONS: { value: UiSize; label: string }[] = [
  { value: 'default', label: '默认' },
  { value: 'medium', label: '中等' },
  { value: 'small', label: '紧凑' },
  { value: 'mini', label: '迷你' },
];

export const SIDEBAR_MODE_OPTIONS: { value: SidebarMode; label: string }[] = [
  { value: 'vertical', label: '纵向' },
  { value: 'horizontal', label: '横向' },
  { value: 'topbar', label: '顶栏' },
];

/** antd has three sizes: Default is the large one, Medium antd's middle (the default), Mini compact small. */
export function antdSize(size: UiSize): 'large' | 'middle' | 'small' {
  if (size === 'default') return 'large';
  if (size === 'medium') return 'middle';
  return 'small';
}

export function isMobileWidth(width: number): boolean {
  return width < MOBILE_BREAKPOINT;
}

interface StoredSettings {
  sidebarMode: SidebarMode;
  sidebarLogo: boolean;
  tagsView: boolean;
  fixedHeader: boolean;
}

const DEFAULTS: StoredSettings = {
  sidebarMode: 'topbar',
  sidebarLogo: true,
  tagsView: true,
  fixedHeader: false,
};

function readStored(): StoredSettings {
  try {
    const raw = localStorage.getItem(SETTINGS_STORAGE_KEY);
    if (!raw) return DEFAULTS;
    const v = JSON.parse(raw) as Partial<StoredSettings>;
    return {
      sidebarMode:
        v.sidebarMode === 'vertical' || v.sidebarMode === 'horizontal' || v.sidebarMode === 'topbar'
          ? v.sidebarMode
          : DEFAULTS.sidebarMode,
      sidebarLogo: typeof v.sidebarLogo === 'boolean' ? v.sidebarLogo : DEFAULTS.sidebarLogo,
      tagsView: typeof v.tagsView === 'boolean' ? v.tagsView : DEFAULTS.tagsView,
      fixedHeader: typeof v.fixedHeader === 'boolean' ? v.fixedHeader : DEFAULTS.fixedHeader,
    };
  } catch {
    return DEFAULTS;
  }
}

function readSize(): UiSize {
  const v = getCookie(SIZE_COOKIE);
  return v === 'default' || v === 'medium' || v === 'small' || v === 'mini' ? v : 'medium';
}

const cookieOpts = () => ({ domain: getRuntimeConfig().cookieDomain, days: 365 });

export interface SettingsState extends StoredSettings {
  size: UiSize;
  sidebarOpened: boolean;
  device: Device;
  settingsPanelOpen: boolean;
  setSetting<K extends keyof StoredSettings>(key: K, value: StoredSettings[K]): void;
  setSize(size: UiSize): void;
  toggleSidebar(): void;
  closeSidebar(): void;
  setDevice(device: Device): void;
  setSettingsPanelOpen(open: boolean): void;
}

export const useSettingsStore = create<SettingsState>()((set, get) => ({
  ...readStored(),
  size: readSize(),
  sidebarOpened: getCookie(SIDEBAR_COOKIE) !== '0',
  device: typeof window !== 'undefined' && isMobileWidth(window.innerWidth) ? 'mobile' : 'desktop',
  settingsPanelOpen: false,
  setSetting: (key, value) => {
    set({ [key]: value } as Pick<StoredSettings, typeof key>);
    const { sidebarMode, sidebarLogo, tagsView, fixedHeader } = get();
    try {
      localStorage.setItem(
        SETTINGS_STORAGE_KEY,
        JSON.stringify({ sidebarMode, sidebarLogo, tagsView, fixedHeader }),
      );
    } catch {
      // storage unavailable: the setting lasts for this page only
    }
  },
  setSize: (size) => {
    setCookie(SIZE_COOKIE, size, cookieOpts());
    set({ size });
  },
  // The cookie keeps the desktop sidebar's state; the mobile drawer's opening and closing is not
  // remembered, so that going under 992 px and back restores the sidebar as it was.
  toggleSidebar: () => {
    const opened = !get().sidebarOpened;
    if (get().device === 'desktop') setCookie(SIDEBAR_COOKIE, opened ? '1' : '0', cookieOpts());
    set({ sidebarOpened: opened });
  },
  closeSidebar: () => {
    if (get().device === 'desktop') setCookie(SIDEBAR_COOKIE, '0', cookieOpts());
    set({ sidebarOpened: false });
  },
  setDevice: (device) => {
    if (device === get().device) return;
    set(device === 'desktop' ? { device, sidebarOpened: getCookie(SIDEBAR_COOKIE) !== '0' } : { device });
  },
  setSettingsPanelOpen: (open) => set({ settingsPanelOpen: open }),
}));
