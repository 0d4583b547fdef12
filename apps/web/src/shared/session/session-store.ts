import { create } from 'zustand';
import type { UserInfo } from '@portal/contract/auth';
import { ADMIN_CODE } from '@portal/contract/menus';
import { removeToken } from '../auth/token';

/**
 * Session state: token (the Admin-Token cookie, see auth/token.ts), name, avatar,
 * userInfo, introduction, roles (the menu codes; null = not loaded yet), and the env and chgInfo
 * switches. `mustChangePassword` opens the password dialog right after login.
 */
export interface SessionState {
  userInfo: UserInfo | null;
  name: string;
  avatar: string;
  introduction: string;
  roles: string[] | null;
  env: string;
  chgInfo: boolean;
  mustChangePassword: boolean;
  passwordDialogOpen: boolean;
}

export interface SessionActions {
  setUser(info: UserInfo, roles: string[]): void;
  setEnv(env: string): void;
  setChgInfo(chgInfo: boolean): void;
  markMustChangePassword(must: boolean): void;
  setPasswordDialogOpen(open: boolean): void;
  /** Token reset: token and roles cleared. */
  resetSession(): void;
}

const initial: SessionState = {
  userInfo: null,
  name: '',
  avatar: '',
  introduction: '',
  roles: null,
  env: '',
  chgInfo: false,
  mustChangePassword: false,
  passwordDialogOpen: false,
};

export const useSessionStore = create<SessionState & SessionActions>()((set) => ({
  ...initial,
  setUser: (info, roles) =>
    set((s) => {
      const must = s.mustChangePassword || info.mustChangePassword;
      return {
        userInfo: info,
        name: info.name || info.userName,
        avatar: info.avatar,
        introduction: info.introduction,
        roles,
        mustChangePassword: must,
        passwordDialogOpen: s.passwordDialogOpen || must,
      };
    }),
  setEnv: (env) => set({ env }),
  setChgInfo: (chgInfo) => set({ chgInfo }),
  markMustChangePassword: (must) => set({ mustChangePassword: must }),
  setPasswordDialogOpen: (open) => set({ passwordDialogOpen: open }),
  resetSession: () => {
    removeToken();
    set({ ...initial });
  },
}));

export function isAdmin(roles: readonly string[] | null | undefined): boolean {
  return !!roles?.includes(ADMIN_CODE);
}

/**
 * Whether a session is loaded. Signed out (logout, a 403), the layouts render nothing at once:
 * their screens would otherwise re-render against the cleared cache and fire their calls again.
 */
export function useSignedIn(): boolean {
  return useSessionStore((s) => s.roles !== null);
}
