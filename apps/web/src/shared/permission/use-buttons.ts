import { useQueries, useQuery } from '@tanstack/react-query';
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
 */
export function useHeldCodes(codes: readonly string[]): (code: string) => boolean {
  const admin = useSessionStore((s) => isAdmin(s.roles));
  const menus = [...new Set(codes.map((c) => c.slice(0, c.lastIndexOf(':'))))].sort();
  const answers = useQueries({
    queries: menus.map((menuCode) => buttonsQuery(menuCode, admin)),
  });
  const held = new Set(answers.flatMap((a) => a.data ?? []));
  return (code) => admin || held.has(code);
}
