import { describe, expect, it } from 'vitest';
import { VOUCHER_PATHS, type TrialBalance, type VoucherPage } from '@portal/contract/voucher';
import { packageFileName } from '@portal/contract/voucher-package';
import { animationsDone, activePage, downloadXlsx, screenShows, shotPath, base } from './helpers';
import { confirm, data, pick, asAdmin, fileBrowser } from './flows';

const browser = fileBrowser();

const ACCOUNTS = '/factoring/accounts/voucher-account';
const VOUCHERS = '/factoring/accounts/voucher';
const cents = (v: unknown) => Math.round(Number(v ?? 0) * 100);

/** Σ debit / Σ credit in cents per account code of a file's rows. */
function sums(rows: unknown[][], code: number, debit: number, credit: number): Record<string, string> {
  const out: Record<string, [number, number]> = {};
  for (const r of rows) {
    const k = String(r[code]);
    const s = (out[k] ??= [0, 0]);
    s[0] += cents(r[debit]);
    s[1] += cents(r[credit]);
  }
  return Object.fromEntries(
    Object.entries(out)
      .filter(([, [d, c]]) => d !== 0 || c !== 0)
      .map(([k, [d, c]]) => [k, `${d}/${c}`]),
  );
}

describe('导出到财务软件 (凭证引入)', () => {
  it(
    'finance maps 应收保理款 to the packages’ codes, exports a month for 用友 and for 金蝶, and each file sums to the trial balance',
    { timeout: 240_000 },
    () =>
      asAdmin(browser(), async ({ page, token }) => {
        // 科目映射: the package codes of 应收保理款, saved on the screen.
        await page.goto(`${base}${ACCOUNTS}`);
        await screenShows(page, ACCOUNTS);
        const mapping = activePage(page, ACCOUNTS).getByTestId('package-accounts');
        await mapping.getByLabel('保理融资本金用友科目编码').fill('113501');
        await mapping.getByLabel('保理融资本金金蝶科目编码').fill('1135.01');
        const row = mapping.locator('tr.ant-table-row', { hasText: '保理融资本金' });
        await row.getByRole('button', { name: /保\s*存/ }).click();
        await confirm(page, '保理融资本金');
        await expect.poll(() => row.getByRole('button', { name: /保\s*存/ }).isDisabled()).toBe(true);
        await page.screenshot({ path: shotPath('package-accounts.png') });

        // The month of the demo office's first disbursement.
        const vouchers = await data<VoucherPage>(VOUCHER_PATHS.list, token, {
          pageNum: 1,
          pageSize: 100,
          orderBy: 'voucherDate',
          order: 'asc',
        });
        const period = vouchers.list.find((v) => v.docType === 'loan' && !v.redOfNo)!.period;
        const open = async () => {
          await page.goto(`${base}${VOUCHERS}`);
          await screenShows(page, VOUCHERS);
          await activePage(page, VOUCHERS).getByRole('button', { name: '导出到财务软件' }).click();
          const dialog = page.locator('.ant-modal').filter({ hasText: '导出到财务软件（凭证引入）' });
          await dialog.waitFor();
          await animationsDone(page);
          await dialog.getByLabel('会计期间').fill(period);
          return dialog;
        };

        const y = await open();
        const yonyou = await downloadXlsx(
          page,
          () => y.getByRole('button', { name: /导\s*出/ }).click(),
          packageFileName('yonyou', period),
        );
        expect(yonyou[0]!.slice(0, 8)).toEqual([
          '制单日期',
          '凭证类别字',
          '凭证号',
          '附单据数',
          '摘要',
          '科目编码',
          '借方金额',
          '贷方金额',
        ]);

        const k = await open();
        await k.getByLabel('财务软件').click();
        await pick(page, '金蝶 K/3 Cloud');
        // Without its 账簿 the form names the field before anything is sent.
        await k.getByRole('button', { name: /导\s*出/ }).click();
        await expect.poll(() => k.textContent()).toContain('请输入账簿编码');
        await k.getByLabel('账簿编码').fill('001');
        const kingdee = await downloadXlsx(
          page,
          () => k.getByRole('button', { name: /导\s*出/ }).click(),
          packageFileName('kingdee', period),
        );
        expect(kingdee[1]!.slice(0, 2)).toEqual(['*单据头(序号)', '*账簿(编码)']);

        // Both files reproduce the month's movement on the trial balance, per account.
        const tb = await data<TrialBalance>(VOUCHER_PATHS.trial, token, { period });
        const expected = (map: Record<string, string>) =>
          sums(
            tb.rows.map((r) => [map[r.accountCode] ?? r.accountCode, r.debit, r.credit]),
            0,
            1,
            2,
          );
        expect(sums(yonyou.slice(1), 5, 6, 7)).toEqual(expected({ '1135': '113501' }));
        expect(sums(kingdee.slice(2), 7, 13, 14)).toEqual(expected({ '1135': '1135.01' }));
        expect(Object.keys(expected({}))).toContain('1135');
      }),
  );
});
