import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { usccCheckChar } from '@portal/contract/uscc';
import { animationsDone, activePage, launchBrowser, newPage, shotPath, base, signIn } from './helpers';
import { confirm } from './flows';

const password = inject('adminPassword');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

describe('master data screens', () => {
  it('creates a customer with a cascader region and a PDF, previews it, exports the list and opens the xlsx', async () => {
    // Wide enough for every column of the customer list in its row (narrower, the lower ones fold
    // into the row's expansion: docs/architecture.md "Lists fit their box").
    const { context, page } = await newPage(browser, 2400, 1000);
    await signIn(context, password);
    await page.goto(`${base}/factoring/config/company`);
    const list = activePage(page, '/factoring/config/company');
    await list.getByRole('button', { name: /新\s*增/ }).click();
    await page.waitForURL(`${base}/factoring/config/company-editor`);

    const name = `浏览器测试供应链有限公司${Date.now() % 100000}`;
    const first17 = `91310115MA${String(Date.now()).slice(-7)}`;
    const editor = activePage(page, '/factoring/config/company-editor').getByTestId('company-editor');
    await editor.getByLabel('企业名称').fill(name);
    await editor.getByLabel('统一社会信用代码').fill(first17 + usccCheckChar(first17));
    await editor.getByLabel('法定代表人').fill('测试法人');
    await editor.getByLabel('注册资本（元）').fill('12345678.90');
    await editor.getByLabel('客户角色').click();
    await animationsDone(page);
    await page.locator('.ant-select-item-option[title="供应商"]').click();
    await page.keyboard.press('Escape');

    // The region cascader: 上海市 / 市辖区 / 浦东新区.
    await editor.getByLabel('所在地区').click();
    const menus = page.locator('.ant-cascader-dropdown:visible .ant-cascader-menu');
    await animationsDone(page);
    await menus.nth(0).locator('.ant-cascader-menu-item[title="上海市"]').click();
    await animationsDone(page);
    await menus.nth(1).locator('.ant-cascader-menu-item[title="市辖区"]').click();
    await animationsDone(page);
    await menus.nth(2).locator('.ant-cascader-menu-item[title="浦东新区"]').click();
    await page.keyboard.press('Escape');
    await expect.poll(() => editor.locator('.ant-cascader').first().textContent()).toContain('浦东新区');

    // Upload a PDF and preview it in the PDF viewer.
    await editor.locator('[data-testid="file-list"] input[type="file"]').setInputFiles({
      name: '营业执照.pdf',
      mimeType: 'application/pdf',
      buffer: PDF,
    });
    const item = editor.getByTestId('file-item');
    await item.waitFor();
    expect(await item.textContent()).toContain('营业执照.pdf');
    const previewed = page.waitForResponse((r) => r.url().includes('/third/file/preview'));
    await item.getByRole('button', { name: /预\s*览/ }).click();
    const viewer = page.getByTestId('pdf-viewer');
    await viewer.waitFor();
    const res = await previewed;
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toBe('application/pdf');
    await page.screenshot({ path: shotPath('company-pdf-preview.png') });
    await page.locator('.ant-modal-close').click();
    await viewer.waitFor({ state: 'detached' });

    await editor.getByRole('button', { name: /保\s*存/ }).click();
    await page.waitForURL(`${base}/factoring/config/company`);
    const row = list.locator('.ant-table-row', { hasText: name });
    await row.waitFor();
    expect(await row.textContent()).toContain('12,345,678.90');
    expect(await row.textContent()).toContain('上海市 / 市辖区 / 浦东新区');
    await page.screenshot({ path: shotPath('company-list.png') });

    // Export: the browser downloads 企业客户明细表.xlsx; open it.
    const downloading = page.waitForEvent('download');
    await list.getByRole('button', { name: /导\s*出/ }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('企业客户明细表.xlsx');
    const path = shotPath('企业客户明细表.xlsx');
    await download.saveAs(path);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(readFileSync(path) as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect(ws.getRow(1).getCell(2).value).toBe('企业名称');
    expect(ws.getRow(1).getCell(7).value).toBe('注册资本（元）');
    const names: string[] = [];
    ws.eachRow((r, i) => {
      if (i > 1) names.push(String(r.getCell(2).value));
    });
    // Registered capital as a numeric cell with the 2-decimal format, so that Excel sums it.
    const capital = ws.getRow(names.indexOf(name) + 2).getCell(7);
    expect([capital.value, capital.numFmt]).toEqual([12345678.9, '#,##0.00']);
    const last = ws.getRow(ws.rowCount);
    expect(last.getCell(1).value).toBe('合计');
    expect(last.getCell(2).value).toBe(`${ws.rowCount - 2}户`);
    await context.close();
  });

  it('bank accounts: add one, set it as default with confirmation, delete with confirmation', async () => {
    const { context, page } = await newPage(browser);
    await signIn(context, password);
    await page.goto(`${base}/factoring/config/bank`);
    const list = activePage(page, '/factoring/config/bank');
    await list.getByRole('button', { name: /新\s*增/ }).click();
    const modal = page.locator('.ant-modal', { hasText: '新增银行账户' });
    await modal.getByLabel('本公司').check();
    const bank = modal.getByLabel('开户银行');
    await bank.click();
    await bank.fill('招商银行');
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option[title="招商银行（308）"]')
      .waitFor();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => modal.locator('.ant-form-item', { hasText: '开户银行' }).textContent())
      .toContain('招商银行（308）');
    const branch = `招商银行深圳分行${Date.now() % 100000}`;
    await modal.getByLabel('开户网点').fill(branch);
    await modal.getByLabel('账户名称').fill('本公司');
    const accountNo = `7559${String(Date.now()).slice(-10)}`;
    await modal.getByLabel('银行账号').fill(accountNo);
    await modal.getByRole('button', { name: /保\s*存/ }).click();
    await modal.waitFor({ state: 'hidden' }).catch(async (err: unknown) => {
      await page.screenshot({ path: shotPath('bank-save-failed.png') });
      throw err;
    });
    const row = list.locator('.ant-table-row', { hasText: branch });
    await row.waitFor({ timeout: 10_000 }).catch(async (err: unknown) => {
      await page.screenshot({ path: shotPath('bank-save-failed.png') });
      throw err;
    });
    // Our demo collection account is the default already: this one is not.
    await row.getByRole('button', { name: '设为默认' }).click();
    await confirm(page);
    // The 默认 column's tag, not the 设为默认 link (whose words hold 默认 too).
    await row.locator('.ant-tag', { hasText: '默认' }).waitFor();
    await row.getByRole('button', { name: /删\s*除/ }).click();
    await confirm(page);
    await row.waitFor({ state: 'detached' });
    await page.screenshot({ path: shotPath('bank-list.png') });
    await context.close();
  });
});
