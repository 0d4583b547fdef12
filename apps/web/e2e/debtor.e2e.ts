import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { DEBTOR_PATHS, type DebtorLineRow } from '@portal/contract/debtor';
import { base, activePage, launchBrowser, newPage, shotPath, watchPage, signIn } from './helpers';
import { addChecker, confirm, data, pick } from './flows';

const password = inject('adminPassword');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const DEBTOR = '北京京能新材料科技有限公司';

describe('债务人额度 and 集中度', () => {
  it(
    'shows the demo debtor line and its concentration, and a new line takes effect only on a second person’s approval',
    { timeout: 300_000 },
    async () => {
      const maker = await newPage(browser, 1600, 960);
      const report = watchPage(maker.page);
      try {
        const token = await signIn(maker.context, password);
        const checkerUser = await addChecker(token);
        const checker = await newPage(browser, 1600, 960);
        await signIn(checker.context, checkerUser.password, checkerUser.userName);

        // The demo's core enterprise carries the exposure of the demo contracts (docs/credit.md).
        await maker.page.goto(`${base}/factoring/credit/debtor-concentration`);
        const conc = activePage(maker.page, '/factoring/credit/debtor-concentration');
        await conc.getByTestId('concentration-chart').waitFor();
        await expect.poll(() => conc.locator('tr', { hasText: '华东建工集团有限公司' }).count()).toBe(1);
        await maker.page.screenshot({ path: shotPath('debtor-concentration.png') });

        // The maker proposes a line; it is not in force until the checker approves it.
        await maker.page.goto(`${base}/factoring/credit/debtor-line`);
        const lines = activePage(maker.page, '/factoring/credit/debtor-line');
        await lines.locator('tr', { hasText: '华东建工集团有限公司' }).first().waitFor();
        await lines.getByRole('button', { name: '新增额度' }).click();
        const modal = maker.page.locator('.ant-modal', { hasText: '新增债务人额度' });
        await modal.getByLabel('债务人', { exact: true }).click();
        await pick(maker.page, DEBTOR);
        await modal.getByLabel('债务人额度').fill('5000000.00');
        await modal.getByRole('button', { name: /提交审核/ }).click();
        const row = lines.locator('tr', { hasText: DEBTOR });
        await expect.poll(() => row.textContent()).toContain('待生效');
        await expect.poll(() => row.textContent()).toContain('5,000,000.00');

        await checker.page.goto(`${base}/factoring/credit/debtor-line`);
        const checkerLines = activePage(checker.page, '/factoring/credit/debtor-line');
        const checkerRow = checkerLines.locator('tr', { hasText: DEBTOR });
        await checkerRow.getByRole('button', { name: '通过' }).click();
        await confirm(checker.page, '确定通过债务人');
        await expect.poll(() => checkerRow.textContent()).toContain('生效');
        const saved = await data<DebtorLineRow[]>(DEBTOR_PATHS.lines, token, {});
        expect(saved.find((l) => l.debtorName === DEBTOR)).toMatchObject({
          state: 'active',
          limitAmount: '5000000.00',
          pendingLimit: null,
        });
        await checker.page.screenshot({ path: shotPath('debtor-lines.png') });
        await checker.context.close();
      } catch (e) {
        await maker.page.screenshot({ path: shotPath('debtor-failure.png') });
        throw new Error(`${String(e)}\n${report()}`);
      } finally {
        await maker.context.close();
      }
    },
  );
});
