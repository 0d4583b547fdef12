/**
 * Runtime configuration: `window.__PORTAL_CONFIG__` (set by a script the deployment adds before the
 * bundle) wins over the build-time `VITE_*` settings. Unset values mean "served here" / current host.
 */
export interface PortalConfig {
  /** Base URL of the voucher admin site that serves /ec and /fc (hash routing). */
  voucherSite?: string;
  /** Base URL of the admin site that serves /dw (hash routing). */
  dwSite?: string;
  /** Cookie domain shared by the product's subdomains (token, sidebar state, size). */
  cookieDomain?: string;
}

declare global {
  interface Window {
    __PORTAL_CONFIG__?: Partial<PortalConfig>;
  }
}

const clean = (v: string | undefined): string | undefined => {
  const t = v?.trim();
  return t ? t : undefined;
};

export function getRuntimeConfig(): PortalConfig {
  const injected = typeof window === 'undefined' ? undefined : window.__PORTAL_CONFIG__;
  return {
    voucherSite: clean(injected?.voucherSite ?? import.meta.env.VITE_VOUCHER_SITE),
    dwSite: clean(injected?.dwSite ?? import.meta.env.VITE_DW_SITE),
    cookieDomain: clean(injected?.cookieDomain ?? import.meta.env.VITE_COOKIE_DOMAIN),
  };
}

/** Product name shown in the title bar, the login page and the sidebar logo. */
export const APP_TITLE = '保理业务管理平台';
