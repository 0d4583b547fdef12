/**
 * Browser soak: N headless Chromium contexts act as staff against one production server for a
 * while (sign in, open screens, open editors, save an interest rule, sign out), with sessions that
 * expire and an RSA key that rotates during the run. It counts what a user would call a stall:
 * calls without an answer after 10 s, screens still blank 10 s after navigating, console errors.
 *
 *   tsx bench/soak/browser-soak.ts [--contexts 8] [--minutes 10] [--think 4000] [--pg]
 *
 * Runs `apps/server/dist/main.js` (build first: `npm run build`) on PGlite, or on a fresh
 * PostgreSQL database with --pg (BENCH_DATABASE_URL, default the machine's). Writes
 * bench/results/browser-soak-<db>.json and prints a table for bench/README.md. Exit code 1 when
 * anything was counted.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page, type Request } from 'playwright-core';
import { MANAGEMENT_MENUS, type MenuDef } from '@portal/contract/menus';
import { CHROMIUM_ARGS } from '../../apps/server/src/platform/pdf';
import { freePort, freshDatabase } from '../load/server';

const argAfter = (flag: string) => {
  const i = process.argv.indexOf(flag);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const CONTEXTS = Math.max(1, Number(argAfter('--contexts') ?? 8));
const MINUTES = Math.max(0.5, Number(argAfter('--minutes') ?? 10));
const usePg = process.argv.includes('--pg');
const UNANSWERED_MS = 10_000;
/** A person reads a screen before the next click: 2 to 6 s between actions (--think 0 for none). */
const THINK_MS = Math.max(0, Number(argAfter('--think') ?? 4000));
const PASSWORD = 'Soak@12345678';

/** Screens of the management layout a user can open from the menu (leaves, not hidden). */
function screens(menus: readonly MenuDef[], out: string[] = []): string[] {
  for (const m of menus) {
    if (m.children?.length) screens(m.children, out);
    else if (!m.hidden && !m.redirect && !/^https?:/.test(m.path)) out.push(m.path);
  }
  return out;
}
const SCREENS = screens(MANAGEMENT_MENUS).filter(
  (p) => !p.startsWith('/dw') && !p.startsWith('/ec') && !p.startsWith('/fc'),
);
/** Lists whose 新增 opens an editor. */
const LISTS_WITH_EDITOR = [
  '/factoring/config/ruler',
  '/factoring/config/print',
  '/factoring/contract/info',
  '/factoring/accounts/income',
  '/permission/role',
];

interface Counts {
  actions: number;
  calls: number;
  unanswered: number;
  blankPages: number;
  consoleErrors: number;
  /** Steps that threw (an element not found in time): not stalls by themselves, but looked at. */
  stepFailures: number;
  navigations: number[];
  samples: string[];
}
const counts: Counts = {
  actions: 0,
  calls: 0,
  unanswered: 0,
  blankPages: 0,
  consoleErrors: 0,
  stepFailures: 0,
  navigations: [],
  samples: [],
};
const note = (what: string) => {
  if (counts.samples.length < 40) counts.samples.push(`${new Date().toISOString()} ${what}`);
  console.info(`[soak] ${what}`);
};

async function startServer(port: number, databaseUrl: string | undefined) {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-soak-'));
  const child = spawn(process.execPath, ['apps/server/dist/main.js'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_PASSWORD: PASSWORD,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn', // the watchdog writes at warn
      // Expiry and rotation happen during the run, not after it.
      SESSION_IDLE_MINUTES: '2',
      SESSION_ABSOLUTE_MINUTES: String(Math.max(3, Math.ceil(MINUTES / 3))),
      RSA_ROTATION_HOURS: String(Math.max(1, MINUTES / 4) / 60),
      RATE_LIMIT_PER_MINUTE: '0',
      // Every context signs in as admin, far more often than one person would.
      LOGIN_RATE_PER_USER_PER_MINUTE: '0',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr.on('data', (d: Buffer) => (log += d.toString()));
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`server exited:\n${log}`);
    const ok = await fetch(`${base}/api/admin/portal/login/user/rsa/secretKey`, { method: 'POST' })
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return { child, base, dataDir, log: () => log };
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error('server did not start');
}

/** What a page did lately (requests of every kind, navigations), printed when a step fails. */
type Timeline = string[];
const TIMELINE_LENGTH = 40;

/** Watches one page: every API call until it answers, console errors, page errors. */
function watch(page: Page, who: string, timeline: Timeline) {
  const pending = new Map<Request, { started: number; counted: boolean }>();
  const event = (what: string) => {
    timeline.push(`${new Date().toISOString().slice(11, 23)} ${what}`);
    if (timeline.length > TIMELINE_LENGTH) timeline.shift();
  };
  const path = (r: Request) =>
    r
      .url()
      .replace(/^https?:\/\/[^/]+/, '')
      .slice(0, 90);
  const started = new Map<Request, number>();
  page.on('request', (r) => {
    started.set(r, Date.now());
    event(`→ ${path(r)}`);
    if (!r.url().includes('/api/')) return;
    counts.calls++;
    pending.set(r, { started: Date.now(), counted: false });
  });
  page.on('response', (r) => {
    const t = started.get(r.request());
    event(`← ${r.status()} ${path(r.request())} ${t ? Date.now() - t : '?'} ms`);
  });
  page.on('framenavigated', (f) => {
    if (f === page.mainFrame()) event(`navigated ${f.url().replace(/^https?:\/\/[^/]+/, '')}`);
  });
  const done = (r: Request) => {
    pending.delete(r);
    started.delete(r);
  };
  page.on('requestfinished', done);
  page.on('requestfailed', (r) => {
    // A navigation away cancels the page's calls: that is not a stall.
    if (r.failure()?.errorText !== 'net::ERR_ABORTED')
      note(`${who} failed ${r.url()} ${r.failure()?.errorText}`);
    event(`✗ ${path(r)} ${r.failure()?.errorText}`);
    done(r);
  });
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    // The browser's own line for an answer of 403 when the session has expired: the app handles it.
    if (/status of 403/.test(m.text())) return;
    counts.consoleErrors++;
    note(`${who} console error: ${m.text().slice(0, 300)}`);
  });
  page.on('pageerror', (e) => {
    counts.consoleErrors++;
    note(`${who} page error: ${String(e).slice(0, 300)}`);
  });
  const timer = setInterval(() => {
    const now = Date.now();
    for (const [r, p] of pending) {
      if (!p.counted && now - p.started > UNANSWERED_MS) {
        p.counted = true;
        counts.unanswered++;
        note(`${who} unanswered after 10 s: ${r.method()} ${r.url()}`);
      }
    }
  }, 1000);
  return () => clearInterval(timer);
}

/** The screen shows something: the login form, or the layout with a page in it. */
async function notBlank(page: Page, who: string, what: string): Promise<void> {
  const t = Date.now();
  // Blank: the root loader (the session guard) has not let the router render anything yet.
  const ok = await page
    .waitForFunction(() => (document.getElementById('root')?.innerText.trim().length ?? 0) > 0, undefined, {
      timeout: UNANSWERED_MS,
    })
    .then(() => true)
    .catch(() => false);
  if (ok) {
    counts.navigations.push(Date.now() - t);
    return;
  }
  counts.blankPages++;
  const shot = join('bench/results', `soak-blank-${Date.now()}.png`);
  await page.screenshot({ path: shot }).catch(() => undefined);
  note(`${who} blank 10 s after ${what} (${page.url()}), screenshot ${shot}`);
}

async function signIn(page: Page, base: string, who: string): Promise<void> {
  if (!page.url().includes('/login')) await page.goto(`${base}/login`);
  await notBlank(page, who, 'opening /login');
  await page.getByPlaceholder('用户名').fill('admin');
  await page.getByPlaceholder('密码').fill(PASSWORD);
  await page.getByRole('button', { name: /登\s*录/ }).click();
  await page.waitForURL((u) => u.pathname !== '/login', { timeout: 20_000 });
}

const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)]!;
const think = () => new Promise((r) => setTimeout(r, THINK_MS * (0.5 + Math.random())));

async function staff(browser: Browser, base: string, n: number, deadline: number): Promise<void> {
  const who = `staff${n}`;
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  const timeline: Timeline = [];
  const stop = watch(page, who, timeline);
  try {
    for (let step = 0; Date.now() < deadline; step++) {
      if (step > 0) await think();
      counts.actions++;
      try {
        // The first step, and an expired session landing on /login: sign in, as a person would.
        if (page.url() === 'about:blank' || new URL(page.url()).pathname === '/login') {
          await signIn(page, base, who);
          continue;
        }
        const roll = Math.random();
        if (roll < 0.6) {
          const path = pick(SCREENS);
          await page.goto(`${base}${path}`);
          await notBlank(page, who, `goto ${path}`);
        } else if (roll < 0.8) {
          const path = pick(LISTS_WITH_EDITOR);
          await page.goto(`${base}${path}`);
          await notBlank(page, who, `goto ${path}`);
          const add = page
            .locator(`.keep-alive-page[data-page-path="${path}"]`)
            .getByRole('button', { name: /新\s*增/ });
          await add.first().click({ timeout: 10_000 });
          await page.waitForURL((u) => u.pathname !== path, { timeout: 10_000 }).catch(() => undefined);
          await notBlank(page, who, `新增 on ${path}`);
          // A list whose 新增 opens a dialog instead of a page (角色管理): close it, as a person would.
          await page.keyboard.press('Escape');
        } else if (roll < 0.95) {
          await saveRule(page, base, who);
        } else {
          await page.getByTestId('user-menu').click();
          await page.getByRole('menuitem', { name: '退出登录' }).click();
          await page.waitForURL((u) => u.pathname === '/login', { timeout: 10_000 });
          await signIn(page, base, who);
        }
      } catch (err) {
        // A step that failed for a reason already counted (or an expired session mid-step) is not
        // itself a stall; the next step starts from wherever the page is.
        counts.stepFailures++;
        const shot = join('bench/results', `soak-step-${Date.now()}.png`);
        await page.screenshot({ path: shot }).catch(() => undefined);
        note(`${who} step failed on ${page.url()}: ${String(err).split('\n')[0]!.slice(0, 200)} (${shot})`);
        console.info(`[soak] ${who} timeline before the failure:\n  ${timeline.join('\n  ')}`);
      }
    }
  } finally {
    stop();
    await context.close();
  }
}

/** 计息规则 新增 → fill → 保存 → back on the list. */
async function saveRule(page: Page, base: string, who: string): Promise<void> {
  await page.goto(`${base}/factoring/config/ruler-editor`);
  await notBlank(page, who, 'opening the rule editor');
  // The session expired on the way: the loop signs in again.
  if (new URL(page.url()).pathname === '/login') return;
  const editor = page.locator('.keep-alive-page[data-page-path="/factoring/config/ruler-editor"]');
  await editor.locator('#ruler_name').fill(`浸泡测试-${who}-${Date.now()}`);
  await editor.locator('#ruler_method').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option[title="等额本息"]').click();
  await editor.locator('#ruler_annualRatePct').fill('6');
  const t = Date.now();
  await editor.getByRole('button', { name: /保\s*存/ }).click();
  await page
    .waitForURL((u) => u.pathname === '/factoring/config/ruler' || u.pathname === '/login', {
      timeout: UNANSWERED_MS,
    })
    .catch(() => {
      counts.blankPages++;
      note(`${who} rule save did not return to the list within 10 s`);
    });
  counts.navigations.push(Date.now() - t);
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))]! : 0;
};

mkdirSync('bench/results', { recursive: true });
const port = await freePort();
const server = await startServer(port, await freshDatabase(!usePg));
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
const started = Date.now();
const deadline = started + MINUTES * 60_000;
try {
  await Promise.all(Array.from({ length: CONTEXTS }, (_, i) => staff(browser, server.base, i + 1, deadline)));
} finally {
  await browser.close();
  server.child.kill('SIGTERM');
  await new Promise((r) => server.child.once('exit', r));
  // The server's own account (watchdog lines: slow requests with their SQL, event-loop blocks).
  writeFileSync(`bench/results/browser-soak-${usePg ? 'postgres' : 'pglite'}-server.log`, server.log());
  rmSync(server.dataDir, { recursive: true, force: true });
}
const result = {
  database: usePg ? 'postgres' : 'pglite',
  contexts: CONTEXTS,
  minutes: MINUTES,
  actions: counts.actions,
  calls: counts.calls,
  unanswered: counts.unanswered,
  blankPages: counts.blankPages,
  consoleErrors: counts.consoleErrors,
  stepFailures: counts.stepFailures,
  navigationP50Ms: quantile(counts.navigations, 0.5),
  navigationP99Ms: quantile(counts.navigations, 0.99),
  samples: counts.samples,
};
writeFileSync(`bench/results/browser-soak-${result.database}.json`, JSON.stringify(result, null, 2));
console.info(
  `| ${result.database} | ${CONTEXTS} | ${MINUTES} min | ${result.actions} | ${result.calls} | ${result.unanswered} | ${result.blankPages} | ${result.consoleErrors} | ${result.stepFailures} | ${result.navigationP50Ms} / ${result.navigationP99Ms} ms |`,
);
process.exit(result.unanswered + result.blankPages + result.consoleErrors > 0 ? 1 : 0);
