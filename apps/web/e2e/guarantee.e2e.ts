import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { COMPANY_PATHS, type CompanyAdd } from '@portal/contract/company';
import { CREDIT_PATHS } from '@portal/contract/credit';
import { usccCheckChar } from '@portal/contract/uscc';
import { base, launchBrowser, login, newPage, shotPath, tokenOf } from './helpers';
import {
  addChecker,
  admitCustomer,
  approve,
  clickTab,
  confirm,
  data,
  demoCredit,
  loginAs,
  openScreen,
  pick,
  today,
} from './flows';

/**
 * 担保授信 through the screens (docs/credit.md "Guarantees and collateral"): a credit that requires
 * a guarantee gets a person guarantor with the contract of guarantee and a property as collateral
 * in the editor, is approved by the checker, shows its guarantee ending soon on the view, and
 * refuses to release its only guarantee; the demo credit shows its guarantors and collateral.
 */

const password = inject('adminPassword');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const stamp = String(Date.now()).slice(-6);
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

function plusDays(date: string, n: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

async function addCompany(token: string, name: string): Promise<string> {
  const first17 = `91310115MB${String(Number(stamp) * 10 + 7)
    .padStart(7, '0')
    .slice(-7)}`;
  const body: CompanyAdd = {
    compName: name,
    usccCode: first17 + usccCheckChar(first17),
    compType: 'private',
    roles: ['supplier'],
    legalPerson: '测试法人',
    regCapital: '10000000.00',
    provinceCode: '310000',
    cityCode: '310100',
    areaCode: '310115',
  };
  return (await data<{ compCode: string }>(COMPANY_PATHS.add, token, body)).compCode;
}

describe('guarantees and collateral on the credit screens', () => {
  it('records a guarantor and collateral, approves the credit, shows the reminder and keeps the only guarantee', async () => {
    const maker = await newPage(browser);
    await login(maker.page, base, password);
    const token = (await tokenOf(maker.context))!;
    const custName = `担保授信客户${stamp}`;
    const custCode = await addCompany(token, custName);
    // Only an admitted customer holds a credit (客户准入, docs/admission.md).
    await admitCustomer(token, custCode);
    const checkerUser = await addChecker(token);
    const checker = await newPage(browser);
    await loginAs(checker.page, checkerUser.userName, checkerUser.password);
    const saved = await data<{ bizCode: string }>(CREDIT_PATHS.saveCreditPlatform, token, {
      custCode,
      limitAmount: '2000000.00',
      startDate: '2020-01-01',
      endDate: '2099-12-31',
      cycle: 'cyclical',
      product: 'factoring',
      guaranteeMode: 'guaranteed',
    });
    try {
      await scenario(maker.page, checker.page, saved.bizCode);
    } catch (err) {
      await maker.page.screenshot({ path: shotPath('guarantee-failed-maker.png') });
      await checker.page.screenshot({ path: shotPath('guarantee-failed-checker.png') });
      throw err;
    }
    await maker.context.close();
    await checker.context.close();
  }, 360_000);
});

async function scenario(page: Page, checkerPage: Page, bizCode: string) {
  const editor = await openScreen(
    page,
    `${base}/factoring/credit/info-editor?bizCode=${bizCode}`,
    'credit-editor',
  );
  await expect.poll(() => editor.getByLabel('担保要求').locator('..').textContent()).toContain('须有担保');
  await clickTab(editor, '担保授信');
  const gua = editor.getByTestId('gua-editor');
  await gua.getByRole('button', { name: /添加担保/ }).click();
  await gua.getByLabel('担保人类型').click();
  await pick(page, '自然人');
  await gua.getByLabel('身份证号').fill('11010119800101007X');
  await gua.getByLabel('担保人名称').fill('王五');
  await gua.getByLabel('担保方式').click();
  await pick(page, '连带责任保证');
  await gua.getByLabel('担保金额').fill('800000.00');
  const start = today();
  const end = plusDays(start, 10);
  await gua.getByLabel('担保起始日').fill(start);
  await gua.getByLabel('担保到期日').fill(end);
  await gua.locator('input[type=file]').first().setInputFiles({
    name: '个人保证合同.pdf',
    mimeType: 'application/pdf',
    buffer: PDF,
  });
  await expect.poll(() => gua.textContent(), { timeout: 20_000 }).toContain('个人保证合同.pdf');
  await gua.getByRole('button', { name: /添加抵质押物/ }).click();
  await gua.getByLabel('抵质押物名称').fill('厂房一号楼');
  await gua.getByLabel('评估价值').fill('1500000.55');
  await gua.getByLabel('评估日期').fill(start);
  await gua.getByLabel('登记编号').fill(`沪(2026)不动产权第${stamp}号`);
  await gua.getByRole('button', { name: /保\s*存/ }).click();
  await confirm(page, '此操作将保存担保授信！ 是否继续？');
  await expect.poll(() => page.locator('.ant-message').textContent()).toContain('操作成功');

  await clickTab(editor, '平台授信');
  await editor.getByRole('button', { name: /提交审批/ }).click();
  await confirm(page);
  await page.waitForURL(/info-view\?bizCode=/);
  await approve(checkerPage, '/factoring/credit/info-view', bizCode, 'credit-view');

  // The view: the guarantee ends in 10 days (即将到期, in the reminder), the collateral is listed.
  const view = checkerPage.getByTestId('credit-view');
  await clickTab(view, '业务单据');
  await clickTab(view, '担保授信');
  const tab = view.getByTestId('gua-view');
  await expect.poll(() => tab.textContent(), { timeout: 10_000 }).toContain('王五');
  expect(await tab.getByTestId('gua-alerts').textContent()).toContain(`将于 ${end} 到期，还有10天`);
  expect(await tab.textContent()).toContain('即将到期');
  expect(await tab.textContent()).toContain('个人保证合同.pdf');
  expect(await tab.getByTestId('collateral-table').textContent()).toContain('1,500,000.55');
  await checkerPage.screenshot({ path: shotPath('guarantee-view.png') });

  // The only guarantee of an approved credit that requires one cannot be released.
  await tab.getByRole('button', { name: /解除担保/ }).click();
  const dialog = checkerPage.locator('.ant-modal').filter({ hasText: '解除原因' });
  await dialog.getByLabel('解除原因').fill('担保人申请退出');
  await dialog.getByRole('button', { name: /解\s*除/ }).click();
  await confirm(checkerPage, '确定要解除「王五」的担保吗？');
  await expect
    .poll(() => checkerPage.getByTestId('toast-warning').first().textContent(), { timeout: 10_000 })
    .toContain('唯一有效的担保，不能解除');
}

describe('the demo office', () => {
  it('shows the demo credit with its guarantors and collateral', async () => {
    const maker = await newPage(browser);
    await login(maker.page, base, password);
    const token = (await tokenOf(maker.context))!;
    const { credBizCode } = await demoCredit(token);
    const view = await openScreen(
      maker.page,
      `${base}/factoring/credit/info-view?bizCode=${credBizCode}`,
      'credit-view',
    );
    await expect.poll(() => view.textContent(), { timeout: 10_000 }).toContain('须有担保');
    await clickTab(view, '担保授信');
    const tab = view.getByTestId('gua-view');
    await expect.poll(() => tab.textContent(), { timeout: 10_000 }).toContain('张伟');
    // The collateral comes by a call of its own (GuaranteeSection.tsx), answered after the
    // guarantors' or before: polled as they are.
    await expect
      .poll(() => tab.getByTestId('collateral-table').textContent(), { timeout: 10_000 })
      .toContain('12,000,000.00');
    await maker.context.close();
  }, 60_000);
});
