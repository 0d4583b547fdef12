import { create } from 'zustand';

/** In production an error log is kept (shown in the navbar, cleared from its dialog). */
export interface ErrorLogEntry {
  id: number;
  message: string;
  stack: string;
  info: string;
  url: string;
  time: string;
}

interface ErrorLogState {
  logs: ErrorLogEntry[];
}

export const MAX_ERROR_LOGS = 100;
let nextId = 1;

export const useErrorLogStore = create<ErrorLogState>()(() => ({ logs: [] }));

export function addErrorLog(error: unknown, info = ''): void {
  const err =
    error instanceof Error ? error : new Error(typeof error === 'string' ? error : JSON.stringify(error));
  const entry: ErrorLogEntry = {
    id: nextId++,
    message: err.message,
    stack: err.stack ?? '',
    info,
    url: typeof window === 'undefined' ? '' : window.location.href,
    time: new Date().toISOString(),
  };
  useErrorLogStore.setState((s) => ({ logs: [...s.logs, entry].slice(-MAX_ERROR_LOGS) }));
}

export function clearErrorLogs(): void {
  useErrorLogStore.setState({ logs: [] });
}

/** Collects uncaught errors and rejections of the page (installed in production only). */
export function installErrorLog(target: Window = window): () => void {
  const onError = (e: ErrorEvent) => addErrorLog(e.error ?? e.message, 'window.onerror');
  const onRejection = (e: PromiseRejectionEvent) => {
    // Rejections of API calls were already shown to the user by the request layer.
    if (e.reason instanceof Error && e.reason.name === 'ApiError') return;
    addErrorLog(e.reason, 'unhandledrejection');
  };
  target.addEventListener('error', onError);
  target.addEventListener('unhandledrejection', onRejection);
  return () => {
    target.removeEventListener('error', onError);
    target.removeEventListener('unhandledrejection', onRejection);
  };
}
