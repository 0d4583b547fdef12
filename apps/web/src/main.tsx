import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ConfigProvider, message } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import { App, themeFor } from './app/App';
import { antdSize, useSettingsStore } from './app/layout/settings-store';
import { addErrorLog, installErrorLog } from './shared/error-log/error-log-store';
import { TOAST_SECONDS } from './shared/ui/toast';
import 'antd/dist/antd.css';
import './app/styles.css';

// Static antd feedback may fire before the first render (the guard runs first): configure it now.
const size = useSettingsStore.getState().size;
ConfigProvider.config({
  holderRender: (children) => (
    <ConfigProvider locale={zhCN} theme={themeFor(size)} componentSize={antdSize(size)}>
      {children}
    </ConfigProvider>
  ),
});

// Every toast stays 5000 ms (antd's default is 3 s).
message.config({ duration: TOAST_SECONDS });

// The error log is kept in production (docs/architecture.md "Layouts and their numbers").
if (import.meta.env.PROD) installErrorLog();

const root = createRoot(document.getElementById('root')!, {
  onUncaughtError: (error, info) => {
    if (import.meta.env.PROD) addErrorLog(error, info.componentStack ?? 'uncaught');
    console.error(error);
  },
  onCaughtError: (error, info) => {
    if (import.meta.env.PROD) addErrorLog(error, info.componentStack ?? 'caught');
    console.error(error);
  },
});

root.render(
  <StrictMode>
    <App />
  </StrictMode>,
);
