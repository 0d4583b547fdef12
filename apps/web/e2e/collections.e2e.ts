import { describe, expect, it } from 'vitest';
import { COLLECTION_PATHS, type CollectionRow } from '@portal/contract/collections';
import { activePage, downloadXlsx, shotPath, base } from './helpers';
import { data, pick, asAdmin, fileBrowser } from './flows';

const browser = fileBrowser();

describe('逾期催收', () => {
  it(
    'lists the demo’s overdue contract, shows its 催收记录, records a new contact and exports the worklist',
    { timeout: 240_000 },
    () =>
      asAdmin(
        browser(),
        async ({ page, token }) => {
          const expected = await data<{ list: CollectionRow[]; total: number }>(
            COLLECTION_PATHS.list,
            token,
            {
              pageNum: 1,
              pageSize: 50,
            },
          );
          // The demo seeds one overdue contract with two 催收记录 (docs/collections.md).
          const demo = expected.list.find((r) => r.lastContactDate !== null)!;
          expect(demo).toMatchObject({ lastContactChannel: 'visit', promiseState: 'open' });

          await page.goto(`${base}/factoring/contract/collection`);
          const screen = activePage(page, '/factoring/contract/collection');
          const row = screen.locator('tr', { hasText: demo.contractNo }).first();
          await row.waitFor();
          expect(await row.textContent()).toContain('上门');
          await page.screenshot({ path: shotPath('collections.png') });

          await row.getByRole('button', { name: '催收记录' }).click();
          const drawer = page.getByTestId('collection-drawer');
          const records = drawer.getByTestId('collection-records').locator('tbody tr');
          await expect.poll(() => records.count()).toBe(2);

          await drawer.getByRole('button', { name: '登记催收记录' }).click();
          const modal = page.locator('.ant-modal', { hasText: '登记催收记录' });
          await modal.getByLabel('联系人').fill('出纳 陈女士');
          await modal.getByLabel('催收结果').click();
          await pick(page, '拒绝还款');
          await modal.getByLabel('情况说明').fill('浏览器测试：客户称资金紧张');
          await modal.getByRole('button', { name: /保\s*存/ }).click();
          await expect.poll(() => records.count()).toBe(3);
          expect(await records.first().textContent()).toContain('拒绝还款');
          await drawer.locator('.ant-drawer-close').click();

          // The worklist now shows the new contact as the latest.
          await expect.poll(() => row.textContent()).toContain('拒绝还款');

          const rows = await downloadXlsx(
            page,
            () => screen.getByRole('button', { name: /导\s*出/ }).click(),
            '逾期催收.xlsx',
          );
          expect(String(rows[0]![0])).toContain('逾期催收');
          expect(rows[1]).toContain('逾期金额');
          expect(rows.some((r) => r[1] === demo.contractNo)).toBe(true);
          expect(rows.at(-1)![0]).toBe('合计');
        },
        { failureShot: 'collections-failed.png' },
      ),
  );
});
