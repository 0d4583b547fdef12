import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { DASHBOARD_PATHS, type PortfolioFigures } from '@portal/contract/dashboard';
import { formatMoney } from '@portal/contract/format';
import { apiCall, launchBrowser, login, newPage, shotPath, tokenOf, base } from './helpers';

const password = inject('adminPassword');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('dashboard (工作)', () => {
  it('shows the portfolio figures of the demo data, the charts, and clicks through to the list', async () => {
    const { context, page } = await newPage(browser, 1440, 1000);
    await login(page, base, password);
    await page.waitForURL(`${base}/dashboard`);
    const token = (await tokenOf(context))!;
    const res = await apiCall(base, DASHBOARD_PATHS.portfolio, token, {});
    const figures = (res.json as { data: PortfolioFigures }).data;
    // The demo contracts started months before today: something is outstanding and overdue.
    expect(new Decimal(figures.outstandingPrincipal).gt(0)).toBe(true);
    expect(figures.overdueCount).toBeGreaterThan(0);

    const outstanding = page.getByTestId('fig-outstanding');
    await expect.poll(() => outstanding.textContent()).toContain(formatMoney(figures.outstandingPrincipal));
    await expect
      .poll(() => page.getByTestId('fig-overdue').textContent())
      .toContain(`${figures.overdueCount} 期 / ${figures.overdueContracts} 份合同`);
    await page.getByTestId('aging-chart').locator('canvas').waitFor();
    await page.getByTestId('trend-chart').locator('canvas').waitFor();
    await page.getByTestId('utilisation-bars').locator('canvas').waitFor();
    await page.getByTestId('todo-card').waitFor();
    // Let the charts finish their first animation before the picture.
    await page.waitForFunction(() => document.querySelectorAll('canvas').length >= 3);
    await page.screenshot({ path: shotPath('dashboard.png'), fullPage: true });

    await page.getByTestId('fig-overdue').click();
    await page.waitForURL(
      (url) => url.pathname === '/factoring/contract/info' && url.searchParams.get('overdue') === 'true',
    );
    await context.close();
  });
});
