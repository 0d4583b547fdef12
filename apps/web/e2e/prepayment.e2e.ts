import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { formatMoney } from '@portal/contract/format';
import { PA_PATHS } from '@portal/contract/prepayment';
import { launchBrowser, newPage, searchField, shotPath, base, signIn } from './helpers';
import { addChecker, approve, confirm, demoLogin, openScreen, rowAction, submittedContract } from './flows';

/**
 * 前期款 as finance makes it: from the contract list's 生成前期款 on an approved contract, the
 * amounts checked under their fields before any 是否继续？, saved, submitted and listed.
 */
const password = inject('adminPassword');
const stamp = String(Date.now()).slice(-6);
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('前期款 (prepayment) screens', () => {
  it('生成前期款 from the contract list → amounts refused before 是否继续？ → saved → submitted → listed', async () => {
    const admin = await newPage(browser, 1440, 960);
    const adminToken = await signIn(admin.context, password);
    const checkerUser = await addChecker(adminToken);
    const checker = await newPage(browser, 1440, 960);
    await signIn(checker.context, checkerUser.password, checkerUser.userName);
    // 钱财务 (the demo finance role holds 生成前期款 on the contract list and the 前期款 screens).
    const finance = await newPage(browser, 1440, 960);
    await signIn(finance.context, await demoLogin(adminToken, 'finance'), 'finance');
    const page = finance.page;
    try {
      // 1. An approved contract with its 30,000.00 margin still to collect.
      const contractNo = `E2E-PA-${stamp}`;
      const { bizCode, dues } = await submittedContract(adminToken, contractNo, 70_000_000 + Number(stamp));
      await approve(checker.page, '/factoring/contract/info-view', bizCode, 'contract-view');
      const margin = dues.find((d) => d.kind === 'margin')!;
      expect(margin.amount).toBe('30000.00');

      // 2. 生成前期款 on its row asks first, then opens the editor with every open due prefilled.
      const list = await openScreen(page, `${base}/factoring/contract/info`, 'contract-list');
      await searchField(list, '合同号').fill(contractNo);
      await list.getByRole('button', { name: /查\s*询/ }).click();
      const row = list.locator('tr', { hasText: contractNo });
      await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(1);
      await rowAction(page, row, '生成前期款');
      await confirm(page, '确定要根据该合同生成前期款吗？');
      await page.waitForURL(/pa\/mgr-editor\/basic-info\?contBizCode=\d{12}/, { timeout: 15_000 });
      const editor = page.getByTestId('pa-editor');
      await expect.poll(() => editor.locator('.ant-card-head').textContent()).toContain(contractNo);
      const amount = editor.getByLabel('本次收取保证金');
      await expect.poll(() => amount.inputValue(), { timeout: 10_000 }).toBe('30,000.00');
      // Cash only: 客户转账 chosen, no 放款时扣收 to choose (deduction is the 放款单's).
      expect(await editor.getByRole('radio', { name: '客户转账' }).isChecked()).toBe(true);
      expect(await editor.getByText(/放款时扣收/).count()).toBe(0);

      // 3. Malformed, negative or more than is open: refused under the field, no 是否继续？, nothing sent.
      const saves: string[] = [];
      page.on('request', (r) => {
        if (r.url().includes(PA_PATHS.saveBaseInfo)) saves.push(r.url());
      });
      const help = amount
        .locator('xpath=ancestor::div[contains(concat(" ", @class, " "), " ant-form-item ")][1]')
        .locator('.ant-form-item-explain-error');
      const save = editor.getByRole('button', { name: /^保\s*存$/ });
      for (const [typed, message] of [
        ['12.345', '本次收取金额必须是最多两位小数的金额'],
        ['\u22125', '本次收取金额必须大于0'],
        ['30000.01', `超过该项待收金额 ${formatMoney('30000.00')}`],
      ] as const) {
        await amount.fill(typed);
        await save.click();
        await expect.poll(() => help.textContent()).toBe(message);
        expect(await page.locator('.ant-modal-confirm').count()).toBe(0);
      }
      // A refusal is the user's to fix, not a fault: nothing reaches the error log.
      expect(await page.getByLabel('错误日志').count()).toBe(0);
      expect(saves).toEqual([]);

      // 4. A part of the margin (the other up-front dues as prefilled): saved as a draft.
      await amount.fill('10000.00');
      await expect.poll(() => help.count()).toBe(0);
      const expected = dues
        .reduce((sum, d) => sum.plus(d.amount), new Decimal(0))
        .minus(margin.amount)
        .plus('10000.00')
        .toFixed(2);
      await expect.poll(() => editor.getByTestId('pa-total').textContent()).toContain(formatMoney(expected));
      await save.click();
      await confirm(page, '此操作将保存前期款！ 是否继续？');
      await page.waitForURL(/pa\/mgr-editor\/basic-info\?preamtBizCode=\d{12}/, { timeout: 15_000 });
      const code = new URL(page.url()).searchParams.get('preamtBizCode')!;
      await expect
        .poll(() => editor.locator('.ant-card-head').textContent(), { timeout: 10_000 })
        .toContain(`前期款编辑 ${code}`);
      await expect.poll(() => amount.inputValue(), { timeout: 10_000 }).toBe('10,000.00');
      expect(saves).toHaveLength(1);

      // 5. Submitted from the editor: its view, then the 前期款 list shows it 审核中.
      await editor.getByRole('button', { name: '保存并提交' }).click();
      await confirm(page, '此操作将保存前期款并提交审批！ 是否继续？');
      await page.waitForURL(/pa\/mgr-view\/basic-info\?preamtBizCode=\d{12}/, { timeout: 15_000 });
      expect(new URL(page.url()).searchParams.get('preamtBizCode')).toBe(code);
      const paList = await openScreen(page, `${base}/factoring/pa/mgr`, 'pa-list');
      await searchField(paList, '合同号').fill(contractNo);
      await paList.getByRole('button', { name: /查\s*询/ }).click();
      const paRow = paList.locator('tr', { hasText: code });
      await expect.poll(() => paRow.count(), { timeout: 10_000 }).toBe(1);
      const text = (await paRow.textContent())!;
      expect(text).toContain(contractNo);
      expect(text).toContain(formatMoney(expected));
      expect(text).toContain('客户转账');
      expect(text).toContain('审核中');
      await page.screenshot({ path: shotPath('prepayment-list.png') });
    } catch (err) {
      await page.screenshot({ path: shotPath('prepayment-failure.png') });
      throw err;
    } finally {
      await finance.context.close();
      await checker.context.close();
      await admin.context.close();
    }
  });
});
