// Runtime configuration of the portal (read by src/shared/config/runtime.ts). This copy serves the
// Vite dev server only: the portal server renders /portal-config.js from VOUCHER_SITE_URL and
// DW_SITE_URL (apps/server/src/platform/http/portal-config.ts) and leaves this file out.
// Unset values: /ec, /fc and /dw are served here; cookies on this host.
//   voucherSite:  base URL of the voucher admin site for /ec and /fc, e.g. 'https://voucher.example.com'
//   dwSite:       base URL of the admin site for /dw
//   cookieDomain: parent domain shared by the token, sidebar and size cookies, e.g. '.example.com'
window.__PORTAL_CONFIG__ = window.__PORTAL_CONFIG__ || {};
