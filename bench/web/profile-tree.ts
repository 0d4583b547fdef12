/**
 * Where one cold screen's main thread goes, by function and inclusive of what it calls (issue 42
 * §4, bench/README.md "First screen"): the contract list's first row (or `--dashboard`'s first
 * figure) with a session, `--runs` times, Chrome's CPU profile summed per function over the calls
 * under it. Meant for a build with `--minify false` (names kept), given by WEB_DIST.
 * Usage: WEB_DIST=<build> tsx bench/web/profile-tree.ts [--runs 3] [--dashboard] [--top 60]
 *   [--components] [--under renderRootSync].
 */
import { loadavg } from 'node:os';
import { chromium, type Browser } from 'playwright-core';
import { freePort, freshDatabase, startServer } from '../load/server';
import { signInAsAdmin } from './session';

const argAfter = (flag: string) => {
  const i = process.argv.indexOf(flag);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const runs = Math.max(1, Math.floor(Number(argAfter('--runs') ?? 3)) || 1);
const top = Math.max(1, Math.floor(Number(argAfter('--top') ?? 60)) || 60);
const dashboard = process.argv.includes('--dashboard');
// --components: only the functions React calls as components (their caller is renderWithHooks).
const components = process.argv.includes('--components');
// --under NAME: only what runs under a function of that name (e.g. renderRootSync, commitRoot).
const under = argAfter('--under');
const VIEWPORT = { viewport: { width: 1440, height: 900 }, locale: 'zh-CN' };
const [path, visible] = dashboard
  ? ['/dashboard', '[data-testid="widget-portfolio"] .ant-statistic']
  : ['/factoring/contract/info', '.ant-table-row'];

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

const inclusive = new Map<string, number>();
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = await startServer(port, await freshDatabase(true), '0.05');
let browser: Browser | undefined;
const loadBefore = loadavg()[0]!.toFixed(1);
try {
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const first = await browser.newContext(VIEWPORT);
  await signInAsAdmin(await first.newPage(), base);
  const storageState = await first.storageState();
  await first.close();
  for (let run = 0; run < runs; run++) {
    const context = await browser.newContext({ ...VIEWPORT, storageState });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
    await page.goto(`${base}${path}`);
    await page.locator(visible).first().waitFor({ timeout: 60_000 });
    const { profile } = await cdp.send('Profiler.stop');
    const nodes = new Map<number, Node>(profile.nodes.map((n) => [n.id, n as Node]));
    const self = new Map<number, number>();
    (profile.samples ?? []).forEach((id, i) =>
      self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas?.[i] ?? 0) / 1000),
    );
    // Inclusive time of a node; a function counted once per stack (recursion not double counted).
    const parentOf = new Map<number, Node>();
    for (const n of nodes.values()) for (const c of n.children ?? []) parentOf.set(c, n);
    const total = (id: number, onStack: Set<string>, inside = !under): number => {
      const n = nodes.get(id)!;
      inside ||= n.callFrame.functionName === under;
      const counted =
        inside && (!components || parentOf.get(id)?.callFrame.functionName === 'renderWithHooks');
      const f = n.callFrame;
      const key = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\//, '')}:${f.lineNumber}`;
      const fresh = counted && !onStack.has(key);
      if (fresh) onStack.add(key);
      let ms = self.get(id) ?? 0;
      for (const c of n.children ?? []) ms += total(c, onStack, inside);
      if (fresh) {
        onStack.delete(key);
        inclusive.set(key, (inclusive.get(key) ?? 0) + ms);
      }
      return ms;
    };
    total(profile.nodes[0]!.id, new Set());
    await context.close();
  }
} finally {
  await browser?.close();
  server.kill('SIGTERM');
}
console.info(
  `${path}, load average ${loadBefore} → ${loadavg()[0]!.toFixed(1)}, mean of ${runs}, ms inclusive`,
);
for (const [k, ms] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, top))
  console.info(`${String(Math.round(ms / runs)).padStart(6)}  ${k}`);
