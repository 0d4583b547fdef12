import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ASSIGN_NOTICE_PATHS, type NoticeList } from '@portal/contract/assignment';
import { CONTRACT_PATHS, type ContractListRow } from '@portal/contract/contract';
import { base, activePage, launchBrowser, login, newPage, shotPath, tokenOf, watchPage } from './helpers';
import { data } from './flows';

const password = inject('adminPassword');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('应收账款转让通知 (docs/assignment-notice.md)', () => {
  it(
    'the list shows the demo’s confirmed and pending 明保理 contracts; the debtor’s 确认 is recorded on the contract view',
    { timeout: 240_000 },
    async () => {
      const { context, page } = await newPage(browser, 1600, 960);
      const report = watchPage(page);
      try {
        await login(page, base, password);
        const token = (await tokenOf(context))!;
        const rows = await data<{ list: ContractListRow[] }>(CONTRACT_PATHS.list, token, {
          pageNum: 1,
          pageSize: 50,
          contractNo: 'DEMO-BL-00',
        });
        const pending = rows.list.find((r) => r.contractNo === 'DEMO-BL-002')!;

        expect(rows.list.find((r) => r.contractNo === 'DEMO-BL-001')!.noticeState).toBe('confirmed');
        expect(pending.noticeState).toBe('pending');
        await page.goto(`${base}/factoring/contract/info`);
        const list = activePage(page, '/factoring/contract/info');
        // The column may be left out of a narrow table: then it shows in the row's expansion.
        const stateOf = async (contractNo: string) => {
          const tag = list.getByTestId(`notice-state-${contractNo}`);
          if ((await tag.count()) === 0) {
            const row = list.locator('tr.ant-table-row', { hasText: contractNo }).first();
            await row.waitFor();
            await row.locator('.ant-table-row-expand-icon').click();
          }
          return (await tag.first().textContent()) ?? '';
        };
        await list.locator('tr.ant-table-row', { hasText: 'DEMO-BL-001' }).first().waitFor();
        expect(await stateOf('DEMO-BL-001')).toBe('明保理 已确认');
        expect(await stateOf('DEMO-BL-002')).toBe('明保理 待确认');
        await page.screenshot({ path: shotPath('assignment-list.png') });

        await page.goto(`${base}/factoring/contract/info-view?bizCode=${pending.bizCode}`);
        const view = activePage(page, '/factoring/contract/info-view');
        await view.getByRole('tab', { name: '转让通知' }).click();
        const status = view.getByTestId('notice-status-演示核心企业集团有限公司');
        await expect.poll(async () => (await status.textContent()) ?? '').toBe('待确认');
        await view.getByRole('button', { name: /^确\s*认$/ }).click();

        const modal = page.locator('.ant-modal', { hasText: '登记债务人确认' });
        await modal.getByLabel('确认人').fill('财务部 陈经理');
        await modal.locator('[data-testid="file-list"] input[type="file"]').setInputFiles({
          name: '转让通知书回执.pdf',
          mimeType: 'application/pdf',
          buffer: PDF,
        });
        await modal.getByTestId('file-item').waitFor();
        await modal.getByRole('button', { name: /保\s*存/ }).click();

        await expect.poll(async () => (await status.textContent()) ?? '').toBe('已确认');
        expect(await view.getByTestId('notice-state').textContent()).toContain('明保理 已确认');
        const notices = await data<NoticeList>(ASSIGN_NOTICE_PATHS.list, token, undefined, {
          contBizCode: pending.bizCode,
        });
        expect(notices.notices[0]).toMatchObject({ status: 'confirmed', confirmedBy: '财务部 陈经理' });
        expect(notices.notices[0]!.files.map((f) => f.originFileName)).toEqual(['转让通知书回执.pdf']);
        await page.screenshot({ path: shotPath('assignment-confirmed.png') });
      } catch (e) {
        throw new Error(`${String(e)}\n${report()}`);
      } finally {
        await context.close();
      }
    },
  );
});
