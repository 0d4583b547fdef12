import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { BIZDATE_PATHS, type BizDateView, type DayEndItem } from '@portal/contract/bizdate';
import { CONTRACT_PATHS, type ContractInfo, type ContractListRow } from '@portal/contract/contract';
import { formatMoney } from '@portal/contract/format';
import { LOAN_PATHS, type LoanView } from '@portal/contract/loan';
import type { Page } from '@portal/contract/api';
import { launchBrowser, login, newPage, shotPath, tokenOf, base, signIn } from './helpers';
import { addChecker, approve, confirm, data, openScreen, rowAction, submittedContract } from './flows';

const password = inject('adminPassword');
const stamp = String(Date.now()).slice(-6);
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('放款单 (disbursement) screens', () => {
  it('contract approved → 放款 from the list → 放款单 approved by a second user → 已放款 → 冲红', async () => {
    // Wide enough for the 放款单 list's every column in its row (docs/architecture.md "Lists fit their box").
    const maker = await newPage(browser, 2400, 1000);
    await login(maker.page, base, password);
    const token = (await tokenOf(maker.context))!;
    const checkerUser = await addChecker(token);
    const checker = await newPage(browser, 1440, 960);
    await signIn(checker.context, checkerUser.password, checkerUser.userName);
    const page = maker.page;
    try {
      // The header shows the business date to everyone.
      const bizDate = await data<BizDateView>(BIZDATE_PATHS.view, token);
      await expect
        .poll(() => page.getByTestId('biz-date').textContent(), { timeout: 10_000 })
        .toContain(bizDate.businessDate);

      // 1. A contract with a 10 % margin, approved by the checker on its screen.
      const contractNo = `E2E-FK-${stamp}`;
      const { bizCode, dues } = await submittedContract(token, contractNo, 50_000_000 + Number(stamp));
      // The margin, and the rule's 前置 interest and fee when it has them: all up front.
      const upfront = dues.reduce((a, d) => a.plus(d.amount), new Decimal(0));
      const net = new Decimal('300000.00').minus(upfront).toFixed(2);
      await approve(checker.page, '/factoring/contract/info-view', bizCode, 'contract-view');

      // 2. 放款 from the contract list opens a 放款单 prefilled from the contract: nothing prepaid,
      //    so the margin (30,000.00) and any 前置 items are deducted from the 300,000.00.
      const list = await openScreen(page, `${base}/factoring/contract/info`, 'contract-list');
      await list.getByRole('textbox', { name: '合同号' }).fill(contractNo);
      await list.getByRole('button', { name: /查\s*询/ }).click();
      const row = list.locator('tr', { hasText: contractNo });
      await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(1);
      await rowAction(page, row, '放款');
      await page.waitForURL(/loan-editor\?contBizCode=\d{12}/, { timeout: 15_000 });
      const editor = page.getByTestId('loan-editor');
      await expect
        .poll(() => editor.getByTestId('loan-net').textContent(), { timeout: 10_000 })
        .toBe(formatMoney(net));
      // Every line: the contract's figure, this disbursement's, prepaid, deducted, returned.
      const lines = await editor.getByTestId('loan-lines').textContent();
      for (const text of ['保证金', '合同应收', '本次应收', '前期款已收', '本次扣收', '退还多收'])
        expect(lines).toContain(text);
      await expect.poll(() => editor.getByTestId('loan-plan-preview').count(), { timeout: 10_000 }).toBe(1);
      await editor.getByLabel('银行流水号').fill(`E2EFK${stamp}`);
      await page.screenshot({ path: shotPath('loan-editor.png') });
      await editor.getByRole('button', { name: '保存并提交' }).click();
      await confirm(page);
      await page.waitForURL(/loan-view\?loanBizCode=\d{12}/, { timeout: 15_000 });
      const loanCode = new URL(page.url()).searchParams.get('loanBizCode')!;

      // 3. The checker sees the amounts and the plan approval will make, then approves.
      const view = await openScreen(
        checker.page,
        `${base}/factoring/accounts/loan-view?bizCode=${loanCode}`,
        'loan-view',
      );
      await expect
        .poll(() => view.getByTestId('loan-net').textContent(), { timeout: 10_000 })
        .toBe(formatMoney(net));
      await expect.poll(() => view.getByTestId('loan-plan-preview').count(), { timeout: 10_000 }).toBe(1);
      await checker.page.screenshot({ path: shotPath('loan-view-checker.png') });
      await approve(checker.page, '/factoring/accounts/loan-view', loanCode, 'loan-view');

      // 4. The contract is 已放款 with the net amount; 在贷本金 counts it now.
      const info = await data<ContractInfo>(CONTRACT_PATHS.infoView, token, undefined, { bizCode });
      expect(info).toMatchObject({ loanState: 'loaned', loanAmount: net, loanBizCode: loanCode });
      const rows = await data<Page<ContractListRow>>(CONTRACT_PATHS.list, token, { contractNo });
      expect(rows.list[0]!.principalOutstanding).toBe('300000.00');
      const loanView = await data<LoanView>(LOAN_PATHS.viewBaseInfo, token, undefined, {
        loanBizCode: loanCode,
      });
      expect(loanView.lines[0]).toMatchObject({ kind: 'margin', prepaid: '0.00', deducted: '30000.00' });
      expect(loanView.deductedTotal).toBe(upfront.toFixed(2));

      // 5. 冲红 from the 放款单 list, with its reason and confirmation: a 放款单冲红 entry goes to
      //    the checker; nothing moves until it is approved, then the contract is 未放款 again.
      const loans = await openScreen(page, `${base}/factoring/accounts/loan`, 'loan-list');
      await expect
        .poll(() => loans.getByRole('button', { name: /导\s*出/ }).count(), { timeout: 10_000 })
        .toBe(1);
      const loanRow = loans.locator('tr', { hasText: loanCode });
      await loanRow.getByRole('button', { name: '冲红' }).click();
      await page.getByLabel('冲红原因').fill('收款账户录错');
      await page
        .locator('.ant-modal', { hasText: '冲红放款单' })
        .getByRole('button', { name: /冲\s*红/ })
        .click();
      await confirm(page);
      await expect.poll(() => loanRow.textContent(), { timeout: 10_000 }).toContain('冲红复核中');
      const asked = await data<LoanView>(LOAN_PATHS.viewBaseInfo, token, undefined, {
        loanBizCode: loanCode,
      });
      expect(asked).toMatchObject({ redState: 'none', redDocState: 'pending' });
      expect(
        (await data<ContractInfo>(CONTRACT_PATHS.infoView, token, undefined, { bizCode })).loanState,
      ).toBe('loaned');
      const red = await openScreen(
        checker.page,
        `${base}/factoring/accounts/loan-red-view?bizCode=${asked.redBizCode!}`,
        'loan-red-view',
      );
      await expect.poll(() => red.textContent(), { timeout: 10_000 }).toContain('收款账户录错');
      await approve(checker.page, '/factoring/accounts/loan-red-view', asked.redBizCode!, 'loan-red-view');
      await loans.getByRole('button', { name: /查\s*询/ }).click();
      await expect.poll(() => loanRow.textContent(), { timeout: 10_000 }).toContain('已冲红：收款账户录错');
      const after = await data<ContractInfo>(CONTRACT_PATHS.infoView, token, undefined, { bizCode });
      expect(after).toMatchObject({ loanState: 'none', loanAmount: null, loanBizCode: null });

      // 6. The 营业日 screen: the day-end on demand, written to the job log.
      const screen = await openScreen(page, `${base}/factoring/config/bizdate`, 'bizdate-page');
      await expect.poll(() => screen.getByTestId('bizdate-current').textContent()).toBe(bizDate.businessDate);
      await screen.getByRole('button', { name: '运行日终' }).click();
      await confirm(page);
      await expect
        .poll(() => screen.locator('.ant-table-tbody').last().textContent(), { timeout: 10_000 })
        .toContain('手动运行');
      // Its 逾期明细: the day-end's marks of the date (the demo's overdue contract among them), each
      // row with what is owing, the penalty accrued (累计罚息) and the penalty owed (未付罚息).
      const marks = await data<DayEndItem[]>(BIZDATE_PATHS.dayEndItems, token, undefined, {
        businessDate: bizDate.businessDate,
      });
      expect(marks.length).toBeGreaterThan(0);
      const items = screen.getByTestId('dayend-items');
      await expect
        .poll(() => items.locator('tr.ant-table-row').count(), { timeout: 10_000 })
        .toBe(marks.length);
      const mark = marks[0]!;
      const cells = await items.locator('tr.ant-table-row').first().locator('td').allTextContents();
      expect(cells).toEqual([
        mark.contractNo,
        String(mark.period),
        mark.dueDate,
        String(mark.overdueDays),
        ...[mark.principalOverdue, mark.interestOverdue, mark.feeOverdue].map((v) => formatMoney(v!)),
        ...[mark.penaltyOfDay, mark.penaltyAccrued, mark.penaltyOwed].map((v) => formatMoney(v!)),
      ]);
      await page.screenshot({ path: shotPath('bizdate.png'), fullPage: true });
    } finally {
      await maker.context.close();
      await checker.context.close();
    }
  }, 180_000);
});
