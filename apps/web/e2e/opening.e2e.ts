import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Decimal from 'decimal.js';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { BANK_PATHS, REPAY_PURPOSES, type BankAccountView } from '@portal/contract/bank';
import { CONTRACT_PATHS, type ContractInit } from '@portal/contract/contract';
import { DASHBOARD_PATHS, type PortfolioFigures } from '@portal/contract/dashboard';
import { formatMoney } from '@portal/contract/format';
import { LEDGER_PATHS, type LedgerPage, type Statement } from '@portal/contract/ledger';
import {
  OPENING_CONTRACT_COLUMNS,
  OPENING_CONTRACT_SHEET,
  OPENING_PAID_COLUMNS,
  OPENING_PAID_SHEET,
  OPENING_TEMPLATE_FILE_NAME,
  type OpeningContractKey,
} from '@portal/contract/opening';
import { addMonths } from '@portal/contract/plan/dates';
import type { PlanResult } from '@portal/contract/plan/schedule';
import { RULER_PATHS, type RuleView } from '@portal/contract/ruler';
import type { Page as ListPage } from '@portal/contract/api';
import { activePage, base, downloadXlsx, motionDone, shotPath } from './helpers';
import { asAdmin, data, demoCredit, fileBrowser, openScreen, today } from './flows';

/**
 * 期初导入 through the contract list (docs/money-lifecycle.md "Opening balances"): the template
 * downloaded, a workbook of two contracts uploaded — one with a malformed 融资金额 — previewed with
 * that row's error, the valid row imported; the contract is then on the list and its view as
 * approved and disbursed, and the ledger's and the dashboard's principal outstanding have grown by
 * exactly the principal it brought in, the figure its 对账单 ends with (docs/ledger.md "Contracts
 * brought in by 期初导入").
 */
const browser = fileBrowser();
const stamp = String(Date.now()).slice(-6);

type Cells = Partial<Record<OpeningContractKey, string>>;
const contractCells = (cells: Cells) => OPENING_CONTRACT_COLUMNS.map((c) => cells[c.key] ?? '');

describe('期初导入', () => {
  it(
    'downloads the template, previews a workbook with a row’s error, imports the valid row, and the books show its principal',
    { timeout: 240_000 },
    () =>
      asAdmin(
        browser(),
        async ({ page, token }) => {
          // The demo credit's line, the monthly-interest rule (interest after, no fee: nothing up
          // front to have received), an account of ours to repay to.
          const credit = await demoCredit(token);
          const init = await data<ContractInit>(CONTRACT_PATHS.init, token, undefined, {
            platCredBizCode: credit.credBizCode,
          });
          const line = init.lines.find((l) => new Decimal(l.availableAmount).gte('200000'))!;
          const rules = await data<ListPage<RuleView>>(RULER_PATHS.list, token, {
            pageNum: 1,
            pageSize: 100,
          });
          const rule = rules.list.find(
            (r) =>
              r.method === 'INTEREST_MONTHLY' &&
              r.interestCollection === 'BACK' &&
              new Decimal(r.feeRate).isZero() &&
              r.state === 'enabled' &&
              !r.contBizCode,
          )!;
          const ours = await data<ListPage<BankAccountView>>(BANK_PATHS.list, token, {
            ownerType: 'self',
            pageNum: 1,
            pageSize: 10,
          });
          const start = addMonths(today(), -2);
          const maturity = addMonths(start, 6);
          // Its plan, as the import computes it: interest monthly, the principal at maturity.
          const plan = await data<PlanResult>(CONTRACT_PATHS.planAdd, token, {
            financingAmount: '100000.00',
            startDate: start,
            maturityDate: maturity,
            ruleBizCode: rule.bizCode,
          });
          const last = plan.items.at(-1)!;
          const contractNo = `QC-E2E-${stamp}`;
          const row = (no: string, financingAmount: string, invoiceNo: string): string[] =>
            contractCells({
              contractNo: no,
              custCode: init.custCode,
              platCredBizCode: init.platCredBizCode,
              lineCode: line.lineCode,
              recourse: init.recourse ?? 'with',
              disclosure: '暗保理',
              product: init.product,
              financingRatio: '0.8',
              financingAmount,
              startDate: start,
              maturityDate: maturity,
              ruleBizCode: rule.bizCode,
              bankBizCode: ours.list.find((a) => REPAY_PURPOSES.includes(a.purpose))!.bizCode,
              debtorName: '核心买方有限公司',
              invoiceCode: `31002${start.slice(2, 4)}130`,
              invoiceNo,
              invoiceDate: start,
              receivableAmount: '150000.00',
              receivableDueDate: maturity,
              loanDate: start,
              loanAmount: financingAmount,
            });
          // Repaid before: the first month's interest, and 20,000.00 of the principal ahead of time.
          const paid = [
            [contractNo, '1', '0', plan.items[0]!.interest, '0'],
            [contractNo, String(last.period), '20000.00', '0', '0'],
          ];
          const imported = '80000.00';
          const wb = new ExcelJS.Workbook();
          wb.addWorksheet(OPENING_CONTRACT_SHEET).addRows([
            OPENING_CONTRACT_COLUMNS.map((c) => c.header),
            row(contractNo, '100000.00', `7${stamp}1`),
            row(`QC-E2E-${stamp}-X`, '1000.123', `7${stamp}2`),
          ]);
          wb.addWorksheet(OPENING_PAID_SHEET).addRows([OPENING_PAID_COLUMNS.map((c) => c.header), ...paid]);
          const file = join(mkdtempSync(join(tmpdir(), 'e2e-opening-')), 'opening.xlsx');
          await wb.xlsx.writeFile(file);

          const before = await data<PortfolioFigures>(DASHBOARD_PATHS.portfolio, token, {});
          const ledgerBefore = await data<LedgerPage>(LEDGER_PATHS.list, token, { pageNum: 1, pageSize: 1 });

          // 1. 下载模板: the contracts sheet with its headers, required ones marked *.
          const list = await openScreen(page, `${base}/factoring/contract/info`, 'contract-list');
          await list.getByTestId('opening-import').click();
          const dialog = page.locator('.ant-modal', { hasText: '期初导入' });
          await motionDone(dialog);
          const template = await downloadXlsx(
            page,
            () => dialog.getByRole('button', { name: '下载模板' }).click(),
            OPENING_TEMPLATE_FILE_NAME,
          );
          expect(template[0]).toEqual(
            OPENING_CONTRACT_COLUMNS.map((c) => (c.required ? `*${c.header}` : c.header)),
          );

          // 2. The workbook previewed: one valid row with its principal, one with its error.
          await dialog.locator('input[type=file]').setInputFiles(file);
          const summary = page.getByTestId('opening-import-summary');
          await expect
            .poll(() => summary.textContent(), { timeout: 15_000 })
            .toBe(`共 2 行，有效 1 行，有误 1 行；有效行本金余额合计 ${formatMoney(imported)}`);
          const preview = page.getByTestId('opening-import-preview');
          expect(await preview.locator('tr', { hasText: `QC-E2E-${stamp}-X` }).textContent()).toContain(
            '融资金额必须是最多两位小数的金额',
          );
          expect(await preview.locator('tr', { hasText: contractNo }).first().textContent()).toContain(
            formatMoney(imported),
          );
          expect(await dialog.getByRole('button', { name: /全部导入/ }).isDisabled()).toBe(true);
          await page.screenshot({ path: shotPath('opening-preview.png') });

          // 3. The valid row imported.
          await dialog.getByRole('button', { name: '仅导入有效的 1 行' }).click();
          await page.locator('.ant-message-notice', { hasText: '已导入 1 份合同' }).waitFor();
          await dialog.waitFor({ state: 'hidden' });

          // 4. On the list, and its view: approved.
          await list.getByRole('textbox', { name: '合同号' }).fill(`QC-E2E-${stamp}`);
          await list.getByRole('button', { name: /查\s*询/ }).click();
          const listed = list.locator('tbody tr', { hasText: contractNo });
          await expect.poll(() => list.locator('tbody tr.ant-table-row').count()).toBe(1);
          expect(await listed.textContent()).toContain('100,000.00');
          const contracts = await data<ListPage<{ bizCode: string; contractNo: string }>>(
            CONTRACT_PATHS.list,
            token,
            { pageNum: 1, pageSize: 10, contractNo },
          );
          const bizCode = contracts.list.find((c) => c.contractNo === contractNo)!.bizCode;
          const view = await openScreen(
            page,
            `${base}/factoring/contract/info-view?bizCode=${bizCode}`,
            'contract-view',
          );
          await expect.poll(() => view.textContent()).toContain(contractNo);
          expect(await view.locator('.ant-card-head').first().textContent()).toContain('已审核');

          // 5. The ledger's and the dashboard's principal outstanding grew by what it brought in.
          const ledgerTotal = new Decimal(ledgerBefore.totals.principalOutstanding).plus(imported).toFixed(2);
          await page.goto(`${base}/factoring/accounts/ledger`);
          const ledger = activePage(page, '/factoring/accounts/ledger');
          await expect
            .poll(() => ledger.getByTestId('ledger-totals').textContent(), { timeout: 15_000 })
            .toContain(formatMoney(ledgerTotal));
          const outstanding = new Decimal(before.outstandingPrincipal).plus(imported).toFixed(2);
          await page.goto(`${base}/dashboard`);
          await expect
            .poll(() => page.getByTestId('fig-outstanding').textContent(), { timeout: 15_000 })
            .toContain(formatMoney(outstanding));
          // Its 对账单 reads as the ledger: the 放款 on its 放款日 (期初导入), the earlier books'
          // repayments on their dates, and the imported figure at the end.
          const statement = await data<Statement>(LEDGER_PATHS.statement, token, {
            contBizCode: bizCode,
            dateFrom: start,
            dateTo: today(),
          });
          expect(statement.lines[0]).toMatchObject({ date: start, kind: 'loan', remark: '期初导入' });
          expect(statement.lines.slice(1).map((l) => l.kind)).toEqual(
            statement.lines.slice(1).map(() => 'receipt'),
          );
          expect(statement.lines.at(-1)!.balance).toBe(imported);
          expect(statement.closing).toBe(imported);
        },
        { failureShot: 'opening-failure.png' },
      ),
  );
});
