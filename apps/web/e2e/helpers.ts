import { mkdirSync, readFileSync } from 'node:fs';
import { expect, inject } from 'vitest';
import { resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { createClientKey, importRsaPublicKey, sealRequest } from '@portal/contract/envelope';
import { AUTH_PATHS, type LoginResult } from '@portal/contract/session';

/**
 * Debian's chromium; never a downloaded browser. `E2E_NETLOG=<dir>` writes Chromium's own network
 * log there (one file per browser), to tell a request held in the browser from one held by the
 * server when hunting a stall.
 */
export function launchBrowser(): Promise<Browser> {
  const netLogDir = process.env.E2E_NETLOG;
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...(netLogDir ? [`--log-net-log=${netLogDir}/netlog-${process.pid}-${Date.now()}.json`] : []),
    ],
  });
}

/**
 * The server of this file's worker (global-setup.ts starts one per worker; VITEST_POOL_ID is the
 * worker's number from 1): a file shares it only with the files that ran before it on this worker.
 */
export const server = ((servers) =>
  servers[(Number(process.env.VITEST_POOL_ID ?? '1') - 1) % servers.length]!)(inject('servers'));
/** Where this file's server answers, e.g. `${base}/login`. */
export const base = server.baseUrl;

export const SHOTS_DIR = resolve(import.meta.dirname, '../test-results');
mkdirSync(SHOTS_DIR, { recursive: true });

export function shotPath(name: string): string {
  return resolve(SHOTS_DIR, name);
}

/** Every open page of the running test with its timeline, for the report of a failure (on-failure.ts). */
export const livePages = new Map<Page, () => string>();
/**
 * What the running test's closed pages showed when they were closed. A test closes its context in
 * `finally`, before a failure is reported: without this, the page that stalled was gone by then.
 */
export const closedPages: string[] = [];

export async function newPage(
  browser: Browser,
  width = 1366,
  height = 860,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: { width, height },
    locale: 'zh-CN',
    // The portal honours reduced motion (docs/architecture.md "What the browser tests do not wait
    // for"): no dialog, popup or sidebar to wait out before a click. E2E_MOTION=1: with the motions.
    reducedMotion: process.env.E2E_MOTION ? 'no-preference' : 'reduce',
  });
  const page = await context.newPage();
  const timeline = recordTimeline(page);
  livePages.set(page, timeline);
  const close = context.close.bind(context);
  context.close = async (options) => {
    if (!page.isClosed()) {
      const text = await page
        .evaluate(() => {
          // The toasts and form errors first: they say why a save went nowhere.
          const said = [
            ...document.querySelectorAll(
              '.ant-message-notice, .ant-notification-notice, .ant-form-item-explain-error',
            ),
          ]
            .map((e) => (e as HTMLElement).innerText)
            .join(' | ');
          return `${said ? `[${said}] ` : ''}${document.body?.innerText.replace(/\s+/g, ' ').slice(0, 300) ?? ''}`;
        })
        .catch(() => '?');
      closedPages.push(`closed at ${page.url()}, showing: ${text}\n${timeline()}`);
    }
    return close(options);
  };
  page.once('close', () => livePages.delete(page));
  return { context, page };
}

/**
 * The page's last requests (with how long each took, or that it is still open), navigations and
 * errors, with times: what a stalled step was waiting for.
 */
function recordTimeline(page: Page): () => string {
  const lines: string[] = [];
  const opened = new Map<object, number>();
  const at = () => new Date().toISOString().slice(11, 23);
  const add = (line: string) => {
    lines.push(`${at()} ${line}`);
    if (lines.length > 60) lines.shift();
  };
  const path = (url: string) => url.replace(/^https?:\/\/[^/]+/, '').slice(0, 100);
  page.on('request', (r) => {
    opened.set(r, Date.now());
    if (r.resourceType() === 'fetch' || r.resourceType() === 'document') add(`→ ${path(r.url())}`);
  });
  page.on('requestfinished', async (r) => {
    const t = opened.get(r);
    opened.delete(r);
    if (r.resourceType() !== 'fetch' && r.resourceType() !== 'document') return;
    const response = await r.response().catch(() => null);
    const status = response?.status() ?? '?';
    // A refusal's message says why (a toast is gone long before the report is written).
    const said =
      response && response.status() >= 400
        ? ` ${(await response.text().catch(() => '')).replace(/\s+/g, ' ').slice(0, 200)}`
        : '';
    add(`← ${status} ${path(r.url())} ${t ? Date.now() - t : '?'} ms${said}`);
  });
  page.on('requestfailed', async (r) => {
    const t = opened.get(r);
    opened.delete(r);
    const error = r.failure()?.errorText ?? '';
    // A navigation aborts the chunks the page was still loading: noise, unless a call was cut.
    if (error === 'net::ERR_ABORTED' && r.resourceType() !== 'fetch') return;
    // Chromium reports a bodiless 304 of an uncached fetch (the bell's poll) as aborted after its
    // answer; the page's fetch resolved with the 304 (docs/protocol.md "Conditional GET").
    const answered = await r.response().catch(() => null);
    if (answered?.status() === 304) {
      add(`← 304 ${path(r.url())} ${t ? Date.now() - t : '?'} ms`);
      return;
    }
    add(`✗ ${path(r.url())} ${error}`);
  });
  page.on('framenavigated', (f) => {
    if (f === page.mainFrame()) add(`navigated ${path(f.url())}`);
  });
  page.on('pageerror', (e) => add(`page error: ${String(e).slice(0, 300)}`));
  page.on('console', (m) => {
    if (m.type() === 'error') add(`console: ${m.text().slice(0, 300)}`);
  });
  return () => {
    const now = Date.now();
    const open = [...opened.entries()].map(
      ([r, t]) => `still open after ${now - t} ms: ${path((r as { url(): string }).url())}`,
    );
    return [...lines, ...open].join('\n');
  };
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

/** The session's cookie, as the web app writes it (src/shared/auth/token.ts). */
const SESSION_COOKIE = 'Admin-Token';

/**
 * A new session of `userName` through the API (the login form's call, sealed): its token, for a
 * test's own API calls or a page's cookie (`signIn`). A session of its own each time, as a form's
 * login is: a test that logs out or revokes its session takes no other test's with it.
 */
export async function sessionToken(password: string, userName = 'admin'): Promise<string> {
  const res = await apiCall(base, AUTH_PATHS.login, '', { userName, passWord: password, userType: '2' });
  const json = res.json as { status: number; msg: string; data: LoginResult };
  if (json.status !== 200) throw new Error(`login of ${userName}: ${json.status} ${json.msg}`);
  return json.data.accessToken;
}

/**
 * Signs `context` in as `userName` without opening a page: a new session (`sessionToken`) in the
 * cookie the login page would set. For the tests of something else than the login form, whose
 * next step opens a screen: the form's login (`login`, tested in shell.e2e.ts) loads the login
 * page and then the dashboard, which that next step leaves unused (docs/architecture.md
 * "What the browser tests do not wait for"). Answers the session's token.
 */
export async function signIn(context: BrowserContext, password: string, userName = 'admin'): Promise<string> {
  const token = await sessionToken(password, userName);
  await context.addCookies([{ name: SESSION_COOKIE, value: encodeURIComponent(token), url: base }]);
  return token;
}

export async function tokenOf(context: BrowserContext): Promise<string | undefined> {
  const cookies = await context.cookies();
  const value = cookies.find((c) => c.name === SESSION_COOKIE)?.value;
  return value ? decodeURIComponent(value) : undefined;
}

/**
 * A sealed call from the test itself (docs/protocol.md "The envelope"), e.g. to revoke a session;
 * with an empty `token`, a public one (the login).
 */
export async function apiCall(
  base: string,
  path: string,
  token: string,
  body?: unknown,
): Promise<{ status: number; json: unknown }> {
  const keyRes = await fetch(`${base}/api${AUTH_PATHS.rsaKey}`, { method: 'POST' });
  const keyBody = (await keyRes.json()) as { data: { keyId: string; publicKey: string } };
  const key = await createClientKey(keyBody.data.keyId, await importRsaPublicKey(keyBody.data.publicKey));
  const target = `/api${path}`;
  const sealed = await sealRequest(key, 'POST', target, body);
  const res = await fetch(`${base}${target}`, {
    method: 'POST',
    headers: token ? { ...sealed.headers, authorization: `Bearer ${token}` } : sealed.headers,
    body: sealed.body,
  });
  return { status: res.status, json: await res.json() };
}

/** The visible (active) page of the management layout's kept pages. */
export function activePage(page: Page, path: string) {
  return page.locator(`.keep-alive-page[data-page-path="${path}"]`);
}

/**
 * Opens `path` in the app already running in `page`, without loading the app again: the router's
 * own navigation, as the browser's back and forward buttons start it (the history entry, then the
 * `popstate` the router listens to). A `goto` loads the whole app for each screen (its chunks,
 * antd's styles, the session, the layout); a test walking many screens waited mostly for that
 * (docs/architecture.md "What the browser tests do not wait for"). The entry carries the index the
 * router numbers its entries by, so the router sees one step forward, as it does its own (a blocker
 * needs the step). Resolves when the page at `path` shows and nothing on the page moves. The
 * management layout keeps the page of every tab visited mounted, hidden: look within
 * `activePage(page, path)`.
 */
export async function navigateInApp(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    const at = (history.state as { idx?: unknown } | null)?.idx;
    const idx = typeof at === 'number' ? at + 1 : 0;
    history.pushState({ usr: null, key: Math.random().toString(36).slice(2, 10), idx }, '', to);
    dispatchEvent(new PopStateEvent('popstate', { state: history.state }));
  }, path);
  await activePage(page, new URL(path, base).pathname).waitFor({ timeout: 20_000 });
  await animationsDone(page);
}

/**
 * A field of a list's search form, found by its label within `scope` (the visible page): never by
 * its element id, which the form's page-scoped name prefixes (shared/form/form-name.ts).
 */
export function searchField(scope: Locator, label: string): Locator {
  return scope.locator('.list-page__search').getByLabel(label, { exact: true });
}

/** A tab of the management layout's tags view. */
export function tagOf(page: Page, path: string) {
  return page.locator(`.tags-view-item[data-path="${path}"]`);
}

/**
 * Waits until the screen shows `path` as its active tab and nothing in the layout still moves.
 * The URL changes first: the router renders the new screen in a transition, once its chunk has
 * loaded (half a second on a busy machine), and only then does the layout change (a section
 * without children drops the sidebar and the tab strip slides left; the active tab widens). A
 * click aimed in between lands where a tab was (docs/architecture.md "A tab strip that moves").
 */
export async function screenShows(page: Page, path: string): Promise<void> {
  await page.waitForURL((u) => u.pathname === path);
  await page.waitForFunction(
    (p) =>
      document.querySelector(`.tags-view-item[data-path="${p}"]`)?.getAttribute('aria-selected') === 'true',
    path,
  );
  await activePage(page, path).waitFor({ state: 'visible' });
  // The sidebar's collapse is a CSS transition.
  await animationsDone(page);
}

/**
 * Waits for the page's running finite animations and transitions to end (spinners run for ever
 * and are left out, as are paused ones): a popup still sliding in or out moves what is under the pointer between a press and
 * its release, and the click lands on whatever is there then (docs/architecture.md "A tab strip
 * that moves").
 */
export async function animationsDone(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter(
          (a) =>
            a.playState === 'running' && Number.isFinite(a.effect?.getComputedTiming().endTime ?? Infinity),
        )
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
}

/**
 * Waits until `target` (a dialog, a popup) has ended its antd opening or closing motion. rc-motion
 * first holds the element at its final place, invisible, for a few frames (the `-prepare` and
 * `-start` phases: 0.6 s with the CPU slowed 4×) and only then starts the zoom or slide from its
 * first frame. Playwright finds it stable there and presses; the animation then moves it away, and
 * the release lands on the mask (docs/architecture.md "A tab strip that moves"). No animation runs
 * in those phases, so animationsDone alone does not see them: the motion class does.
 */
export async function motionDone(target: Locator): Promise<void> {
  await target.waitFor();
  await target
    .page()
    .waitForFunction(
      (el) =>
        !!el &&
        !/(^|\s)ant-[\w-]+-(appear|enter|leave)(\s|$)/.test(el.className) &&
        el
          .getAnimations({ subtree: true })
          .every(
            (a) =>
              a.playState !== 'running' ||
              !Number.isFinite(a.effect?.getComputedTiming().endTime ?? Infinity),
          ),
      await target.elementHandle(),
      { polling: 'raf' },
    );
}

/** Clicks a tab of the tags view, as a user would once the screen in front of them has settled. */
export async function switchTab(page: Page, path: string): Promise<void> {
  await tagOf(page, path).click();
  await screenShows(page, path);
}

/**
 * The download a click starts, saved under test-results as `name` (which the server must have
 * suggested) and read back with ExcelJS: the first sheet's rows, each as its cells' values.
 */
export async function downloadXlsx(
  page: Page,
  click: () => Promise<void>,
  name: string,
): Promise<unknown[][]> {
  const downloading = page.waitForEvent('download');
  await click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(name);
  const path = shotPath(name);
  await download.saveAs(path);
  // Imported here, not with this module: every file's worker imports this module (on-failure.ts),
  // and most files read no download (bench/README.md "Fourteenth pass").
  const { default: ExcelJS } = await import('exceljs');
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(readFileSync(path) as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  wb.worksheets[0]!.eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
  return rows;
}
