import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { notifyManager, useQuery, useQueryClient } from '@tanstack/react-query';
import { AUTH_PATHS } from '@portal/contract/session';
import { buttonCode, type Action } from '@portal/contract/menus';
import { post } from '../request/http';
import { isAdmin, useSessionStore } from '../session/session-store';

export const buttonsQueryKey = (menuCode: string) => ['auth', 'buttons', menuCode] as const;

/** One menu's button codes, asked once per session ('admin' holds every button without asking). */
function buttonsQuery(menuCode: string, admin: boolean) {
  return {
    queryKey: buttonsQueryKey(menuCode),
    queryFn: () => post<string[]>(AUTH_PATHS.buttons, { menuCode }, { loading: false }),
    enabled: !admin && !!menuCode,
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
  };
}

export interface Buttons {
  /** The button codes `${menuCode}:${action}` the user holds on this menu. */
  codes: readonly string[];
  /** An action (`'add'`) or a full button code (`'ft-pa-mgr:add'`). */
  has(actionOrCode: Action | string): boolean;
  isLoading: boolean;
}

/**
 * Per-menu button permissions: `/user/res/menu/btns` with `{ menuCode }`, cached by
 * react-query for the session. 'admin' holds every button without asking.
 */
export function useButtons(menuCode: string): Buttons {
  const admin = useSessionStore((s) => isAdmin(s.roles));
  const query = useQuery(buttonsQuery(menuCode, admin));
  const codes = query.data ?? [];
  return {
    codes,
    has: (actionOrCode) => {
      if (admin) return true;
      const code = actionOrCode.includes(':') ? actionOrCode : buttonCode(menuCode, actionOrCode as Action);
      return codes.includes(code);
    },
    isLoading: !admin && query.isLoading,
  };
}

/**
 * Whether the user holds each of `codes` (full button codes, of any menus): one cached buttons
 * call per menu, shared with `useButtons`. Undecided (still loading) counts as not held.
 *
 * It re-renders its caller only when what is held changes: it reads the cached answers through a
 * snapshot of the held codes rather than observing a query per menu, whose set changes when the
 * codes do (a list's rows arriving) and re-rendered the caller for nothing, every row of its table
 * again (docs/architecture.md "Lists fit their box"; bench/README.md "Fifteenth pass").
 */
export function useHeldCodes(codes: readonly string[]): (code: string) => boolean {
  const admin = useSessionStore((s) => isAdmin(s.roles));
  const client = useQueryClient();
  // 'admin' holds every button without asking: no menu to read.
  const menus = admin ? '' : [...new Set(codes.map((c) => c.slice(0, c.lastIndexOf(':'))))].sort().join(' ');
  useEffect(() => {
    for (const menuCode of menus.split(' ').filter(Boolean))
      void client.prefetchQuery(buttonsQuery(menuCode, false));
  }, [client, menus]);
  const heldCodes = useSyncExternalStore(
    useCallback(
      (changed: () => void) => client.getQueryCache().subscribe(notifyManager.batchCalls(changed)),
      [client],
    ),
    () =>
      menus
        .split(' ')
        .filter(Boolean)
        .flatMap((menuCode) => client.getQueryData<string[]>(buttonsQueryKey(menuCode)) ?? [])
        .join(' '),
  );
  const held = new Set(heldCodes.split(' '));
  return (code) => admin || held.has(code);
}
