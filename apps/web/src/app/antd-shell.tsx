import { useEffect, useMemo, type ReactNode } from 'react';
import { Outlet } from 'react-router';
import { ConfigProvider, message, theme, type ThemeConfig } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { TOAST_SECONDS } from '../shared/ui/toast';
import { antdSize, useSettingsStore, type UiSize } from './layout/settings-store';
// antd's prebuilt stylesheet, then the shell's styles that refine it (the order of old).
import 'antd/dist/antd.css';
import './styles.css';

/**
 * Everything of antd the shell sets up, loaded with the first screen that uses antd rather than
 * with the entry: the login page shows without it (docs/architecture.md "The first screen
 * without antd").
 */
dayjs.locale('zh-cn');

/** The default theme colour (docs/architecture.md "Layouts and their numbers"). */
export const PRIMARY_COLOR = '#1890ff';

/**
 * A system set to reduce motion (`prefers-reduced-motion: reduce`) gets antd without its motions:
 * dialogs, popups and toasts appear and go at once (docs/architecture.md "Reduced motion").
 */
const reducedMotion =
  typeof window !== 'undefined' && window.matchMedia?.('(prefers-reduced-motion: reduce)').matches === true;

/**
 * antd's component styles come from its prebuilt stylesheet (antd/dist/antd.css, imported above)
 * instead of being generated at run time (≈0.2 s of a cold start: bench/README.md). The tokens
 * below still apply: antd writes them as CSS variables, which that stylesheet reads.
 */
export function themeFor(size: UiSize): ThemeConfig {
  return {
    zeroRuntime: true,
    token: { colorPrimary: PRIMARY_COLOR, colorInfo: PRIMARY_COLOR, borderRadius: 4, motion: !reducedMotion },
    algorithm: size === 'mini' ? [theme.defaultAlgorithm, theme.compactAlgorithm] : theme.defaultAlgorithm,
  };
}

/** Static message / Modal.confirm / notification (used by the request layer) get the same config. */
function configureStatic(size: UiSize, themeConfig: ThemeConfig): void {
  ConfigProvider.config({
    holderRender: (children) => (
      <ConfigProvider locale={zhCN} theme={themeConfig} componentSize={antdSize(size)}>
        {children}
      </ConfigProvider>
    ),
  });
}

const bootSize = useSettingsStore.getState().size;
configureStatic(bootSize, themeFor(bootSize));
// Every toast stays 5000 ms (antd's default is 3 s).
message.config({ duration: TOAST_SECONDS });

/** zh_CN locale, #1890ff, and the component size of the size setting (default Medium = antd middle). */
export function PortalConfigProvider({ children }: { children: ReactNode }) {
  const size = useSettingsStore((s) => s.size);
  const themeConfig = useMemo(() => themeFor(size), [size]);
  useEffect(() => configureStatic(size, themeConfig), [size, themeConfig]);
  return (
    <ConfigProvider locale={zhCN} theme={themeConfig} componentSize={antdSize(size)}>
      {children}
    </ConfigProvider>
  );
}

/** The routes under antd (every one but the login page), as a layout route, or around `children`. */
export default function AntdShell({ children }: { children?: ReactNode }) {
  return <PortalConfigProvider>{children ?? <Outlet />}</PortalConfigProvider>;
}
