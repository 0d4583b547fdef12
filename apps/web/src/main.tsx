import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { addErrorLog, installErrorLog } from './shared/error-log/error-log-store';
import { setFeedbackSetup } from './shared/ui/feedback-lazy';
import './app/boot.css';

// antd (its stylesheet, locale and static config) comes with the first screen that uses it; a
// toast shown before that (a refused login) loads it first (docs/architecture.md "The first
// screen without antd").
setFeedbackSetup(() => import('./app/antd-shell'));

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
