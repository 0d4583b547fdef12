import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { createClientKey, importRsaPublicKey, sealRequest } from '@portal/contract/envelope';

/** Debian's chromium; never a downloaded browser. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export const SHOTS_DIR = resolve(import.meta.dirname, '../test-results');
mkdirSync(SHOTS_DIR, { recursive: true });

export function shotPath(name: string): string {
  return resolve(SHOTS_DIR, name);
}

export async function newPage(
  browser: Browser,
  width = 1366,
  height = 860,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width, height }, locale: 'zh-CN' });
  const page = await context.newPage();
  return { context, page };
}

/**
 * What a failing browser test needs in its report: API calls still unanswered (a hang shows as a
 * blank screen or a drawer that never closes), answers of 400 and above, and page errors.
 */
export function watchPage(page: Page): () => string {
  const pending = new Map<object, string>();
  const events: string[] = [];
  page.on('request', (r) => pending.set(r, `${r.method()} ${r.url()}`));
  page.on('requestfinished', (r) => pending.delete(r));
  page.on('requestfailed', (r) => {
    pending.delete(r);
    events.push(`failed ${r.method()} ${r.url()}: ${r.failure()?.errorText ?? ''}`);
  });
  page.on('response', (r) => {
    if (r.status() >= 400) events.push(`${r.status()} ${r.url()}`);
  });
  page.on('pageerror', (e) => events.push(`page error: ${String(e).slice(0, 300)}`));
  return () =>
    [...[...pending.values()].map((r) => `unanswered ${r}`), ...events.slice(-20)].join('\n') || '(nothing)';
}

export async function login(page: Page, base: string, password: string, path = '/login'): Promise<void> {
  await page.goto(`${base}${path}`);
  await page.getByPlaceholder('用户名').fill('  admin ');
  await page.getByPlaceholder('密码').fill(password);
  await page.getByRole('button', { name: /登\s*录/ }).click();
  await page.waitForURL((url) => url.pathname !== '/login', { timeout: 20_000 });
}

export async function tokenOf(context: BrowserContext): Promise<string | undefined> {
  const cookies = await context.cookies();
  const value = cookies.find((c) => c.name === 'Admin-Token')?.value;
  return value ? decodeURIComponent(value) : undefined;
}

/** A sealed call from the test itself (PROTOCOL.md §3), e.g. to revoke a session. */
export async function apiCall(
  base: string,
  path: string,
  token: string,
  body?: unknown,
): Promise<{ status: number; json: unknown }> {
  const keyRes = await fetch(`${base}/api/admin/portal/login/user/rsa/secretKey`, { method: 'POST' });
  const keyBody = (await keyRes.json()) as { data: { keyId: string; publicKey: string } };
  const key = await createClientKey(keyBody.data.keyId, await importRsaPublicKey(keyBody.data.publicKey));
  const target = `/api${path}`;
  const sealed = await sealRequest(key, 'POST', target, body);
  const res = await fetch(`${base}${target}`, {
    method: 'POST',
    headers: { ...sealed.headers, authorization: `Bearer ${token}` },
    body: sealed.body,
  });
  return { status: res.status, json: await res.json() };
}

/** The visible (active) page of the management layout's kept pages. */
export function activePage(page: Page, path: string) {
  return page.locator(`.keep-alive-page[data-page-path="${path}"]`);
}
