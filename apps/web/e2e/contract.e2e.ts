import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { accountLabel, REPAY_PURPOSES, type BankAccountView } from '@portal/contract/bank';
import { CONTRACT_PATHS } from '@portal/contract/contract';
import { addMonths } from '@portal/contract/plan/dates';
import {
  animationsDone,
  activePage,
  launchBrowser,
  newPage,
  screenShows,
  searchField,
  shotPath,
  base,
  signIn,
} from './helpers';
import {
  addChecker,
  approve,
  clickTab,
  confirm,
  data,
  demoCredit,
  openScreen,
  pick,
  rowAction,
  today,
} from './flows';

const password = inject('adminPassword');
const stamp = String(Date.now()).slice(-6);
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Opens an antd select by its label and takes the first option (or the one titled). */
async function choose(page: Page, scope: Locator, label: string, title?: string): Promise<void> {
  // A closing dropdown of the previous select still counts as visible while it animates out.
  const open = page.locator('.ant-select-dropdown:visible');
  await expect.poll(() => open.count()).toBe(0);
  await scope.getByLabel(label, { exact: true }).click();
  if (title) await pick(page, title);
  else {
    await animationsDone(page);
    await open.locator('.ant-select-item-option').first().click();
  }
  await expect.poll(() => open.count()).toBe(0);
}

/**
 * The options of the account picker labelled `label`, which must each name the bank, the number
 * and the purpose of one of the accounts the server offers as 还款账户, never a 付款账户.
 */
async function expectRepayAccounts(page: Page, scope: Locator, label: string, token: string): Promise<void> {
  const offered = await data<BankAccountView[]>(CONTRACT_PATHS.bank, token, {});
  expect(offered.length).toBeGreaterThan(0);
  expect(offered.filter((a) => !REPAY_PURPOSES.includes(a.purpose))).toEqual([]);
  await expect.poll(() => page.locator('.ant-select-dropdown:visible').count()).toBe(0);
  await scope.getByLabel(label, { exact: true }).click();
  const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
  await options.first().waitFor();
  await animationsDone(page);
  const titles = await options.evaluateAll((els) => els.map((e) => e.getAttribute('title') ?? ''));
  expect(titles.length, `${label} options`).toBeGreaterThan(0);
  await page.keyboard.press('Escape');
  await expect.poll(() => page.locator('.ant-select-dropdown:visible').count()).toBe(0);
  for (const title of titles) {
    expect(offered.map(accountLabel), `${label}: ${title}`).toContain(title);
    expect(title).not.toContain('付款账户');
  }
}

describe('contract screens', () => {
  it('creates a contract from a platform credit, plans it, gets it approved, changes it, and shows before/after', async () => {
    const maker = await newPage(browser, 1440, 960);
    const token = await signIn(maker.context, password);
    const checkerUser = await addChecker(token);
    const checker = await newPage(browser);
    await signIn(checker.context, checkerUser.password, checkerUser.userName);
    const page = maker.page;
    try {
      // The demo data's approved platform credit.
      const credit = await demoCredit(token);
      const start = today();
      const contractNo = `E2E-HT-${stamp}`;

      // 1. 基本信息, prefilled from the credit (init?platCredBizCode).
      const editor = await openScreen(
        page,
        `${base}/factoring/contract/info-editor?platCredBizCode=${credit.credBizCode}`,
        'contract-editor',
      );
      await expect.poll(() => editor.getByLabel('客户').inputValue()).toBe(credit.custName);
      await choose(page, editor, '占用额度');
      await editor.getByLabel('合同号').fill(contractNo);
      await editor.getByLabel('融资金额').fill('500000.00');
      await editor.getByLabel('起始日').fill(start);
      await editor.getByLabel('到期日').fill(addMonths(start, 6));
      await choose(page, editor, '计息规则', '标准保理-到期还本付息 8.5%');
      await expectRepayAccounts(page, editor, '还款账户', token);
      await choose(page, editor, '还款账户');
      const receivables = editor.getByTestId('receivables-editor');
      if ((await receivables.getByLabel('发票代码').count()) === 0)
        await receivables.getByRole('button', { name: /添加应收账款/ }).click();
      await receivables
        .getByLabel('发票代码')
        .first()
        .fill(`31002${start.slice(2, 4)}130`);
      await receivables
        .getByLabel('发票号码')
        .first()
        .fill(String(40_000_000 + Number(stamp)));
      await receivables.getByLabel('开票日期').first().fill(start);
      await receivables.getByLabel('发票金额').first().fill('800000.00');
      // The debtor is a customer chosen from the picker (docs/credit.md "Debtors").
      await receivables.getByLabel('债务人名称').first().click();
      await pick(page, '华东建工集团有限公司');
      await receivables.getByLabel('到期日').first().fill(addMonths(start, 6));
      await editor.getByLabel('付款方名称').first().click();
      await pick(page, '华东建工集团有限公司');
      await editor.getByTestId('save-info').click();
      await confirm(page);
      await page.waitForURL(/info-editor\?bizCode=\d{12}/);
      const bizCode = new URL(page.url()).searchParams.get('bizCode')!;

      // 2. 方案/还款计划: generate, look, save.
      const saved = activePage(page, '/factoring/contract/info-editor');
      await clickTab(saved, '方案/还款计划');
      await saved.getByTestId('plan-generate').click();
      const previewTotal = saved.getByTestId('plan-preview').getByTestId('plan-total-principal');
      await expect.poll(() => previewTotal.textContent()).toBe('500,000.00');
      await saved.getByTestId('plan-save').click();
      await confirm(page);
      await expect.poll(() => saved.getByTestId('plan-table').count()).toBeGreaterThan(0);

      // 3. Submit from 基本信息.
      await clickTab(saved, '基本信息');
      await saved.getByTestId('submit-info').click();
      await confirm(page);
      await page.waitForURL(/info-view\?bizCode=/);

      // 4. The checker approves: the contract occupies its credit.
      await approve(checker.page, '/factoring/contract/info-view', bizCode, 'contract-view');

      // 5. A change from the list: lower the financing to 400,000.00.
      const list = await openScreen(page, `${base}/factoring/contract/info`, 'contract-list');
      await list.getByRole('textbox', { name: '合同号' }).fill(contractNo);
      await list.getByRole('button', { name: /查\s*询/ }).click();
      const row = list.locator('tr', { hasText: contractNo });
      await rowAction(page, row, '合同变更');
      await page.waitForURL(/change-editor\?contBizCode=/);
      const chg = page.getByTestId('change-editor').first();
      await expect.poll(() => chg.getByTestId('before-financingAmount').textContent()).toBe('500,000.00');
      await expectRepayAccounts(page, chg, '变更后还款账户', token);
      await chg.getByLabel('变更原因').fill('客户申请降低融资金额');
      await chg.getByLabel('变更后融资金额').fill('400000.00');
      await chg.getByTestId('change-submit').click();
      await confirm(page);
      await page.waitForURL(/change-view\?bizCode=/);
      const chgCode = new URL(page.url()).searchParams.get('bizCode')!;

      // 6. The checker approves the change; the maker sees before and after.
      await approve(checker.page, '/factoring/contract/change-view', chgCode, 'change-view');
      const view = await openScreen(
        page,
        `${base}/factoring/contract/change-view?bizCode=${chgCode}`,
        'change-view',
      );
      await expect.poll(() => view.getByTestId('changed-financingAmount').textContent()).toBe('400,000.00');
      expect(await view.getByTestId('compare-info').textContent()).toContain('500,000.00');
      await page.screenshot({ path: shotPath('contract-change-view.png'), fullPage: true });
      const info = await openScreen(
        page,
        `${base}/factoring/contract/info-view?bizCode=${bizCode}`,
        'contract-view',
      );
      await expect.poll(() => info.getByTestId('info-financing').textContent()).toBe('400,000.00');
    } catch (err) {
      await page.screenshot({ path: shotPath('contract-failed-maker.png'), fullPage: true });
      await checker.page.screenshot({ path: shotPath('contract-failed-checker.png') });
      throw err;
    } finally {
      await maker.context.close();
      await checker.context.close();
    }
  }, 180_000);

  it('keeps two lists and an open editor in one document without a duplicate element id', async () => {
    const { context, page } = await newPage(browser);
    try {
      await signIn(context, password);
      const list = await openScreen(page, `${base}/factoring/contract/info`, 'contract-list');
      // The list's search form and the editor's 基本信息 both have a 合同号 field.
      await searchField(list, '合同号').fill(`E2E-ID-${stamp}`);
      await list.getByRole('button', { name: /新\s*增/ }).click();
      await screenShows(page, '/factoring/contract/info-editor');
      const editor = activePage(page, '/factoring/contract/info-editor');
      await editor.getByLabel('合同号').fill(`E2E-ID-${stamp}`);
      // A second list with a 合同号 filter, in its own tab.
      await page.getByTestId('sidebar').getByText('合同变更').click();
      await screenShows(page, '/factoring/contract/change');
      const changes = activePage(page, '/factoring/contract/change');
      await searchField(changes, '合同号').fill(`E2E-CH-${stamp}`);
      // The first list is still there, hidden, with its input.
      expect(await activePage(page, '/factoring/contract/info').count()).toBe(1);
      expect(await searchField(list, '合同号').inputValue()).toBe(`E2E-ID-${stamp}`);
      const duplicates = await page.evaluate(() => {
        const seen = new Map<string, number>();
        for (const el of document.querySelectorAll('[id]')) seen.set(el.id, (seen.get(el.id) ?? 0) + 1);
        return [...seen].filter(([, n]) => n > 1).map(([id]) => id);
      });
      expect(duplicates).toEqual([]);
      // Each label of the editor names an input of the editor.
      const strays = await editor.evaluate((root) =>
        [...root.querySelectorAll('label[for]')]
          .filter((l) => !root.contains(document.getElementById(l.getAttribute('for')!)))
          .map((l) => l.textContent),
      );
      expect(strays).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
