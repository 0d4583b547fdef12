import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Decimal from 'decimal.js';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { BANK_PATHS, type BankAccountView } from '@portal/contract/bank';
import {
  INCOME_PATHS,
  PAID_PATHS,
  type IncomeRow,
  type PaidInit,
  type ValidPlan,
} from '@portal/contract/accounts';
import { formatMoney } from '@portal/contract/format';
import { launchBrowser, login, newPage, shotPath, tokenOf, base } from './helpers';
import { addChecker, approve, confirm, data, loginAs, openScreen, pick, today } from './flows';

const password = inject('adminPassword');
const stamp = String(Date.now()).slice(-6);
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** A bank statement of two rows on our account, as the bank exports it. */
async function statement(accountNo: string, payer: string): Promise<string> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('流水');
  ws.addRow([
    '收款账号',
    '银行流水号',
    '付款人名称',
    '付款人账号',
    '付款人开户行',
    '金额',
    '交易日期',
    '备注',
  ]);
  ws.addRow([accountNo, `E2E${stamp}1`, payer, '6222000011112222', '工商银行', '30,000.00', today(), '货款']);
  ws.addRow([accountNo, `E2E${stamp}1`, payer, '', '', '1.00', today(), '重复流水']);
  const file = join(mkdtempSync(join(tmpdir(), 'e2e-statement-')), 'statement.xlsx');
  await wb.xlsx.writeFile(file);
  return file;
}

describe('money screens', () => {
  it('imports a bank statement, writes an incoming off against a plan, red-reverses it, and the plan is as before', async () => {
    const maker = await newPage(browser, 1440, 960);
    await login(maker.page, base, password);
    const token = (await tokenOf(maker.context))!;
    const checkerUser = await addChecker(token);
    const checker = await newPage(browser, 1440, 960);
    await loginAs(checker.page, checkerUser.userName, checkerUser.password);
    const page = maker.page;
    try {
      const accounts = await data<{ list: BankAccountView[] }>(BANK_PATHS.list, token, {
        ownerType: 'self',
        pageNum: 1,
        pageSize: 10,
      });
      const file = await statement(accounts.list[0]!.accountNo, '核心买方有限公司');

      // 1. 导入流水: the preview flags the duplicate row; the valid one is saved and submitted.
      const list = await openScreen(page, `${base}/factoring/accounts/income`, 'income-list');
      await list.getByRole('button', { name: '导入流水' }).click();
      await page.locator('.ant-modal input[type=file]').setInputFiles(file);
      await expect
        .poll(() => page.getByTestId('income-import-summary').textContent(), { timeout: 10_000 })
        .toContain('有效 1 行');
      await expect.poll(() => page.locator('.ant-modal').textContent()).toContain('银行流水号与第2行重复');
      await page.getByRole('button', { name: /保存有效的 1 条并提交/ }).click();
      await confirm(page);
      // The dialog closes once the save has answered: only then is the incoming there to read.
      await page.locator('.ant-modal').filter({ hasText: '导入银行流水' }).waitFor({ state: 'hidden' });
      const incomes = await data<{ list: IncomeRow[] }>(INCOME_PATHS.list, token, {
        serialNo: `E2E${stamp}`,
      });
      expect(incomes.list).toHaveLength(1);
      const fiid = incomes.list[0]!.fiidBizCode;

      // 2. The checker approves the incoming.
      await approve(checker.page, '/factoring/accounts/income-view', fiid, 'income-view');

      // 3. The write-off: the overdue demo contract, allocated by the rule, live totals, submitted.
      const init = await data<PaidInit>(PAID_PATHS.initPaidBase, token, undefined, { fiidBizCode: fiid });
      const target = init.contracts.find((c) => c.contractNo === 'DEMO-BL-001')!;
      const planBefore = await data<ValidPlan>(PAID_PATHS.getValidPlanPaid, token, undefined, {
        contBizCode: target.contBizCode,
        paidDate: today(),
      });
      const editor = await openScreen(
        page,
        `${base}/factoring/accounts/paid-editor?fiidBizCode=${fiid}`,
        'paid-editor',
      );
      await editor.getByLabel('合同').click();
      await pick(
        page,
        `${target.contractNo} ${target.custName} 待还本金 ${formatMoney(target.principalOpen)}`,
      );
      await expect
        .poll(() => editor.getByTestId('paid-open-items').locator('tbody tr').count(), { timeout: 10_000 })
        .toBe(planBefore.items.length);
      // 手工分配: a cell malformed or over its open amount is refused under it, before any 是否继续？.
      const first = planBefore.items[0]!;
      await editor.getByRole('radio', { name: '手工分配' }).check();
      const cell = editor.getByLabel(`第${first.period}期本金`, { exact: true });
      const help = cell
        .locator('xpath=ancestor::div[contains(concat(" ", @class, " "), " ant-form-item ")][1]')
        .locator('.ant-form-item-explain-error');
      for (const [typed, message] of [
        ['12.345', '核销金额必须是最多两位小数的金额'],
        [
          new Decimal(first.open.PRINCIPAL).plus('0.01').toFixed(2),
          `超过第${first.period}期待还本金 ${formatMoney(first.open.PRINCIPAL)}`,
        ],
      ] as const) {
        await cell.fill(typed);
        await editor.getByRole('button', { name: /^保\s*存$/ }).click();
        await expect.poll(() => help.textContent()).toBe(message);
        expect(await page.locator('.ant-modal-confirm').count()).toBe(0);
      }
      // A refusal is the user's to fix, not a fault: nothing reaches the error log.
      expect(await page.getByLabel('错误日志').count()).toBe(0);
      await editor.getByRole('radio', { name: '正常核销' }).check();
      await editor.getByRole('button', { name: '按规则分配' }).click();
      await expect
        .poll(() => editor.getByTestId('paid-totals').textContent(), { timeout: 10_000 })
        .toContain('本次核销合计30,000.00');
      expect(await editor.getByTestId('paid-totals').textContent()).toContain('核销后来款余额0.00');
      await page.screenshot({ path: shotPath('money-paid-editor.png') });
      await editor.getByRole('button', { name: '保存并提交' }).click();
      await confirm(page);
      await page.waitForURL(/paid-view\?paidBizCode=\d{12}/, { timeout: 15_000 });
      const paidCode = new URL(page.url()).searchParams.get('paidBizCode')!;

      // 4. The checker approves it: the incoming is used up and the plan moves.
      await approve(checker.page, '/factoring/accounts/paid-view', paidCode, 'paid-view');
      const planAfter = await data<ValidPlan>(PAID_PATHS.getValidPlanPaid, token, undefined, {
        contBizCode: target.contBizCode,
        paidDate: today(),
      });
      expect(planAfter.openTotal).not.toBe(planBefore.openTotal);

      // 5. 冲红 from the list, with its reason; the checker approves the red entry.
      const paidList = await openScreen(page, `${base}/factoring/accounts/paid`, 'paid-list');
      // By its first cell (核销编号): another row's 来款编号 may be the same digits.
      const row = paidList
        .locator('tr')
        .filter({ has: page.locator('td:first-child', { hasText: paidCode }) });
      await row.getByRole('button', { name: '冲红' }).click();
      await page.getByTestId('rush-red-form').getByLabel('冲红原因').fill('来款串户，退回重核');
      await page.getByRole('button', { name: '提交冲红' }).click();
      await confirm(page, '确定要冲红该核销吗？');
      await page.waitForURL(/paid-red-view\?paidRedBizCode=\d{12}/, { timeout: 15_000 });
      const redCode = new URL(page.url()).searchParams.get('paidRedBizCode')!;
      await approve(checker.page, '/factoring/accounts/paid-red-view', redCode, 'paid-red-view');

      // 6. The plan is as before, and the incoming's balance is whole again.
      const planReversed = await data<ValidPlan>(PAID_PATHS.getValidPlanPaid, token, undefined, {
        contBizCode: target.contBizCode,
        paidDate: today(),
      });
      expect(planReversed).toEqual(planBefore);
      const view = await openScreen(
        page,
        `${base}/factoring/accounts/income-view?fiidBizCode=${fiid}`,
        'income-view',
      );
      await expect.poll(() => view.getByTestId('income-balance').textContent()).toBe('30,000.00');
      const reconcile = await openScreen(page, `${base}/factoring/accounts/reconcile`, 'reconcile');
      await expect
        .poll(() => reconcile.getByTestId('reconcile-result').textContent(), { timeout: 10_000 })
        .toContain('账实相符');
      await page.screenshot({ path: shotPath('money-reconcile.png') });
    } catch (err) {
      await page.screenshot({ path: shotPath('money-failure.png') });
      throw err;
    } finally {
      await maker.context.close();
      await checker.context.close();
    }
  });
});
