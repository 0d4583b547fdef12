/**
 * React's commits during one cold screen (issue 42 §4, bench/README.md "Thirteenth pass"): each
 * commit's time (ms from navigation), the components rendered for it, most frequent first, and
 * the long tasks and the list call's answer beside them, for the cold contract list (or
 * `--dashboard`). A stand-in for React DevTools' hook (`__REACT_DEVTOOLS_GLOBAL_HOOK__`) counts,
 * at each commit, the component fibers that performed work with props or state not seen at the
 * previous commit. Works on any build; names are readable only in an unminified one
 * (`vite build --minify false`, given by WEB_DIST).
 * Usage: WEB_DIST=<build> tsx bench/web/render-commits.ts [--runs 1] [--dashboard] [--top 12]
 *   [--hold-list 2000]
 */
import { loadavg } from 'node:os';
import { chromium } from 'playwright-core';
import { freePort, freshDatabase, startServer } from '../load/server';
import { signInAsAdmin } from './session';

const argAfter = (flag: string) => {
  const i = process.argv.indexOf(flag);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const runs = Math.max(1, Number(argAfter('--runs') ?? 1));
const top = Math.max(1, Number(argAfter('--top') ?? 12));
// --hold-list MS: the list call answered that much later, so the page mounts without its rows as
// it does on an idle machine (where the chunks are in before the list's answer).
const holdList = Number(argAfter('--hold-list') ?? 0);
const [path, visible] = process.argv.includes('--dashboard')
  ? ['/dashboard', '[data-testid="widget-portfolio"] .ant-statistic']
  : ['/factoring/contract/info', '.ant-table-row'];
const VIEWPORT = { viewport: { width: 1440, height: 900 }, locale: 'zh-CN' };
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = await startServer(port, await freshDatabase(true), '0.05');
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
interface Commit {
  at: number;
  took: number;
  rendered: number;
  roots: string[];
  names: [string, number][];
}
const loadBefore = loadavg()[0]!.toFixed(1);
try {
  const first = await browser.newContext(VIEWPORT);
  await signInAsAdmin(await first.newPage(), base);
  const storageState = await first.storageState();
  await first.close();
  for (let run = 0; run < runs; run++) {
    const c = await browser.newContext({ ...VIEWPORT, storageState });
    // tsx keeps function names with a helper the page has not got.
    await c.addInitScript({ content: 'window.__name = (f) => f;' });
    await c.addInitScript((topN: number) => {
      type Fiber = {
        tag: number;
        type: unknown;
        flags: number;
        memoizedProps: unknown;
        memoizedState: unknown;
        return: Fiber | null;
        child: Fiber | null;
        sibling: Fiber | null;
      };
      const w = window as unknown as { __commits: unknown[]; __long: [number, number][] };
      w.__commits = [];
      w.__long = [];
      new PerformanceObserver((l) => {
        for (const e of l.getEntries()) w.__long.push([e.startTime, e.duration]);
      }).observe({ type: 'longtask', buffered: true });
      const seen = new WeakMap<object, [unknown, unknown]>();
      const nameOf = (t: unknown): string => {
        const f = t as { displayName?: string; name?: string; render?: { name?: string }; type?: unknown };
        if (typeof t === 'function') return f.displayName || f.name || '(anonymous)';
        if (t && typeof t === 'object')
          return f.displayName || f.render?.name || (f.type ? nameOf(f.type) : '(object)') || '(anon)';
        return String(t);
      };
      let lastEnd = 0;
      (window as unknown as Record<string, unknown>).__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
        supportsFiber: true,
        renderers: new Map(),
        inject: () => 1,
        checkDCE: () => undefined,
        onScheduleFiberRoot: () => undefined,
        onPostCommitFiberRoot: () => undefined,
        onCommitFiberUnmount: () => undefined,
        onCommitFiberRoot: (_id: number, root: { current: Fiber }) => {
          const start = performance.now();
          const counts = new Map<string, number>();
          let rendered = 0;
          // The rendered components no rendered component is above: where the update started.
          const roots: string[] = [];
          const stack: [Fiber, boolean, string][] = [[root.current, false, '']];
          while (stack.length) {
            const [f, under, parentName] = stack.pop()!;
            let inside = under;
            let nameHere = parentName;
            // Function, class, forwardRef, memo, simple memo components (React 19 work tags).
            if ([0, 1, 11, 14, 15].includes(f.tag) && f.flags & 1) {
              const before = seen.get(f);
              if (!before || before[0] !== f.memoizedProps || before[1] !== f.memoizedState) {
                rendered++;
                const n = nameOf(f.type);
                counts.set(n, (counts.get(n) ?? 0) + 1);
                if (!under && roots.length < 8) {
                  // Anonymous forwardRef/memo components: the first words of their source.
                  const t = f.type as { render?: unknown; type?: unknown };
                  const fn = typeof f.type === 'function' ? f.type : (t?.render ?? t?.type);
                  const src =
                    n === '(object)' || n === '(anonymous)'
                      ? String(fn).slice(0, 60).replace(/\s+/g, ' ')
                      : n;
                  let up = f.return;
                  while (up && !(up.tag === 5 && (up.memoizedProps as { className?: string })?.className))
                    up = up.return;
                  const cls = (up?.memoizedProps as { className?: string } | undefined)?.className ?? '';
                  roots.push(`${parentName} > ${src} in .${cls.split(' ')[0]}`);
                }
                inside = true;
              }
              seen.set(f, [f.memoizedProps, f.memoizedState]);
            }
            if ([0, 1, 11, 14, 15].includes(f.tag)) nameHere = nameOf(f.type);
            if (f.sibling) stack.push([f.sibling, under, parentName]);
            if (f.child) stack.push([f.child, inside, nameHere]);
          }
          w.__commits.push({
            at: Math.round(start),
            took: Math.round(start - lastEnd),
            rendered,
            roots,
            names: [...counts].sort((a, b) => b[1] - a[1]).slice(0, topN),
          });
          lastEnd = performance.now();
        },
      };
    }, top);
    const page = await c.newPage();
    if (holdList)
      await page.route('**/contract/list', async (route) => {
        const answer = await route.fetch();
        await new Promise((r) => setTimeout(r, holdList));
        await route.fulfill({ response: answer });
      });
    await page.goto(base + path);
    await page.locator(visible).first().waitFor({ timeout: 60_000 });
    await page.waitForTimeout(300);
    const out = await page.evaluate(() => {
      const w = window as unknown as { __commits: Commit[]; __long: [number, number][] };
      const api = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
        .filter((e) => e.name.includes('/api/'))
        .map((e) => `${e.name.replace(/^.*\/\/[^/]+/, '').slice(0, 50)} ${e.responseEnd.toFixed(0)}`);
      return { commits: w.__commits, long: w.__long, api };
    });
    const [rowAt, rows, more] = await page.evaluate(() => [
      performance.now(),
      document.querySelectorAll('.ant-table-row').length,
      document.querySelectorAll('.ant-table-row .ant-dropdown-trigger').length,
    ]);
    console.info(`run ${run + 1} (page now ${rowAt!.toFixed(0)} ms; ${rows} rows, ${more} 更多)`);
    for (const a of out.api) console.info(`  api answered  ${a}`);
    for (const [s, d] of out.long) console.info(`  long task ${s.toFixed(0)} + ${d.toFixed(0)} ms`);
    for (const cm of out.commits)
      console.info(
        `  commit at ${String(cm.at).padStart(5)}  ${String(cm.rendered).padStart(4)} components  ${cm.names.map(([n, k]) => `${n}×${k}`).join(' ')}\n      from ${cm.roots.join(', ')}`,
      );
    await c.close();
  }
} finally {
  await browser.close();
  server.kill('SIGTERM');
}
console.info(`load average ${loadBefore} → ${loadavg()[0]!.toFixed(1)}`);
