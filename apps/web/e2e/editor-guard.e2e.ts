import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { BANK_PATHS } from '@portal/contract/bank';
import { COMPANY_PATHS, type CompanyAdd } from '@portal/contract/company';
import { usccCheckChar } from '@portal/contract/uscc';
import {
  activePage,
  motionDone,
  launchBrowser,
  login,
  newPage,
  screenShows,
  switchTab,
  tokenOf,
  base,
} from './helpers';
import { data, openScreen } from './flows';

/**
 * Editors an office can trust (docs/architecture.md "Editors keep their input"): input typed into
 * an editor survives moving to another tab and back, and every way out of an editor that would
 * throw typed input away asks the same question first: here 返回, for every editor route.
 */
const password = inject('adminPassword');
let browser: Browser;
let context: BrowserContext;
let page: Page;
let token: string;
let compCode: string;
let bankBizCode: string;
const stamp = String(Date.now()).slice(-6);

beforeAll(async () => {
  browser = await launchBrowser();
  ({ context, page } = await newPage(browser));
  await login(page, base, password);
  token = (await tokenOf(context))!;
  const first17 = `91310115MG${stamp.padStart(7, '0')}`;
  const body: CompanyAdd = {
    compName: `守卫测试${stamp}有限公司`,
    usccCode: first17 + usccCheckChar(first17),
    compType: 'private',
    roles: ['supplier'],
    legalPerson: '张守卫',
    regCapital: '1000000.00',
    provinceCode: '310000',
    cityCode: '310100',
    areaCode: '310115',
  };
  compCode = (await data<{ compCode: string }>(COMPANY_PATHS.add, token, body)).compCode;
  bankBizCode = (
    await data<{ bizCode: string }>(BANK_PATHS.save, token, {
      ownerType: 'customer',
      ownerCode: compCode,
      bankCode: '102',
      branchName: '营业部',
      accountName: `守卫测试${stamp}有限公司`,
      accountNo: `6222${stamp}${String(Date.now()).slice(-7)}`,
      purpose: 'collect',
    })
  ).bizCode;
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
});

/** The frame's 返回 (in its card head, beside the actions). */
const backOf = (frame: Locator) =>
  frame
    .locator('.ant-card-head')
    .first()
    .getByRole('button', { name: /返\s*回/ });

/** The question every way out of an editor with typed input asks (shared/editor/unsaved.ts). */
const question = (p: Page) => p.locator('.ant-modal-confirm', { hasText: '未保存' });

/** Every editor route, opened for a new document (the CRM changes need the customer). */
const EDITORS: { path: string; testId: string; query?: () => string }[] = [
  { path: '/factoring/config/company-editor', testId: 'company-editor' },
  { path: '/factoring/config/ruler-editor', testId: 'ruler-editor' },
  { path: '/factoring/config/print-editor', testId: 'print-editor' },
  {
    path: '/factoring/config/admission-editor',
    testId: 'admission-editor',
    query: () => `?compCode=${compCode}`,
  },
  { path: '/factoring/credit/info-editor', testId: 'credit-editor' },
  { path: '/factoring/credit/distribution-editor', testId: 'dist-editor' },
  { path: '/factoring/credit/change-editor', testId: 'chg-editor' },
  { path: '/factoring/contract/info-editor', testId: 'contract-editor' },
  { path: '/factoring/contract/change-editor', testId: 'change-editor' },
  { path: '/factoring/contract/handover-editor', testId: 'handover-editor' },
  { path: '/factoring/accounts/loan-editor', testId: 'loan-editor' },
  { path: '/factoring/accounts/income-editor', testId: 'income-editor' },
  { path: '/factoring/accounts/paid-editor', testId: 'paid-editor' },
  { path: '/factoring/accounts/classification-editor', testId: 'classification-editor' },
  { path: '/factoring/accounts/buyback-editor', testId: 'buyback-editor' },
  { path: '/factoring/accounts/bad-debt-editor', testId: 'bad-debt-editor' },
  { path: '/factoring/pa/mgr-editor/basic-info', testId: 'pa-editor' },
  {
    path: '/crm/corporation/change-editor/at-info',
    testId: 'info-change-editor',
    query: () => `?compCode=${compCode}`,
  },
  { path: '/crm/corporation/manager-add', testId: 'manager-change-editor' },
];

describe('every editor asks before 返回 throws typed input away', () => {
  it.each(EDITORS)('$path', async ({ path, testId, query }) => {
    const frame = await openScreen(page, `${base}${path}${query?.() ?? ''}`, testId);
    const field = frame
      .locator(
        ':is(input.ant-input, textarea.ant-input, input.ant-input-number-input):not([disabled]):not([readonly]) >> visible=true',
      )
      .first();
    await field.waitFor();
    await field.click();
    await field.pressSequentially('7');
    await expect.poll(() => field.inputValue()).toContain('7');

    await backOf(frame).click();
    await question(page).waitFor({ timeout: 5_000 });
    // Pressed while the dialog still zooms in, the release lands on the mask (motionDone).
    await motionDone(question(page));
    await question(page)
      .getByRole('button', { name: /取\s*消/ })
      .click();
    await question(page).waitFor({ state: 'detached' });
    // 取消: still in the editor, the input kept.
    expect(new URL(page.url()).pathname).toBe(path);
    expect(await field.inputValue()).toContain('7');

    // 确定: the editor is left for its list, and its input is given up.
    await backOf(frame).click();
    await motionDone(question(page));
    await question(page)
      .getByRole('button', { name: /确\s*定/ })
      .click();
    await page.waitForURL((u) => u.pathname !== path);
  });
});

describe('typed input survives moving away and back', () => {
  it('企业客户 编辑: to the 企业客户 tab and back', async () => {
    const EDITOR = '/factoring/config/company-editor';
    const LIST = '/factoring/config/company';
    await page.goto(`${base}${LIST}`);
    await screenShows(page, LIST);
    const row = activePage(page, LIST).locator('.ant-table-row', { hasText: `守卫测试${stamp}有限公司` });
    await row.getByRole('button', { name: /编\s*辑/ }).click();
    await screenShows(page, EDITOR);
    const editor = activePage(page, EDITOR).getByTestId('company-editor');
    const name = editor.getByLabel('企业名称');
    await expect.poll(() => name.inputValue(), { timeout: 10_000 }).toBe(`守卫测试${stamp}有限公司`);
    await editor.getByLabel('联系邮箱').fill('guard@example.com');
    await editor.getByLabel('备注').fill('切换标签后仍在');

    await switchTab(page, LIST);
    await switchTab(page, EDITOR);
    const kept = activePage(page, EDITOR);
    // Long enough for a refetch of the record to have landed, had there been one.
    await page.waitForLoadState('networkidle');
    expect(await kept.getByLabel('联系邮箱').inputValue()).toBe('guard@example.com');
    expect(await kept.getByLabel('备注').inputValue()).toBe('切换标签后仍在');
  });

  it('客户管理 企业列表 编辑: to 企业用户 and back to 基本信息', async () => {
    await websiteRoundTrip({
      basic: { path: '/crm/corporation/edit/corporation', testId: 'crm-tab-corporation' },
      query: `?compCode=${compCode}`,
      loaded: ['企业名称', `守卫测试${stamp}有限公司`],
      other: { path: '/crm/corporation/edit/employee', testId: 'crm-tab-employee' },
      typed: [
        ['联系邮箱', 'crm@example.com'],
        ['备注', '企业用户之后仍在'],
      ],
    });
  });

  it('客户管理 银行信息 编辑: to 企业用户 and back to 基本信息', async () => {
    await websiteRoundTrip({
      basic: { path: '/crm/corporation/bank-editor/basic-info', testId: 'crm-bank-basic' },
      query: `?bizCode=${bankBizCode}`,
      loaded: ['账户名称', `守卫测试${stamp}有限公司`],
      other: { path: '/crm/corporation/bank-editor/employee', testId: 'crm-bank-employee' },
      typed: [
        ['开户网点', '切换后仍在支行'],
        ['备注', '授权用户之后仍在'],
      ],
    });
  });
});

/**
 * A website record's 基本信息 with typed input, then its 企业用户 tab, then 基本信息 again: the
 * typed values are still there (the record's tabs are kept pages, filled once per record).
 */
async function websiteRoundTrip(t: {
  basic: { path: string; testId: string };
  query: string;
  /** A field and the value it shows once the record has loaded. */
  loaded: [string, string];
  other: { path: string; testId: string };
  typed: [string, string][];
}): Promise<void> {
  const basic = await openScreen(page, `${base}${t.basic.path}${t.query}`, t.basic.testId);
  await expect.poll(() => basic.getByLabel(t.loaded[0]).inputValue(), { timeout: 10_000 }).toBe(t.loaded[1]);
  for (const [label, value] of t.typed) await basic.getByLabel(label).fill(value);

  const tabs = page.getByTestId('website-tabs');
  await tabs.getByRole('menuitem', { name: '企业用户' }).click();
  await page.waitForURL((u) => u.pathname === t.other.path);
  await page.getByTestId(t.other.testId).waitFor();
  await tabs.getByRole('menuitem', { name: '基本信息' }).click();
  await page.waitForURL((u) => u.pathname === t.basic.path);
  const again = page.getByTestId(t.basic.testId).locator('visible=true');
  await again.waitFor();
  for (const [label, value] of t.typed) expect(await again.getByLabel(label).inputValue()).toBe(value);
}
