import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';

/** The script's path: index.html loads it before the bundle (apps/web/index.html). */
export const PORTAL_CONFIG_PATH = '/portal-config.js';

/**
 * `window.__PORTAL_CONFIG__` from the server's settings (docs/architecture.md "The web shell"): the
 * cookie domain (COOKIE_DOMAIN) when set; with
 * VOUCHER_SITE_URL / DW_SITE_URL set, the web's guard sends /ec and /fc (and /dw) to those sites at the same
 * hash path; unset, those screens are served here. JSON with `<` escaped, so a value cannot end the script or
 * open markup; the CSP allows only same-origin scripts, which this is.
 */
export function renderPortalConfig(
  config: Pick<Config, 'voucherSiteUrl' | 'dwSiteUrl'> & Partial<Pick<Config, 'cookieDomain'>>,
): string {
  const value: Record<string, string> = {};
  if (config.voucherSiteUrl) value.voucherSite = config.voucherSiteUrl;
  if (config.dwSiteUrl) value.dwSite = config.dwSiteUrl;
  // The token and layout cookies' parent domain, chosen at run time (the build's VITE_COOKIE_DOMAIN
  // is only the fallback): apps/web/src/shared/config/runtime.ts.
  if (config.cookieDomain) value.cookieDomain = config.cookieDomain;
  const json = JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028|\u2029/g, (c) => (c === '\u2028' ? '\\u2028' : '\\u2029'));
  return (
    '// Rendered by the server from its settings (VOUCHER_SITE_URL, DW_SITE_URL, COOKIE_DOMAIN).\n' +
    `window.__PORTAL_CONFIG__ = Object.assign(${json}, window.__PORTAL_CONFIG__ || {});\n`
  );
}

/** Serves the rendered script (the built SPA's static copy is left out of the static files). */
export function registerPortalConfig(app: FastifyInstance, config: Config): void {
  const body = renderPortalConfig(config);
  app.get(PORTAL_CONFIG_PATH, (_req, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(body),
  );
}
