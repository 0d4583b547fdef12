import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { Page as ListPage } from '@portal/contract/api';
import { CONTRACT_PATHS, type ContractListRow } from '@portal/contract/contract';
import { SYSPARAM_PATHS, type SysParamsView } from '@portal/contract/sysparams';
import { NOTICE_PATHS, type NoticeView } from '@portal/contract/notices';
import { animationsDone, launchBrowser, newPage, shotPath, base, signIn } from './helpers';
import { confirm, data, openScreen, pick } from './flows';

/**
 * 参数设置 (docs/operations.md "Settings an administrator changes"): an administrator changes the
 * company's legal name; the screen keeps it and a printed contract names 甲方 by it; bad input is
 * told under its field, in Chinese, and saves nothing.
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

describe('参数设置', () => {
  it('changes the company name, shown again on the screen and on a printed contract; refuses bad input by field', async () => {
    const { page, context } = await newPage(browser, 1440, 960);
    const token = await signIn(context, password);
    const original = await data<SysParamsView>(SYSPARAM_PATHS.get, token);
    const name = `E2E保理${stamp}有限公司`;
    try {
      const screen = await openScreen(page, `${base}/system/config`, 'params-page');
      const nameInput = screen.getByLabel('公司名称', { exact: true });
      await expect.poll(() => nameInput.inputValue()).toBe(original.params.companyName);
      // The business date is shown on the same screen.
      await expect
        .poll(() => page.getByTestId('params-bizdate-current').textContent())
        .toMatch(/^\d{4}-\d{2}-\d{2}$/);

      // Bad input: told under the field, nothing sent.
      const errors = () => screen.locator('.ant-form-item-explain-error').allInnerTexts();
      await nameInput.fill('');
      await screen.getByRole('button', { name: /保\s*存/ }).click();
      await expect.poll(errors).toContain('公司名称不能为空');
      const regNo = screen.getByLabel('统一社会信用代码', { exact: true });
      await regNo.fill('91310000ABC');
      await nameInput.fill(name);
      await screen.getByRole('button', { name: /保\s*存/ }).click();
      await expect.poll(async () => (await errors()).join(' ')).toContain('统一社会信用代码');
      expect((await data<SysParamsView>(SYSPARAM_PATHS.get, token)).params.companyName).toBe(
        original.params.companyName,
      );

      // A valid save, confirmed, naming the signatory the prints carry at their foot.
      await regNo.fill(original.params.companyRegNo ?? '');
      await screen.getByLabel('签字人（法定代表人或授权代表）', { exact: true }).fill('张伟');
      await screen.getByRole('button', { name: /保\s*存/ }).click();
      await confirm(page);
      await expect
        .poll(async () => (await data<SysParamsView>(SYSPARAM_PATHS.get, token)).params.companyName)
        .toBe(name);
      await page.reload();
      const again = page.getByTestId('params-page');
      await expect.poll(() => again.getByLabel('公司名称', { exact: true }).inputValue()).toBe(name);

      // A demo contract's HTML preview names 甲方 by it.
      const contracts = await data<ListPage<ContractListRow>>(CONTRACT_PATHS.list, token, {
        contractNo: 'DEMO-BL-001',
      });
      const view = await openScreen(
        page,
        `${base}/factoring/contract/info-view?bizCode=${contracts.list[0]!.bizCode}`,
        'contract-view',
      );
      await view.getByTestId('print-button').hover();
      const [popup] = await Promise.all([
        context.waitForEvent('page'),
        page.locator('.ant-dropdown:visible').getByText('预览', { exact: true }).first().click(),
      ]);
      await popup.waitForURL((u) => u.pathname === '/preview-html', { timeout: 30_000 });
      const doc = popup.frameLocator('iframe.preview-html');
      await expect.poll(() => doc.locator('body').textContent(), { timeout: 15_000 }).toContain(name);
      expect(await doc.locator('body').textContent()).toContain('法定代表人或授权代表（签字）：张伟');
      await popup.close();
    } catch (err) {
      await page.screenshot({ path: shotPath('params-failed.png'), fullPage: true });
      throw err;
    } finally {
      await data(SYSPARAM_PATHS.save, token, original.params).catch(() => undefined);
      await context.close();
    }
  });

  it('通知公告: published from its screen, shown on the 工作 dashboard, gone once withdrawn', async () => {
    const { page, context } = await newPage(browser, 1440, 960);
    const token = await signIn(context, password);
    const title = `E2E公告${stamp}`;
    const minute = (hours: number) =>
      new Date(Date.now() + (hours + 8) * 3_600_000).toISOString().slice(0, 16).replace('T', ' ');
    // Taken once: read again later, a minute boundary passed meanwhile made the expected end differ
    // from the one typed.
    const from = minute(-1);
    const to = minute(24);
    try {
      await page.goto(`${base}/system/notice`);
      await page.getByRole('button', { name: /新\s*增/ }).click();
      const m = page.locator('.ant-modal:visible').filter({ hasText: '新增公告' });
      await m.waitFor();
      // Bad input is told under its field.
      await m.getByRole('button', { name: /保\s*存/ }).click();
      await expect
        .poll(() => m.locator('.ant-form-item-explain-error').allInnerTexts())
        .toContain('公告标题不能为空');
      await m.getByLabel('公告标题', { exact: true }).fill(title);
      await m.getByLabel('公告内容', { exact: true }).fill('第一行\n<script>alert(1)</script>');
      const range = m.locator('.ant-picker-range input');
      await range.first().click();
      await range.first().fill(from);
      await page.keyboard.press('Enter');
      await range.last().fill(to);
      await page.keyboard.press('Enter');
      await expect.poll(() => range.last().inputValue()).toBe(to);
      // The picker's popup slides away first: opened meanwhile, the select's dropdown moved under
      // the pointer and the option's click was lost.
      await animationsDone(page);
      await m.locator('.ant-select').last().click();
      await pick(page, '发布');
      await m.getByRole('button', { name: /保\s*存/ }).click();
      await confirm(page);
      await m.waitFor({ state: 'hidden' });
      const saved = await data<{ list: NoticeView[] }>(NOTICE_PATHS.list, token, { title });
      expect(saved.list[0]).toMatchObject({ title, state: 'published', depts: [] });

      // The dashboard shows it as text (the markup is shown, never run).
      await page.goto(`${base}/dashboard`);
      const card = page.getByTestId('widget-notices');
      await expect.poll(() => card.textContent()).toContain(title);
      await expect.poll(() => card.textContent()).toContain('<script>alert(1)</script>');

      // Edited: the dialog opens with the saved values; the save names the version it was made on.
      await page.goto(`${base}/system/notice`);
      const row = page.locator('.ant-table-row', { hasText: title });
      await row.getByRole('button', { name: /修\s*改/ }).click();
      const edit = page.locator('.ant-modal:visible').filter({ hasText: '修改公告' });
      await edit.waitFor();
      const titleInput = edit.getByLabel('公告标题', { exact: true });
      await expect.poll(() => titleInput.inputValue()).toBe(title);
      await expect.poll(() => edit.locator('.ant-picker-range input').last().inputValue()).toBe(to);
      await titleInput.fill(`${title}（改）`);
      await edit.getByRole('button', { name: /保\s*存/ }).click();
      await confirm(page);
      await edit.waitFor({ state: 'hidden' });
      const edited = await data<{ list: NoticeView[] }>(NOTICE_PATHS.list, token, { title });
      expect(edited.list[0]).toMatchObject({ title: `${title}（改）`, version: 1, state: 'published' });

      // Withdrawn from the list: the dashboard no longer shows it.
      await row.getByRole('button', { name: /撤\s*回/ }).click();
      await confirm(page);
      await expect.poll(() => row.textContent()).toContain('已撤回');
      await page.goto(`${base}/dashboard`);
      await page.getByTestId('dashboard').waitFor();
      await expect
        .poll(async () =>
          (await page.getByTestId('widget-notices').count()) === 0
            ? ''
            : await page.getByTestId('widget-notices').textContent(),
        )
        .not.toContain(title);
    } catch (err) {
      await page.screenshot({ path: shotPath('notice-failed.png'), fullPage: true });
      throw err;
    } finally {
      const left = await data<{ list: NoticeView[] }>(NOTICE_PATHS.list, token, { title }).catch(() => null);
      for (const n of left?.list ?? [])
        await data(NOTICE_PATHS.delete, token, { id: n.id }).catch(() => undefined);
      await context.close();
    }
  });
});
