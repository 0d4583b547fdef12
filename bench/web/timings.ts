/**
 * Page timings in headless Chromium (Debian's, playwright-core) against the benchmark server on
 * loopback serving the production build (issue 14): the login page, the dashboard after login and
 * the contract list until its first row is visible, each with a cold cache (a new browser
 * context) and a warm one (the same context again). Usage: tsx bench/web/timings.ts [--scale 1]
 * [--pglite], after `npm run build`. Writes bench/results/web-timings.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { chromium, type BrowserContext } from 'playwright-core';
import { freePort, freshDatabase, PASSWORD, startServer } from '../load/server';

const seedScale = process.argv.includes('1') ? '1' : '0.05';
const usePglite = process.argv.includes('--pglite');
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
try {
  const cold = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
  results['login page, cold'] = await timed(cold, `${base}/login`, 'button[type=submit]');
  results['login page, warm'] = await timed(cold, `${base}/login`, 'button[type=submit]');
  results['login → dashboard'] = await signedIn(cold);
  const LIST = `${base}/factoring/contract/info`;
  results['contract list first row, first visit'] = await timed(cold, LIST, '.ant-table-row');
  results['contract list first row, warm'] = await timed(cold, LIST, '.ant-table-row');
  // Cold cache for the list itself: a new context holding only the session, straight to the list.
  const storage = await cold.storageState();
  const again = await browser.newContext({
    viewport: { width: 1440, height: 900 },
    locale: 'zh-CN',
    storageState: storage,
  });
  results['contract list first row, cold cache'] = await timed(again, LIST, '.ant-table-row');
  results['dashboard, cold cache'] = await timed(
    again,
    `${base}/dashboard`,
    '[data-testid="widget-portfolio"] .ant-statistic',
  );
} finally {
  await browser.close();
  server.kill('SIGTERM');
}
for (const [k, v] of Object.entries(results)) console.info(`${k.padEnd(40)} ${String(v).padStart(6)} ms`);
mkdirSync('bench/results', { recursive: true });
writeFileSync(
  'bench/results/web-timings.json',
  JSON.stringify({ date: new Date().toISOString(), seedScale, results }, null, 2),
);
