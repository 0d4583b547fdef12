/**
 * Page timings in headless Chromium (Debian's, playwright-core) against the benchmark server on
 * loopback serving the production build: the login page, the dashboard after login and
 * the contract list until its first row is visible, each with a cold cache (a new browser
 * context) and a warm one (the same context again). The contract list and the dashboard are
 * measured `--runs` times (default 5, each cold one in a context of its own) and reported as the
 * median with the range: one sample on this 2-core machine varies by ±300 ms. Usage:
 * tsx bench/web/timings.ts [--scale 1] [--pglite] [--runs 5], after `npm run build`. Writes
 * bench/results/web-timings.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { chromium, type BrowserContext } from 'playwright-core';
import { freePort, freshDatabase, PASSWORD, startServer } from '../load/server';

const argAfter = (flag: string) => {
  const i = process.argv.indexOf(flag);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const seedScale = argAfter('--scale') === '1' ? '1' : '0.05';
const usePglite = process.argv.includes('--pglite');
const runs = Math.max(1, Math.floor(Number(argAfter('--runs') ?? 5)) || 1);
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = await startServer(port, await freshDatabase(usePglite), seedScale);
const browser = await chromium.launch({
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

/** Milliseconds from navigation to `visible` being on screen. */
async function timed(context: BrowserContext, url: string, visible: string): Promise<number> {
  const page = context.pages()[0] ?? (await context.newPage());
  const t = performance.now();
  await page.goto(url);
  await page.locator(visible).first().waitFor({ timeout: 30_000 });
  return Math.round(performance.now() - t);
}

async function signedIn(context: BrowserContext): Promise<number> {
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(`${base}/login`);
  await page.getByPlaceholder('用户名').fill('admin');
  await page.getByPlaceholder('密码').fill(PASSWORD);
  const t = performance.now();
  await page.getByRole('button', { name: /登\s*录/ }).click();
  await page.getByTestId('dashboard').waitFor({ timeout: 30_000 });
  return Math.round(performance.now() - t);
}

const results: Record<string, number> = {};
const ranges: Record<string, string> = {};

/** `runs` samples of `one`, reported as their median (and kept as min–max). */
async function sampled(name: string, one: () => Promise<number>): Promise<void> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) samples.push(await one());
  samples.sort((a, b) => a - b);
  results[name] = samples[Math.floor((samples.length - 1) / 2)]!;
  ranges[name] = runs > 1 ? `${samples[0]}–${samples[samples.length - 1]}` : '';
}

const VIEWPORT = { viewport: { width: 1440, height: 900 }, locale: 'zh-CN' };
try {
  const cold = await browser.newContext(VIEWPORT);
  results['login page, cold'] = await timed(cold, `${base}/login`, 'button[type=submit]');
  results['login page, warm'] = await timed(cold, `${base}/login`, 'button[type=submit]');
  results['login → dashboard'] = await signedIn(cold);
  const LIST = `${base}/factoring/contract/info`;
  results['contract list first row, first visit'] = await timed(cold, LIST, '.ant-table-row');
  await sampled('contract list first row, warm', () => timed(cold, LIST, '.ant-table-row'));
  // Cold cache for the list itself: a new context holding only the session, straight to the list.
  const storage = await cold.storageState();
  const inFreshContext = async (url: string, visible: string) => {
    const again = await browser.newContext({ ...VIEWPORT, storageState: storage });
    try {
      return await timed(again, url, visible);
    } finally {
      await again.close();
    }
  };
  await sampled('contract list first row, cold cache', () => inFreshContext(LIST, '.ant-table-row'));
  await sampled('dashboard, cold cache', () =>
    inFreshContext(`${base}/dashboard`, '[data-testid="widget-portfolio"] .ant-statistic'),
  );
} finally {
  await browser.close();
  server.kill('SIGTERM');
}
for (const [k, v] of Object.entries(results)) {
  const range = ranges[k] ? `  (median of ${runs}: ${ranges[k]})` : '';
  console.info(`${k.padEnd(40)} ${String(v).padStart(6)} ms${range}`);
}
mkdirSync('bench/results', { recursive: true });
writeFileSync(
  'bench/results/web-timings.json',
  JSON.stringify({ date: new Date().toISOString(), seedScale, runs, results, ranges }, null, 2),
);
