import { useMemo } from 'react';
import type { MenuDef } from '@portal/contract/menus';
import { useAccessStore } from '../router/access-store';
import { HOME_MENU } from './menu-items';

export interface PortalMenus {
  /** Management-layout menus (with 工作 first). */
  management: MenuDef[];
  /** Website-layout sections (客户管理, 凭证, …). */
  website: MenuDef[];
  /** The sidebar tree of the management layout: 工作, the business menus, the website sections. */
  all: MenuDef[];
}

export function useMenus(): PortalMenus {
  const management = useAccessStore((s) => s.management);
  const website = useAccessStore((s) => s.website);
  return useMemo(() => {
    const m = [HOME_MENU, ...management];
    return { management: m, website, all: [...m, ...website] };
  }, [management, website]);
}

/** Website sections appear in the management menus as plain links (their tree lives in their own layout). */
export const isWebsiteSection = (m: MenuDef): boolean => m.layout === 'website';
