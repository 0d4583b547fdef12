import { useEffect, useMemo, type ReactNode } from 'react';
import { RouterProvider } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { ConfigProvider, theme, type ThemeConfig } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { GlobalLoading } from './layout/common/GlobalLoading';
import { antdSize, useSettingsStore, type UiSize } from './layout/settings-store';
import { queryClient } from './query-client';
import { router } from './router/router';

dayjs.locale('zh-cn');

/** The default theme colour (docs/architecture.md "Layouts and their numbers"). */
export const PRIMARY_COLOR = '#1890ff';

/**
 * antd's component styles come from its prebuilt stylesheet (antd/dist/antd.css, imported by
 * main.tsx) instead of being generated at run time (≈0.2 s of a cold start: bench/README.md). The tokens
 * below still apply: antd writes them as CSS variables, which that stylesheet reads.
 */
export function themeFor(size: UiSize): ThemeConfig {
  return {
    zeroRuntime: true,
    token: { colorPrimary: PRIMARY_COLOR, colorInfo: PRIMARY_COLOR, borderRadius: 4 },
    algorithm: size === 'mini' ? [theme.defaultAlgorithm, theme.compactAlgorithm] : theme.defaultAlgorithm,
  };
}

/** zh_CN locale, #1890ff, and the component size of the size setting (default Medium = antd middle). */
export function PortalConfigProvider({ children }: { children: ReactNode }) {
  const size = useSettingsStore((s) => s.size);
  const themeConfig = useMemo(() => themeFor(size), [size]);
  useEffect(() => {
    // Static message / Modal.confirm / notification (used by the request layer) get the same config.
    ConfigProvider.config({
      holderRender: (children) => (
        <ConfigProvider locale={zhCN} theme={themeConfig} componentSize={antdSize(size)}>
          {children}
        </ConfigProvider>
      ),
    });
  }, [size, themeConfig]);
  return (
    <ConfigProvider locale={zhCN} theme={themeConfig} componentSize={antdSize(size)}>
      {children}
    </ConfigProvider>
  );
}

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <PortalConfigProvider>
        <RouterProvider router={router} />
        <GlobalLoading />
      </PortalConfigProvider>
    </QueryClientProvider>
  );
}
