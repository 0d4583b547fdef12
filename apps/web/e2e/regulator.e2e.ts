import { describe, expect, it } from 'vitest';
import { formatMoney } from '@portal/contract/format';
import { LEDGER_PATHS, type LedgerPage } from '@portal/contract/ledger';
import { REGULATOR_PATHS, type RegulatorReport } from '@portal/contract/regulator';
import { activePage, downloadXlsx, screenShows, shotPath, base } from './helpers';
import { data, today, asAdmin, fileBrowser } from './flows';

const browser = fileBrowser();

const PAGE = '/factoring/accounts/regulator';

describe('监管报表', () => {
  it(
    'shows the month’s figures, equal to the ledger of the report date, and exports them',
    { timeout: 240_000 },
    () =>
      asAdmin(browser(), async ({ page, token }) => {
        const month = today().slice(0, 7);
        const r = await data<RegulatorReport>(REGULATOR_PATHS.report, token, { month });
        const ledger = await data<LedgerPage>(LEDGER_PATHS.list, token, {
          pageNum: 1,
          pageSize: 10,
          asOf: r.asOf,
        });
        expect(r.totals.principal).toBe(ledger.totals.principalOutstanding);

        await page.goto(`${base}${PAGE}`);
        await screenShows(page, PAGE);
        const screen = activePage(page, PAGE);
        await screen.getByLabel('报表月份').fill(month);
        await screen.getByRole('button', { name: /查\s*询/ }).click();
        const totals = screen.getByTestId('regulator-totals');
        await expect
          .poll(() => totals.textContent(), { timeout: 15_000 })
          .toContain(formatMoney(r.totals.principal));
        expect(await totals.textContent()).toContain(r.asOf);
        await page.screenshot({ path: shotPath('regulator.png') });

        const rows = await downloadXlsx(
          page,
          () => screen.getByRole('button', { name: /导\s*出/ }).click(),
          `监管报表_${month}.xlsx`,
        );
        expect(String(rows[0]![0])).toContain(`数据日期：${r.asOf}`);
        const total = rows.find((x) => x[0] === '期末余额' && String(x[1]).startsWith('合计'))!;
        expect(Number(total[3]).toFixed(2)).toBe(r.totals.principal);
      }),
  );
});
