/**
 * One cold load traced (issue 42 §4, bench/README.md "First screen"): the login page, the contract
 * list's first row and the dashboard's first figure, each in a new context (the list and the
 * dashboard with a session), `--runs` times in turn. Prints, per screen, the medians of: the time
 * to the screen, the main thread's busy time by kind (Chrome's Performance.getMetrics: script,
 * layout, style, all tasks), and when the last file and the last API call before the screen ended.
 * Those are wall time, stretched by a loaded machine; `rendererCpu` and `allCpu` are the CPU time
 * the page's renderer processes and all of Chromium's processes used until the screen was up
 * (SystemInfo.getProcessInfo, 10 ms steps): the figures to compare when the machine is shared.
 * Usage, after `npm run build`: tsx bench/web/trace-one.ts [--pglite] [--runs 5].
 */
import { loadavg } from 'node:os';
import { chromium, type Browser, type BrowserContext, type CDPSession } from 'playwright-core';
import { freePort, freshDatabase, startServer } from '../load/server';
import { signInAsAdmin } from './session';

const argAfter = (flag: string) => {
  const i = process.argv.indexOf(flag);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const runs = Math.max(1, Math.floor(Number(argAfter('--runs') ?? 5)) || 1);
const usePglite = process.argv.includes('--pglite');
const profile = process.argv.includes('--profile');
const byFunction = process.argv.includes('--by-function');
const selfByFile = new Map<string, number>();
const VIEWPORT = { viewport: { width: 1440, height: 900 }, locale: 'zh-CN' };
const METRICS = ['TaskDuration', 'ScriptDuration', 'LayoutDuration', 'RecalcStyleDuration'] as const;

type Sample = Record<string, number>;

/** Chromium's processes, for their CPU time (set once the browser is up). */
let processes: CDPSession | undefined;

/** CPU seconds used so far by the renderer processes and by all of Chromium's processes. */
async function cpuTimes(): Promise<{ renderer: number; all: number }> {
  const { processInfo } = (await processes!.send('SystemInfo.getProcessInfo')) as {
    processInfo: { type: string; cpuTime: number }[];
  };
  let renderer = 0;
  let all = 0;
  for (const p of processInfo) {
    all += p.cpuTime;
    if (p.type === 'renderer') renderer += p.cpuTime;
  }
  return { renderer, all };
}

async function traced(context: BrowserContext, url: string, visible: string): Promise<Sample> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  if (profile) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  const files: number[] = [];
  const api: number[] = [];
  let requests = 0;
  const cpuBefore = await cpuTimes();
  const t = performance.now();
  page.on('requestfinished', (r) => {
    const at = performance.now() - t;
    requests++;
    (new URL(r.url()).pathname.startsWith('/api/') ? api : files).push(at);
  });
  await page.goto(url);
  await page.locator(visible).first().waitFor({ timeout: 60_000 });
  const ms = performance.now() - t;
  const cpuAfter = await cpuTimes();
  const { metrics } = await cdp.send('Performance.getMetrics');
  if (profile) {
    const { profile: p } = await cdp.send('Profiler.stop');
    const byId = new Map(p.nodes.map((n) => [n.id, n]));
    const dt = new Map<number, number>();
    (p.samples ?? []).forEach((id, i) => dt.set(id, (dt.get(id) ?? 0) + (p.timeDeltas?.[i] ?? 0) / 1000));
    for (const [id, ms] of dt) {
      const f = byId.get(id)!.callFrame;
      const file =
        (f.url.replace(/^.*\//, '') || '(' + f.functionName + ')') +
        (byFunction ? ` ${f.functionName}:${f.lineNumber}:${f.columnNumber}` : '');
      selfByFile.set(
        `${url.replace(/^.*\/\/[^/]+/, '')} ${file}`,
        (selfByFile.get(`${url.replace(/^.*\/\/[^/]+/, '')} ${file}`) ?? 0) + ms,
      );
    }
  }
  const m = Object.fromEntries(metrics.map((x) => [x.name, x.value]));
  await page.close();
  const out: Sample = { screen: ms, requests, lastFile: Math.max(0, ...files.filter((f) => f <= ms)) };
  out.lastApi = Math.max(0, ...api.filter((f) => f <= ms));
  out.rendererCpu = (cpuAfter.renderer - cpuBefore.renderer) * 1000;
  out.allCpu = (cpuAfter.all - cpuBefore.all) * 1000;
  for (const k of METRICS) out[k] = (m[k] ?? 0) * 1000;
  return out;
}

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = await startServer(port, await freshDatabase(usePglite), '0.05');
let browser: Browser | undefined;
const samples: Record<string, Sample[]> = { login: [], list: [], dashboard: [] };
const loadBefore = loadavg()[0]!.toFixed(1);
try {
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const b = browser;
  processes = await b.newBrowserCDPSession();
  const first = await b.newContext(VIEWPORT);
  const page = await first.newPage();
  await signInAsAdmin(page, base);
  const storageState = await first.storageState();
  await first.close();
  const fresh = async (url: string, visible: string, session: boolean) => {
    const c = await b.newContext(session ? { ...VIEWPORT, storageState } : VIEWPORT);
    try {
      return await traced(c, url, visible);
    } finally {
      await c.close();
    }
  };
  for (let i = 0; i < runs; i++) {
    samples.login!.push(await fresh(`${base}/login`, 'button[type=submit]', false));
    samples.list!.push(await fresh(`${base}/factoring/contract/info`, '.ant-table-row', true));
    samples.dashboard!.push(
      await fresh(`${base}/dashboard`, '[data-testid="widget-portfolio"] .ant-statistic', true),
    );
  }
} finally {
  await browser?.close();
  server.kill('SIGTERM');
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
console.info(`load average ${loadBefore} → ${loadavg()[0]!.toFixed(1)}, medians of ${runs}, ms`);
const keys = Object.keys(samples.login![0]!);
console.info(`${'screen'.padEnd(10)} ${keys.map((k) => k.padStart(20)).join('')}`);
for (const [name, xs] of Object.entries(samples))
  console.info(
    `${name.padEnd(10)} ${keys.map((k) => String(Math.round(median(xs.map((x) => x[k]!)))).padStart(20)).join('')}`,
  );
const ratio = (key: string, name: string) =>
  (median(samples[name]!.map((x) => x[key]!)) / median(samples.login!.map((x) => x[key]!))).toFixed(2);
for (const key of ['rendererCpu', 'TaskDuration', 'screen'])
  console.info(`${key}: list / login ${ratio(key, 'list')}, dashboard / login ${ratio(key, 'dashboard')}`);
if (profile)
  for (const [k, ms] of [...selfByFile].sort((a, b) => b[1] - a[1]).slice(0, 40))
    console.info(`${String(Math.round(ms / runs)).padStart(6)} ms  ${k}`);
