import { describe, expect, it } from 'vitest';
import { formatMoney } from '@portal/contract/format';
import { LEDGER_PATHS, type LedgerPage, type Statement } from '@portal/contract/ledger';
import { animationsDone, activePage, downloadXlsx, shotPath, base } from './helpers';
import { data, today, asAdmin, fileBrowser } from './flows';

const browser = fileBrowser();

describe('保理业务台账 and 客户对账单', () => {
  it(
    'a finance user exports the ledger and a customer statement, and the workbooks hold the screen’s figures',
    { timeout: 240_000 },
    () =>
      asAdmin(browser(), async ({ page, token }) => {
        // The demo office's portfolio: the ledger as the server computes it, for the checks below.
        const expected = await data<LedgerPage>(LEDGER_PATHS.list, token, { pageNum: 1, pageSize: 500 });
        expect(expected.total).toBeGreaterThan(0);

        await page.goto(`${base}/factoring/accounts/ledger`);
        const ledger = activePage(page, '/factoring/accounts/ledger');
        const totals = ledger.getByTestId('ledger-totals');
        await expect
          .poll(() => totals.textContent(), { timeout: 15_000 })
          .toContain(formatMoney(expected.totals.principalOutstanding));
        expect(await ledger.getByTestId('ledger-as-of').textContent()).toContain(`台账日期 ${expected.asOf}`);

        // A malformed date is named before anything is sent.
        await ledger.getByLabel('台账日期').fill('2026-13-01');
        await ledger.getByRole('button', { name: /查\s*询/ }).click();
        expect(await ledger.getByTestId('ledger-error').textContent()).toBe(
          '台账日期必须是有效日期（YYYY-MM-DD）',
        );
        await ledger.getByLabel('台账日期').fill('');
        await ledger.getByRole('button', { name: /查\s*询/ }).click();
        await page.screenshot({ path: shotPath('ledger.png') });

        const rows = await downloadXlsx(
          page,
          () => ledger.getByTestId('ledger-export').click(),
          '保理业务台账.xlsx',
        );
        expect(String(rows[0]![0])).toContain(`台账日期：${expected.asOf}`);
        const head = rows[1]!;
        const principal = head.indexOf('本金余额');
        expect(principal).toBeGreaterThan(0);
        const body = rows.slice(2, -1);
        expect(body.length).toBe(expected.total);
        const sum = rows[rows.length - 1]!;
        expect(sum[0]).toBe('合计');
        expect(sum[1]).toBe(`${expected.total}笔`);
        expect(Number(sum[principal]).toFixed(2)).toBe(expected.totals.principalOutstanding);
        const added = body.reduce((s, r) => s + Math.round(Number(r[principal] ?? 0) * 100), 0);
        expect((added / 100).toFixed(2)).toBe(expected.totals.principalOutstanding);

        // 客户对账单 of the customer of the first disbursed contract, from its start to today.
        const lent = expected.list.find((r) => r.loanDate !== null) ?? expected.list[0]!;
        const period = { custCode: lent.custCode, dateFrom: '2000-01-01', dateTo: today() };
        const statement = await data<Statement>(LEDGER_PATHS.statement, token, period);
        await page.goto(`${base}/factoring/accounts/statement`);
        const screen = activePage(page, '/factoring/accounts/statement');
        const customer = screen.getByLabel('客户');
        await customer.click();
        await customer.fill(lent.custName);
        await animationsDone(page);
        await page
          .locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${lent.custName}"]`)
          .click();
        await screen.getByLabel('开始日期').fill(period.dateFrom);
        await screen.getByLabel('结束日期').fill(period.dateTo);
        await screen.getByRole('button', { name: /查\s*询/ }).click();
        await expect
          .poll(() => screen.getByTestId('statement-closing').textContent(), { timeout: 15_000 })
          .toBe(formatMoney(statement.closing));
        expect(await screen.getByTestId('statement-opening').textContent()).toBe('0.00');
        await page.screenshot({ path: shotPath('statement.png') });

        const sheet = await downloadXlsx(
          page,
          () => screen.getByTestId('statement-export').click(),
          '客户对账单.xlsx',
        );
        expect(String(sheet[0]![0])).toContain(lent.custName);
        const balance = sheet[2]!.indexOf('本金余额');
        expect(sheet[3]![0]).toBe('期初余额');
        expect(Number(sheet[3]![balance]).toFixed(2)).toBe('0.00');
        const closing = sheet.find((r) => r[0] === '期末余额')!;
        expect(Number(closing[balance]).toFixed(2)).toBe(statement.closing);
        expect(sheet[sheet.length - 1]![0]).toBe(`期末余额（大写）：${statement.closingCapitals}`);
        // The movements in the workbook add up from the opening to the closing balance.
        const moves = sheet.slice(
          4,
          sheet.findIndex((r) => r[0] === '本期合计'),
        );
        expect(moves.length).toBe(statement.lines.length);
        const disbursed = sheet[2]!.indexOf('放款本金');
        const paidPrincipal = sheet[2]!.indexOf('其中本金');
        const net = moves.reduce(
          (s, r) =>
            s + Math.round(Number(r[disbursed] ?? 0) * 100) - Math.round(Number(r[paidPrincipal] ?? 0) * 100),
          0,
        );
        expect((net / 100).toFixed(2)).toBe(statement.closing);
      }),
  );
});
