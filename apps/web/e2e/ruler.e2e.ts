import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { formatMoney } from '@portal/contract/format';
import { generatePlan, type PlanRule } from '@portal/contract/plan/schedule';
import { RULER_PATHS, type RuleView } from '@portal/contract/ruler';
import {
  animationsDone,
  motionDone,
  activePage,
  apiCall,
  launchBrowser,
  newPage,
  searchField,
  shotPath,
  tokenOf,
  base,
  signIn,
} from './helpers';

const password = inject('adminPassword');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const LIST = '/factoring/config/ruler';
const EDITOR = '/factoring/config/ruler-editor';
const START = '2026-01-31';

/** What the browser must show: the same engine, run here on the same sample. */
function expectedPlan(annualRate: string) {
  const rule: PlanRule = {
    annualRate,
    dayCount: 'ACT/360',
    method: 'ANNUITY',
    interestCollection: 'BACK',
    feeRate: '0.0000',
    feeCollection: 'BACK',
    countBothEnds: false,
  };
  return generatePlan({ principal: '1000000.00', startDate: START, termMonths: 12, rule });
}

/** The chart's pixels once its animation has settled (two equal reads in a row). */
async function settledChart(chart: Locator): Promise<string> {
  const canvas = chart.locator('canvas').first();
  let last = '';
  for (let i = 0; i < 40; i++) {
    const now = await canvas.evaluate((c: HTMLCanvasElement) => c.toDataURL());
    if (now === last) return now;
    last = now;
    await new Promise((r) => setTimeout(r, 250));
  }
  return last;
}

async function pickOption(page: Page, select: Locator, label: string): Promise<void> {
  await select.click();
  await animationsDone(page);
  await page.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${label}"]`).click();
}

describe('interest rules (计息规则)', () => {
  it('creates a rule with a live preview, saves it, finds it in the list and deletes it', async () => {
    const { context, page } = await newPage(browser, 1366, 1000);
    await signIn(context, password);
    await page.goto(`${base}${LIST}`);
    const list = activePage(page, LIST);
    await list.getByTestId('ruler-list').waitFor();
    // the demo rules are listed
    await list.getByText('等额本息 6.5%').waitFor();

    await list.getByRole('button', { name: /新\s*增/ }).click();
    await page.waitForURL(`${base}${EDITOR}`);
    const editor = activePage(page, EDITOR);
    await editor.getByTestId('ruler-editor').waitFor();

    // A blank rate: the preview says what is missing instead of failing.
    const preview = editor.getByTestId('plan-preview');
    await expect.poll(() => preview.getByTestId('plan-error').textContent()).toContain('年利率不能为空');

    // Saving an incomplete form shows the shared schema's messages on the fields.
    await editor.getByRole('button', { name: /保\s*存/ }).click();
    await editor.getByText('规则名称不能为空').waitFor();
    await editor.getByText('年利率不能为空', { exact: true }).first().waitFor();

    const name = `E2E等额本息-${Date.now()}`;
    await editor.locator('#ruler_name').fill(name);
    await pickOption(page, editor.locator('#ruler_method'), '等额本息');
    await editor.locator('#ruler_annualRatePct').fill('6');
    // allocation order: 利息 before 罚息
    await editor.getByRole('button', { name: '还款分配顺序：利息上移' }).click();

    // sample: start on a 31st, 12 months (month ends roll: 02-28, 03-31, …)
    const start = preview.locator('#ruler-sample-start');
    // A busy machine can drop a keystroke into the picker: retype until it holds the date.
    for (let attempt = 0; attempt < 3 && (await start.inputValue()) !== START; attempt++) {
      await start.click();
      await start.fill(START);
      await start.press('Enter');
    }
    expect(await start.inputValue()).toBe(START);

    expect(await preview.locator('#ruler-sample-principal').inputValue()).toBe('1,000,000.00');
    const table = preview.getByTestId('plan-table');
    const rows = table.locator('tbody tr.ant-table-row');
    const totalInterest = preview.getByTestId('plan-total-interest');
    const at6 = expectedPlan('0.0600');
    // 等额本息's interest is by the month, so the total is the same for any start date: wait for
    // the dates of the new start (the preview follows the picker after its debounce).
    await expect.poll(() => rows.nth(0).locator('td').nth(2).textContent()).toBe('2026-02-28');
    expect(await totalInterest.textContent()).toBe(formatMoney(at6.totalInterest));
    expect(await rows.count()).toBe(12);
    expect(await rows.nth(1).locator('td').nth(2).textContent()).toBe('2026-03-31');
    expect(await rows.nth(0).locator('td').nth(5).textContent()).toBe(formatMoney(at6.items[0]!.interest));
    const chart = preview.getByTestId('plan-chart');
    const chartAt6 = await settledChart(chart);
    await page.screenshot({ path: shotPath('ruler-editor-6.png'), fullPage: true });

    // Raise the rate: the table and the chart follow.
    await editor.locator('#ruler_annualRatePct').fill('12');
    const at12 = expectedPlan('0.1200');
    await expect
      .poll(() => totalInterest.textContent(), { timeout: 10_000 })
      .toBe(formatMoney(at12.totalInterest));
    expect(at12.totalInterest).not.toBe(at6.totalInterest);
    expect(await rows.nth(0).locator('td').nth(5).textContent()).toBe(formatMoney(at12.items[0]!.interest));
    const chartAt12 = await settledChart(chart);
    expect(chartAt12).not.toBe(chartAt6);
    await page.screenshot({ path: shotPath('ruler-editor-12.png'), fullPage: true });

    // An impossible term is reported inline, then fixed.
    const term = preview.locator('#ruler-sample-term');
    await term.fill('');
    await expect
      .poll(() => preview.getByTestId('plan-error').textContent())
      .toBe('期限（月）必须是1到360之间的整数');
    await term.fill('12');
    await expect.poll(() => totalInterest.textContent()).toBe(formatMoney(at12.totalInterest));

    // Save: 操作成功！ and back to the list, which shows the new rule.
    await editor.getByRole('button', { name: /保\s*存/ }).click();
    await page.getByText('操作成功！').first().waitFor();
    await page.waitForURL(`${base}${LIST}`);
    // The kept-alive list was refreshed by the save (the new rule is on page 1 before any search).
    await list.locator('tr.ant-table-row', { hasText: name }).waitFor();
    await searchField(list, '规则名称').fill(name);
    await list.getByRole('button', { name: /查\s*询/ }).click();
    const row = list.locator('tr.ant-table-row', { hasText: name });
    await row.waitFor();
    expect(await row.textContent()).toContain('12%');
    expect(await row.textContent()).toContain('等额本息');

    // The server stored the decimal rate and the order chosen.
    const bizCode = (await row.locator('td').first().textContent())!.trim();
    expect(bizCode).toMatch(/^\d{12}$/);
    const token = await tokenOf(context);
    const viewed = await apiCall(base, `${RULER_PATHS.view}?bizCode=${bizCode}`, token!);
    const rule = (viewed.json as { data: RuleView }).data;
    expect(rule).toMatchObject({
      name,
      annualRate: '0.1200',
      method: 'ANNUITY',
      dayCount: 'ACT/360',
      feeRate: '0.0000',
      penalty: { mode: 'MULTIPLE', value: '1.5' },
      allocationOrder: ['INTEREST', 'PENALTY', 'FEE', 'PRINCIPAL'],
      version: 0,
    });
    await page.screenshot({ path: shotPath('ruler-list.png'), fullPage: true });

    // Delete with the confirmation 确认删除计息规则？ (cancel first: nothing happens).
    await row.getByRole('button', { name: /删\s*除/ }).click();
    const dialog = page.locator('.ant-modal-confirm');
    await motionDone(dialog.filter({ hasText: '确认删除计息规则？' }));
    await dialog.getByRole('button', { name: /取\s*消/ }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await row.count()).toBe(1);
    await row.getByRole('button', { name: /删\s*除/ }).click();
    await motionDone(dialog.filter({ hasText: '确认删除计息规则？' }));
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await row.waitFor({ state: 'detached' });
    // the search by its name now finds nothing
    await list.locator('.ant-table-placeholder').waitFor();
    expect(await list.locator('tr.ant-table-row').count()).toBe(0);
    await context.close();
  }, 90_000);

  it('a save on a stale version shows the server message; reloading takes the current version', async () => {
    const { context, page } = await newPage(browser, 1366, 1000);
    const token = await signIn(context, password);
    const body = {
      name: `E2E并发-${Date.now()}`,
      annualRate: '0.0850',
      dayCount: 'ACT/365',
      method: 'INTEREST_MONTHLY',
      interestCollection: 'BACK',
      feeRate: '0.005',
      feeCollection: 'FRONT',
      penalty: { mode: 'DAILY', value: '0.0005' },
      graceDays: 3,
    };
    const created = await apiCall(base, RULER_PATHS.save, token, body);
    const bizCode = (created.json as { data: { bizCode: string } }).data.bizCode;

    await page.goto(`${base}${EDITOR}?bizCode=${bizCode}`);
    const editor = activePage(page, EDITOR);
    const rate = editor.locator('#ruler_annualRatePct');
    await expect.poll(() => rate.inputValue()).toBe('8.50');
    // the daily penalty rate is shown in percent: 0.0005 -> 0.05 %/日
    expect(await editor.locator('#ruler_penaltyValue').inputValue()).toBe('0.05');
    await expect
      .poll(() => editor.getByTestId('plan-upfront-fee').textContent())
      // 1,000,000.00 × 0.5 % × 365 / 365 = 5,000.00, collected up front
      .toBe('5,000.00');

    // Someone else saves first (version 0 -> 1).
    const other = await apiCall(base, RULER_PATHS.save, token, {
      ...body,
      bizCode,
      version: 0,
      name: `${body.name}-改`,
    });
    expect(other.status).toBe(200);

    await rate.fill('9');
    await editor.getByRole('button', { name: /保\s*存/ }).click();
    // apps/server STALE_VERSION_MSG, shown by the request layer and kept in the editor
    const stale = '数据已被他人修改，请刷新后重试';
    await page.getByText(stale).first().waitFor();
    await editor.getByTestId('ruler-conflict').getByText(stale).waitFor();
    expect(page.url()).toBe(`${base}${EDITOR}?bizCode=${bizCode}`);

    await editor.getByRole('button', { name: /重新加载/ }).click();
    await expect.poll(() => editor.locator('#ruler_name').inputValue()).toBe(`${body.name}-改`);
    expect(await rate.inputValue()).toBe('8.50');
    await rate.fill('9');
    await editor.getByRole('button', { name: /保\s*存/ }).click();
    await page.getByText('操作成功！').first().waitFor();
    await page.waitForURL(`${base}${LIST}`);
    const viewed = await apiCall(base, `${RULER_PATHS.view}?bizCode=${bizCode}`, token);
    expect((viewed.json as { data: RuleView }).data).toMatchObject({ annualRate: '0.0900', version: 2 });
    await apiCall(base, `${RULER_PATHS.del}?bizCode=${bizCode}`, token);
    await context.close();
  }, 90_000);
});
