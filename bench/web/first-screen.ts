/**
 * The first screen in bytes and round trips (issue 42 §4, bench/README.md "First screen"): what
 * the browser fetches from the address bar until the login page, the contract list's first row and
 * the dashboard's first figure are on screen, each in a new browser context (cold cache; the list
 * and the dashboard with a session in it). Both figures are machine-independent, so they are
 * budgets and the run exits 1 when one is broken:
 * - the JavaScript and CSS fetched, gzip (each file compressed here at level 9, as a server would);
 * - sequential round trips: every request gets an emulated latency of `--latency` ms (default
 *   200), so requests sent within that time of each other overlap, and a request counts one round
 *   trip more than the deepest request that had ended before it was sent. Counted over every
 *   request (document, scripts, API) and over API calls alone.
 * Times are printed (with the latency in them), never asserted. Usage, after `npm run build`:
 * tsx bench/web/first-screen.ts [--pglite] [--latency 200]. Writes bench/results/web-first-screen.json.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type BrowserContext, type Request, type Route } from 'playwright-core';
import { freePort, freshDatabase, startServer } from '../load/server';
import { signInAsAdmin } from './session';

const KB = 1024;
/** Budgets (bench/README.md "First screen"). */
const BUDGETS = {
  loginJsGzip: 150 * KB,
  /** API calls one after another before the list's first row / the dashboard's figures. */
  apiRoundTrips: 2,
};

const argAfter = (flag: string) => {
  const i = process.argv.indexOf(flag);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const latency = Math.max(50, Number(argAfter('--latency') ?? 200) || 200);
const usePglite = process.argv.includes('--pglite');
const dist = 'apps/web/dist';
if (!existsSync(join(dist, 'index.html'))) {
  console.error('apps/web/dist is missing: run `npm run build -w @portal/web` first');
  process.exit(1);
}

interface Fetched {
  path: string;
  kind: 'document' | 'script' | 'css' | 'api' | 'other';
  sent: number;
  ended: number;
  gzip: number;
  /** Round trips up to and including this one: over every request, over API calls only. */
  depth: number;
  apiDepth: number;
}

const gzipOfFile = new Map<string, number>();
function gzipOf(path: string): number {
  let size = gzipOfFile.get(path);
  if (size === undefined) {
    const file = join(dist, path === '/' || !path.includes('.') ? 'index.html' : path);
    size = existsSync(file) ? gzipSync(readFileSync(file), { level: 9 }).length : 0;
    gzipOfFile.set(path, size);
  }
  return size;
}

function kindOf(path: string, resourceType: string): Fetched['kind'] {
  if (path.startsWith('/api/')) return 'api';
  if (resourceType === 'Document') return 'document';
  if (path.endsWith('.js')) return 'script';
  if (path.endsWith('.css')) return 'css';
  return 'other';
}

/**
 * Opens `url` in `context` under the emulated latency, waits for `visible`, and returns every
 * request that had ended by then, with its round-trip depth.
 */
async function firstScreen(
  context: BrowserContext,
  url: string,
  visible: string,
): Promise<{ ms: number; fetched: Fetched[] }> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  const open = new Map<string, { path: string; type: string; sent: number }>();
  const ended: { path: string; type: string; sent: number; ended: number }[] = [];
  cdp.on('Network.requestWillBeSent', (e) => {
    const u = new URL(e.request.url);
    // The browser's own favicon request comes after the page, and nothing waits for it.
    if (u.protocol.startsWith('http') && u.pathname !== '/favicon.ico')
      open.set(e.requestId, { path: u.pathname, type: e.type ?? '', sent: e.timestamp });
  });
  cdp.on('Network.loadingFinished', (e) => {
    const r = open.get(e.requestId);
    if (r) ended.push({ ...r, ended: e.timestamp });
    open.delete(e.requestId);
  });
  const t = performance.now();
  await page.goto(url);
  await page.locator(visible).first().waitFor({ timeout: 60_000 });
  const ms = Math.round(performance.now() - t);
  // What ended by now is what the screen could have waited for (a call still open did not hold it).
  const done = [...ended].sort((a, b) => a.sent - b.sent);
  const fetched: Fetched[] = [];
  for (const r of done) {
    const before = fetched.filter((q) => q.ended <= r.sent);
    const kind = kindOf(r.path, r.type);
    fetched.push({
      path: r.path,
      kind,
      sent: r.sent,
      ended: r.ended,
      gzip: kind === 'api' ? 0 : gzipOf(r.path),
      depth: 1 + Math.max(0, ...before.map((q) => q.depth)),
      apiDepth: (kind === 'api' ? 1 : 0) + Math.max(0, ...before.map((q) => q.apiDepth)),
    });
  }
  await cdp.detach();
  await page.close();
  return { ms, fetched };
}

/** How long the page must send nothing new, its files all in, before the held API calls go on. */
const QUIET_MS = 1500;

/**
 * The API calls before `visible`, in waves of calls that wait for nothing but the waves before
 * (machine-independent, unlike times): every API call is held; when the page has been quiet for
 * QUIET_MS (no new request, no file still loading) and its main thread is idle, the calls held
 * are one wave, and are let through together. Files are never held.
 */
async function apiWaves(context: BrowserContext, url: string, visible: string): Promise<string[][]> {
  const page = await context.newPage();
  const held: Route[] = [];
  let files = 0;
  let last = performance.now();
  const isApi = (u: string) => new URL(u).pathname.startsWith('/api/');
  page.on('request', (r) => {
    last = performance.now();
    if (!isApi(r.url())) files++;
  });
  const fileDone = (r: Request) => {
    last = performance.now();
    if (!isApi(r.url())) files--;
  };
  page.on('requestfinished', fileDone);
  page.on('requestfailed', fileDone);
  await page.route(
    (u) => u.pathname.startsWith('/api/'),
    (route) => {
      held.push(route);
    },
  );
  let shown = false;
  const seen = page
    .locator(visible)
    .first()
    .waitFor({ timeout: 120_000 })
    .then(() => (shown = true));
  seen.catch(() => undefined);
  await page.goto(url);
  const waves: string[][] = [];
  while (!shown) {
    await new Promise((r) => setTimeout(r, 100));
    if (held.length && files === 0 && performance.now() - last > QUIET_MS) {
      // Quiet on the wire is not enough on a loaded machine: the render that sends the next call
      // (the layout's message count after the session) may still be running. Released only once
      // the page's main thread is idle too, and nothing new was sent meanwhile.
      const before = last;
      await page.evaluate('new Promise((r) => requestIdleCallback(() => r(null)))');
      if (last !== before) continue;
      const wave = held.splice(0);
      waves.push(wave.map((r) => new URL(r.request().url()).pathname.replace(/^\/api/, '')));
      for (const r of wave) await r.continue();
    }
    if (waves.length > 10) throw new Error(`${url}: more than 10 waves of API calls`);
  }
  await seen;
  await page.unroute('**');
  for (const r of held.splice(0)) await r.continue().catch(() => undefined);
  await page.close();
  return waves;
}

interface Summary {
  ms: number;
  requests: number;
  jsGzip: number;
  cssGzip: number;
  roundTrips: number;
  apiRoundTrips: number;
  chain: string[];
  /** The API calls in waves (`apiWaves`), when measured. */
  waves?: string[][];
  fetched: { path: string; depth: number; apiDepth: number }[];
}

function summarise({ ms, fetched }: { ms: number; fetched: Fetched[] }): Summary {
  const sum = (kind: Fetched['kind']) =>
    fetched.filter((f) => f.kind === kind).reduce((s, f) => s + f.gzip, 0);
  const roundTrips = Math.max(0, ...fetched.map((f) => f.depth));
  // Each round trip with what was fetched in it, API calls marked.
  const chain: string[] = [];
  for (let d = 1; d <= roundTrips; d++) {
    const at = fetched.filter((f) => f.depth === d);
    const api = at.filter((f) => f.kind === 'api').map((f) => f.path.replace(/^\/api/, ''));
    const other = at.filter((f) => f.kind !== 'api');
    const files = other.length > 3 ? [`${other.length} files`] : other.map((f) => f.path);
    chain.push(`${d}: ${[...files, ...api].join(', ')}`);
  }
  return {
    ms,
    requests: fetched.length,
    jsGzip: sum('script'),
    cssGzip: sum('css'),
    roundTrips,
    apiRoundTrips: Math.max(0, ...fetched.map((f) => f.apiDepth)),
    chain,
    fetched: fetched.map(({ path, depth, apiDepth }) => ({ path, depth, apiDepth })),
  };
}

const VIEWPORT = { viewport: { width: 1440, height: 900 }, locale: 'zh-CN' };
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = await startServer(port, await freshDatabase(usePglite), '0.05');
let browser: Browser | undefined;
const results: Record<string, Summary> = {};
try {
  browser = await chromium.launch({
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
  const b = browser;
  const login = await b.newContext(VIEWPORT);
  results['login page'] = summarise(await firstScreen(login, `${base}/login`, 'button[type=submit]'));
  // A session for the other two (signed in without the latency).
  const page = await login.newPage();
  await signInAsAdmin(page, base);
  const storageState = await login.storageState();
  await login.close();
  const withSession = async (url: string, visible: string) => {
    const context = await b.newContext({ ...VIEWPORT, storageState });
    const again = await b.newContext({ ...VIEWPORT, storageState });
    try {
      const summary = summarise(await firstScreen(context, url, visible));
      return { ...summary, waves: await apiWaves(again, url, visible) };
    } finally {
      await context.close();
      await again.close();
    }
  };
  results['contract list first row'] = await withSession(`${base}/factoring/contract/info`, '.ant-table-row');
  results['dashboard figures'] = await withSession(
    `${base}/dashboard`,
    '[data-testid="widget-portfolio"] .ant-statistic',
  );
} finally {
  await browser?.close();
  server.kill('SIGTERM');
}

const fmt = (n: number) => `${(n / KB).toFixed(1)} KB`;
console.info(`emulated latency ${latency} ms per request, cold cache`);
for (const [name, s] of Object.entries(results)) {
  console.info(
    `${name.padEnd(26)} JS ${fmt(s.jsGzip).padStart(9)} gzip, CSS ${fmt(s.cssGzip).padStart(9)} gzip, ` +
      `${String(s.requests).padStart(3)} requests, ${s.roundTrips} round trips (${s.apiRoundTrips} API), ${s.ms} ms`,
  );
  for (const line of s.chain) console.info(`    ${line}`);
  if (s.waves) {
    console.info(`  API calls in waves (each waits only for the waves before): ${s.waves.length}`);
    s.waves.forEach((w, i) => console.info(`    ${i + 1}: ${w.join(', ')}`));
  }
}
mkdirSync('bench/results', { recursive: true });
writeFileSync(
  'bench/results/web-first-screen.json',
  JSON.stringify({ date: new Date().toISOString(), latency, budgets: BUDGETS, results }, null, 2),
);
const broken: string[] = [];
const loginJs = results['login page']?.jsGzip ?? Infinity;
if (loginJs > BUDGETS.loginJsGzip)
  broken.push(`login page JavaScript ${fmt(loginJs)} gzip > ${fmt(BUDGETS.loginJsGzip)}`);
for (const name of ['contract list first row', 'dashboard figures']) {
  const api = results[name]?.waves?.length ?? Infinity;
  if (api > BUDGETS.apiRoundTrips)
    broken.push(`${name}: ${api} sequential API round trips > ${BUDGETS.apiRoundTrips}`);
}
for (const line of broken) console.error(`budget broken: ${line}`);
process.exit(broken.length ? 1 : 0);
