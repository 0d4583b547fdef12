/**
 * The waterfall of one cold load (issue 42 §4): every file and API call with its start and end
 * (Resource Timing, ms from navigation start), the main thread's long tasks, and paint marks, for
 * the cold list (or `--dashboard`, `--login`), `--runs` times; prints the last run's timeline and
 * the medians of a few milestones. Usage, after `npm run build`: tsx bench/web/waterfall.ts [--runs 3].
 */
import { chromium } from 'playwright-core';
import { freePort, freshDatabase, startServer } from '../load/server';
import { signInAsAdmin } from './session';

const argAfter = (flag: string) => {
  const i = process.argv.indexOf(flag);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const runs = Math.max(1, Number(argAfter('--runs') ?? 3));
const target = process.argv.includes('--dashboard')
  ? { path: '/dashboard', visible: '[data-testid="widget-portfolio"] .ant-statistic', session: true }
  : process.argv.includes('--login')
    ? { path: '/login', visible: 'button[type=submit]', session: false }
    : { path: '/factoring/contract/info', visible: '.ant-table-row', session: true };
const VIEWPORT = { viewport: { width: 1440, height: 900 }, locale: 'zh-CN' };
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = await startServer(port, await freshDatabase(false), '0.05');
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
type Entry = { name: string; start: number; end: number; kind: string };
try {
  const first = await browser.newContext(VIEWPORT);
  await signInAsAdmin(await first.newPage(), base);
  const storageState = await first.storageState();
  await first.close();
  let last: Entry[] = [];
  let lastLoaf: string[] = [];
  const miles: Record<string, number[]> = {};
  for (let i = 0; i < runs; i++) {
    const c = await browser.newContext(target.session ? { ...VIEWPORT, storageState } : VIEWPORT);
    await c.addInitScript(() => {
      const w = window as unknown as { __long: [number, number][] };
      w.__long = [];
      new PerformanceObserver((l) => {
        for (const e of l.getEntries()) w.__long.push([e.startTime, e.duration]);
      }).observe({ type: 'longtask', buffered: true });
      const v = window as unknown as { __loaf: string[] };
      v.__loaf = [];
      new PerformanceObserver((l) => {
        for (const e of l.getEntries() as (PerformanceEntry & {
          renderStart: number;
          styleAndLayoutStart: number;
          scripts: {
            invoker: string;
            sourceURL: string;
            duration: number;
            forcedStyleAndLayoutDuration: number;
          }[];
        })[]) {
          const scripts = e.scripts
            .filter((x) => x.duration > 4)
            .map(
              (x) =>
                `${x.invoker.slice(0, 40)}@${x.sourceURL.replace(/^.*\//, '')} ${x.duration.toFixed(0)}${x.forcedStyleAndLayoutDuration > 1 ? ` (forced layout ${x.forcedStyleAndLayoutDuration.toFixed(0)})` : ''}`,
            );
          v.__loaf.push(
            `${e.startTime.toFixed(0).padStart(6)} → ${(e.startTime + e.duration).toFixed(0).padStart(6)}  frame render ${e.renderStart ? (e.startTime + e.duration - e.renderStart).toFixed(0) : 0} style+layout ${e.styleAndLayoutStart ? (e.startTime + e.duration - e.styleAndLayoutStart).toFixed(0) : 0} | ${scripts.join('; ')}`,
          );
        }
      }).observe({ type: 'long-animation-frame', buffered: true });
    });
    const page = await c.newPage();
    const priority = new Map<string, string>();
    const cdp = await c.newCDPSession(page);
    await cdp.send('Network.enable');
    cdp.on('Network.requestWillBeSent', (e) =>
      priority.set(e.request.url.replace(/^.*\/\/[^/]+/, ''), e.request.initialPriority),
    );
    await page.goto(base + target.path);
    await page.locator(target.visible).first().waitFor({ timeout: 60_000 });
    const seen = await page.evaluate(() => performance.now());
    const entries = (await page.evaluate(() => {
      const out: { name: string; start: number; end: number; kind: string }[] = [];
      for (const e of performance.getEntriesByType('resource') as PerformanceResourceTiming[])
        out.push({
          name: `${e.name.replace(/^.*\/\/[^/]+/, '')} (sent ${(e.requestStart - e.startTime).toFixed(0)}, first byte ${(e.responseStart - e.startTime).toFixed(0)})`,
          start: e.startTime,
          end: e.responseEnd,
          kind: 'net',
        });
      for (const e of performance.getEntriesByType('paint'))
        out.push({ name: e.name, start: e.startTime, end: e.startTime, kind: 'paint' });
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      out.push({ name: 'document', start: 0, end: nav.responseEnd, kind: 'net' });
      out.push({
        name: 'DOMContentLoaded',
        start: nav.domContentLoadedEventStart,
        end: nav.domContentLoadedEventEnd,
        kind: 'mark',
      });
      for (const [s, d] of (window as unknown as { __long: [number, number][] }).__long)
        out.push({ name: 'longtask', start: s, end: s + d, kind: 'task' });
      return out;
    })) as Entry[];
    for (const e of entries) {
      const p = priority.get(e.name.split(' ')[0]!);
      if (p) e.name = `${e.name} [${p}]`;
    }
    entries.push({ name: 'seen', start: seen, end: seen, kind: 'mark' });
    const loaf = (await page.evaluate(() => (window as unknown as { __loaf: string[] }).__loaf)) as string[];
    const add = (k: string, v: number) => (miles[k] ??= []).push(v);
    add('seen', seen);
    const net = entries.filter((e) => e.kind === 'net');
    add('lastFileEnd', Math.max(...net.filter((e) => !e.name.startsWith('/api/')).map((e) => e.end)));
    for (const e of net.filter((e) => e.name.startsWith('/api/'))) {
      const name = e.name.split(/[? ]/)[0]!;
      add(`api ${name} end`, e.end);
      add(`api ${name} queued`, Number(/\(sent (\d+)/.exec(e.name)?.[1] ?? 0));
    }
    add(
      'longtasks total',
      entries.filter((e) => e.kind === 'task').reduce((a, e) => a + e.end - e.start, 0),
    );
    last = entries;
    lastLoaf = loaf;
    await c.close();
  }
  for (const e of last.sort((a, b) => a.start - b.start))
    console.info(
      `${e.start.toFixed(0).padStart(6)} → ${e.end.toFixed(0).padStart(6)}  ${e.kind.padEnd(5)} ${e.name.slice(0, 90)}`,
    );
  if (process.argv.includes('--frames')) for (const l of lastLoaf) console.info(l);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
  for (const [k, xs] of Object.entries(miles))
    console.info(
      `${k.padEnd(50)} ${median(xs).toFixed(0).padStart(6)}  (${xs.map((x) => x.toFixed(0)).join(', ')})`,
    );
} finally {
  await browser.close();
  server.kill('SIGTERM');
}
