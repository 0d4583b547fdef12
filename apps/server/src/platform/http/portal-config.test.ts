import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestPortal } from '../../testing/harness';
import { loadConfig } from '../config';
import { renderPortalConfig } from './portal-config';

function run(script: string): unknown {
  const win: { __PORTAL_CONFIG__?: unknown } = {};
  new Function('window', script)(win);
  return win.__PORTAL_CONFIG__;
}

describe('/portal-config.js (external admin sites)', () => {
  it('renders the configured sites, and nothing when unset', () => {
    expect(run(renderPortalConfig({ voucherSiteUrl: undefined, dwSiteUrl: undefined }))).toEqual({});
    const script = renderPortalConfig({
      voucherSiteUrl: 'https://voucher.example.com',
      dwSiteUrl: 'https://dw.example.com/admin</script><script>alert(1)</script>',
    });
    expect(script).not.toContain('</script>');
    expect(run(script)).toEqual({
      voucherSite: 'https://voucher.example.com',
      dwSite: 'https://dw.example.com/admin</script><script>alert(1)</script>',
    });
  });

  // Each starts a portal of its own: the start's limit, as a hook's (vitest.config.ts).
  it(
    'is served from the settings instead of the built static copy, under the CSP',
    { timeout: 120_000 },
    async () => {
      const dist = mkdtempSync(join(tmpdir(), 'portal-dist-'));
      writeFileSync(join(dist, 'index.html'), '<!doctype html><script src="/portal-config.js"></script>');
      writeFileSync(join(dist, 'portal-config.js'), 'window.__PORTAL_CONFIG__ = { voucherSite: "static" };');
      writeFileSync(join(dist, 'app.js'), 'console.info(1);');
      const t = await createTestPortal({
        WEB_DIST: dist,
        VOUCHER_SITE_URL: 'https://voucher.example.com',
        DW_SITE_URL: 'https://dw.example.com',
        COOKIE_DOMAIN: '.Example.com',
      });
      try {
        const r = await t.portal.app.inject({ method: 'GET', url: '/portal-config.js' });
        expect(r.statusCode).toBe(200);
        expect(r.headers['content-type']).toMatch(/^text\/javascript/);
        expect(r.headers['cache-control']).toBe('no-cache');
        expect(r.headers['content-security-policy']).toContain("script-src 'self'");
        expect(run(r.body)).toEqual({
          voucherSite: 'https://voucher.example.com',
          dwSite: 'https://dw.example.com',
          // Chosen at run time: the token cookie goes on the parent domain (SPEC 9.1).
          cookieDomain: '.example.com',
        });
        // The other built files are still served as before.
        const app = await t.portal.app.inject({ method: 'GET', url: '/app.js' });
        expect([app.statusCode, app.body]).toEqual([200, 'console.info(1);']);
        const spa = await t.portal.app.inject({ method: 'GET', url: '/ec/permit/comp' });
        expect(spa.body).toContain('/portal-config.js');
      } finally {
        await t.close();
        rmSync(dist, { recursive: true, force: true });
      }
    },
  );

  it('answers an empty configuration without the settings', { timeout: 120_000 }, async () => {
    const t = await createTestPortal();
    try {
      const r = await t.portal.app.inject({ method: 'GET', url: '/portal-config.js' });
      expect(r.statusCode).toBe(200);
      expect(run(r.body)).toEqual({});
    } finally {
      await t.close();
    }
  });

  it('refuses a COOKIE_DOMAIN that is not a domain at start', () => {
    expect(() => loadConfig({ ...process.env, COOKIE_DOMAIN: 'example.com; secure' })).toThrow(
      /COOKIE_DOMAIN/,
    );
    expect(loadConfig({ ...process.env, COOKIE_DOMAIN: ' ' }).cookieDomain).toBeUndefined();
  });
});
