import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Page as ListPage } from '@portal/contract/api';
import { CONTRACT_PATHS, type ContractListRow } from '@portal/contract/contract';
import { launchBrowser, newPage, shotPath, base, signIn } from './helpers';
import { confirm, data, openScreen } from './flows';

const password = inject('adminPassword');
const stamp = String(Date.now()).slice(-6);
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/**
 * What a screenshot shows, measured in the browser: the share of ink (dark pixels) over the whole
 * shot and within the band of the title, so a blank or unstyled page fails.
 */
async function inkOf(page: Page, png: Buffer, titleBand: { top: number; bottom: number }) {
  return page.evaluate(
    async ({ src, band }) => {
      const img = new Image();
      img.src = src;
      await img.decode();
      const canvas = document.createElement('canvas');
      canvas.width = img.width;
      canvas.height = img.height;
      const ctx = canvas.getContext('2d')!;
      ctx.drawImage(img, 0, 0);
      const { data: px } = ctx.getImageData(0, 0, img.width, img.height);
      let ink = 0;
      let bandInk = 0;
      for (let i = 0; i < px.length; i += 4) {
        if (px[i]! + px[i + 1]! + px[i + 2]! < 3 * 110) {
          ink++;
          const y = Math.floor(i / 4 / img.width);
          if (y >= band.top && y < band.bottom) bandInk++;
        }
      }
      const bandArea = img.width * (band.bottom - band.top);
      return { ink: ink / (img.width * img.height), bandInk: bandInk / bandArea };
    },
    { src: `data:image/png;base64,${png.toString('base64')}`, band: titleBand },
  );
}

describe('print templates and printing', () => {
  it('writes a template with the live preview, prints a contract as PDF and as the HTML preview page', async () => {
    const { page, context } = await newPage(browser, 1440, 960);
    const token = await signIn(context, password);
    try {
      // The standard templates of the demo data are listed and enabled.
      const list = await openScreen(page, `${base}/factoring/config/print`, 'print-list');
      await expect.poll(() => list.locator('.ant-table-row').count()).toBeGreaterThanOrEqual(6);
      await expect.poll(() => list.getByText('标准保理合同').count()).toBe(1);

      // A new template: typed, a placeholder inserted from the catalogue, previewed live, saved.
      await list.getByRole('button', { name: /新\s*增/ }).click();
      const editor = page.getByTestId('print-editor');
      await editor.waitFor();
      await editor.getByPlaceholder('如：标准保理合同').fill(`E2E合同${stamp}`);
      const content = editor.getByTestId('print-content');
      await content.fill('<h1>测试合同</h1>\n<p>卖方：');
      await editor.getByTestId('print-catalogue').getByText('客户名称（卖方）', { exact: true }).click();
      await expect.poll(() => content.inputValue()).toBe('<h1>测试合同</h1>\n<p>卖方：{{custName}}');
      await content.press('End');
      await content.pressSequentially('，金额{{financingAmountCapitals}}</p>');
      const live = page.frameLocator('[data-testid="print-live-preview"]');
      await expect
        .poll(() => live.locator('p').textContent())
        .toBe('卖方：上海华东机电设备有限公司，金额壹佰万元整');
      // A misspelt placeholder is pointed out before saving.
      await content.pressSequentially('{{custNmae}}');
      await expect.poll(() => editor.getByText('未知占位符：{{custNmae}}').count()).toBe(1);
      await content.fill('<h1>测试合同</h1><p>卖方：{{custName}}，金额{{financingAmountCapitals}}</p>');
      await editor.getByRole('button', { name: /保\s*存/ }).click();
      await page
        .waitForURL((u) => u.pathname === '/factoring/config/print')
        .catch(async (err: unknown) => {
          await page.screenshot({ path: shotPath('print-save-failure.png'), fullPage: true });
          throw err;
        });
      const row = page.locator('.ant-table-row', { hasText: `E2E合同${stamp}` });
      await expect.poll(() => row.getByText('停用', { exact: true }).count()).toBe(1);

      // Printing a demo contract: the PDF in the viewer, then the HTML preview page.
      const contracts = await data<ListPage<ContractListRow>>(CONTRACT_PATHS.list, token, {
        contractNo: 'DEMO-BL-001',
      });
      const contract = contracts.list[0]!;
      const view = await openScreen(
        page,
        `${base}/factoring/contract/info-view?bizCode=${contract.bizCode}`,
        'contract-view',
      );
      await view.getByTestId('print-button').hover();
      await page.locator('.ant-dropdown:visible').getByText('查看PDF').first().click();
      const viewer = page.getByTestId('print-pdf-viewer');
      await viewer.waitFor({ timeout: 30_000 });
      expect(await viewer.getAttribute('src')).toMatch(/^blob:/);
      await page.keyboard.press('Escape');
      await viewer.waitFor({ state: 'detached' });

      await view.getByTestId('print-button').hover();
      const [popup] = await Promise.all([
        context.waitForEvent('page'),
        page.locator('.ant-dropdown:visible').getByText('预览', { exact: true }).first().click(),
      ]);
      await popup.waitForURL((u) => u.pathname === '/preview-html', { timeout: 30_000 });
      const doc = popup.frameLocator('iframe.preview-html');
      await expect.poll(() => doc.locator('h1').textContent(), { timeout: 15_000 }).toBe('国内保理业务合同');
      expect(await doc.locator('body').textContent()).toContain(contract.custName);
      expect(await popup.title()).toBe('HTML预览');
      await popup.setViewportSize({ width: 900, height: 1100 });
      const shot = await popup.screenshot({ path: shotPath('print-preview-html.png') });
      const ink = await inkOf(popup, shot, { top: 0, bottom: 120 });
      // Black text on white: some ink, far from all, and the centred title carries ink of its own.
      expect(ink.ink).toBeGreaterThan(0.01);
      expect(ink.ink).toBeLessThan(0.3);
      expect(ink.bandInk).toBeGreaterThan(0.01);
      await popup.close();

      // The new template goes again: deleted after the confirmation.
      await openScreen(page, `${base}/factoring/config/print`, 'print-list');
      await page
        .locator('.ant-table-row', { hasText: `E2E合同${stamp}` })
        .getByRole('button', { name: '删除' })
        .click();
      await confirm(page);
      await expect.poll(() => page.locator('.ant-table-row', { hasText: `E2E合同${stamp}` }).count()).toBe(0);
    } catch (err) {
      await page.screenshot({ path: shotPath('print-failed.png'), fullPage: true });
      throw err;
    } finally {
      await context.close();
    }
  });
});
