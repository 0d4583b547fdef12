import type { ReactNode } from 'react';
import { useButtons } from './use-buttons';

export interface AuthProps {
  /** A button code `${menuCode}:${action}` (e.g. `ft-pa-mgr:delete`). */
  code: string;
  children: ReactNode;
  /** Shown instead when not permitted (default nothing). */
  fallback?: ReactNode;
}

/** Renders its children only when the user holds the button code ('admin' holds all). */
export function Auth({ code, children, fallback = null }: AuthProps) {
  const menuCode = code.includes(':') ? code.slice(0, code.lastIndexOf(':')) : code;
  const buttons = useButtons(menuCode);
  return <>{buttons.has(code) ? children : fallback}</>;
}
