import Decimal from 'decimal.js';
import { describe, expect, inject, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { INCOME_PATHS } from '@portal/contract/accounts';
import { BANK_PATHS, REPAY_PURPOSES, type BankAccountView } from '@portal/contract/bank';
import {
  BUYBACK_PATHS,
  type BuybackQuote,
  type BuybackRow,
  type BuybackView,
} from '@portal/contract/buyback';
import { CONTRACT_PATHS, type ContractInfo } from '@portal/contract/contract';
import { formatMoney } from '@portal/contract/format';
import { LOAN_PATHS, type LoanInit } from '@portal/contract/loan';
import type { Page as ListPage } from '@portal/contract/api';
import { apiCall, base, login, newPage, shotPath, tokenOf } from './helpers';
import {
  approve,
  confirm,
  data,
  demoLogin,
  fileBrowser,
  loginAs,
  openScreen,
  submittedContract,
  today,
} from './flows';

/**
 * 回购 (docs/buyback.md) through its screens, as the demo office works it: 李经办 (maker) raises
 * the 回购单 of a disbursed 有追索 contract and the 回购款核销, 王复核 (checker) approves both. The
 * contracts are the test's own (disbursed through the API), so the demo's DEMO-BL-001 and its draft
 * 回购单 stay as the other browser tests expect them.
 */
const browser = fileBrowser();
const password = inject('adminPassword');
const stamp = String(Date.now()).slice(-6);

/** A contract of the demo credit, approved by the checker and disbursed (放款单 approved), through the API. */
async function disbursedContract(
  adminToken: string,
  checkerToken: string,
  contractNo: string,
  invoiceNo: number,
  recourse: 'with' | 'without',
): Promise<string> {
  const { bizCode } = await submittedContract(adminToken, contractNo, invoiceNo, { recourse });
  await data(CONTRACT_PATHS.infoAudit, checkerToken, {}, { bizCode });
  const init = await data<LoanInit>(LOAN_PATHS.initBase, adminToken, undefined, { contBizCode: bizCode });
  if (!init.payBankBizCode || !init.payeeBankBizCode)
    throw new Error(`no default accounts for the 放款单 of ${contractNo}`);
  const loan = await data<{ loanBizCode: string }>(LOAN_PATHS.saveBaseInfo, adminToken, {
    contBizCode: bizCode,
    valueDate: init.valueDate,
    payBankBizCode: init.payBankBizCode,
    payeeBankBizCode: init.payeeBankBizCode,
    serialNo: `HGFK${stamp}${recourse === 'with' ? 'Y' : 'N'}`,
    submit: true,
  });
  await data(LOAN_PATHS.audit, checkerToken, {}, { loanBizCode: loan.loanBizCode });
  return bizCode;
}

/** The text of a row's cell under the column titled `title` of the table in `scope`. */
async function cellText(scope: Locator, row: Locator, title: string): Promise<string> {
  const headers = await scope.locator('.ant-table-thead th').allTextContents();
  const index = headers.findIndex((h) => h.trim() === title);
  if (index < 0) throw new Error(`no column ${title} among ${headers.join(' | ')}`);
  return (await row.locator('td').nth(index).textContent()) ?? '';
}

/** The value of a Descriptions item labelled `label` in `scope`. */
function described(scope: Locator, label: string): Locator {
  return scope
    .locator('.ant-descriptions-item-label', { hasText: label })
    .first()
    .locator('xpath=following-sibling::td[1]');
}

/** The buy-back amount shown in `scope`, once loaded, and each of its parts beside it. */
async function showsAmount(
  scope: Locator,
  v: Pick<BuybackQuote, 'principal' | 'interest' | 'fee' | 'penalty' | 'amount'>,
): Promise<void> {
  await expect
    .poll(() => scope.getByTestId('buyback-amount').textContent(), { timeout: 10_000 })
    .toBe(formatMoney(v.amount));
  for (const [label, value] of [
    ['未还本金', v.principal],
    ['利息（计至回购日）', v.interest],
    ['费用', v.fee],
    ['罚息', v.penalty],
  ] as const)
    expect((await described(scope, label).textContent())?.trim()).toBe(formatMoney(value));
}

/** The contract list filtered to one 合同号, and that contract's row. */
async function contractRow(page: Page, contractNo: string): Promise<{ list: Locator; row: Locator }> {
  const list = await openScreen(page, `${base}/factoring/contract/info`, 'contract-list');
  await list.getByRole('textbox', { name: '合同号' }).fill(contractNo);
  await list.getByRole('button', { name: /查\s*询/ }).click();
  const row = list.locator('tr.ant-table-row', { hasText: contractNo });
  await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(1);
  return { list, row };
}

describe('回购 (buy-back under recourse)', () => {
  it(
    'maker raises a 回购单 on screen, checker approves, the contract is settled, a 回购款核销 settles part, 冲红 is refused, the 回购通知书 previews; a 无追索 contract is refused',
    { timeout: 300_000 },
    async () => {
      const admin = await newPage(browser(), 1600, 960);
      await login(admin.page, base, password);
      const adminToken = (await tokenOf(admin.context))!;
      const maker = await newPage(browser(), 1600, 960);
      await loginAs(maker.page, 'maker', await demoLogin(adminToken, 'maker'));
      const checker = await newPage(browser(), 1600, 960);
      await loginAs(checker.page, 'checker', await demoLogin(adminToken, 'checker'));
      const checkerToken = (await tokenOf(checker.context))!;
      const page = maker.page;
      try {
        // Two disbursed contracts of the demo credit: one 有追索, one 无追索.
        const withNo = `E2E-HG-${stamp}`;
        const withoutNo = `E2E-HGW-${stamp}`;
        const withCode = await disbursedContract(
          adminToken,
          checkerToken,
          withNo,
          60_000_000 + Number(stamp),
          'with',
        );
        const withoutCode = await disbursedContract(
          adminToken,
          checkerToken,
          withoutNo,
          61_000_000 + Number(stamp),
          'without',
        );
        const bizDate = today();
        const quote = await data<BuybackQuote>(BUYBACK_PATHS.quote, adminToken, undefined, {
          contBizCode: withCode,
          buybackDate: bizDate,
        });
        expect(quote.principal).toBe('300000.00');

        // Before: the contract is in force with its principal outstanding.
        const before = await contractRow(page, withNo);
        expect(await cellText(before.list, before.row, '在贷本金')).toBe(formatMoney('300000.00'));

        // 1. The 回购单 list (the demo's draft on DEMO-BL-001 among its rows), then 新增回购单.
        const list = await openScreen(page, `${base}/factoring/accounts/buyback`, 'buyback-list');
        await expect
          .poll(() => list.locator('tr.ant-table-row', { hasText: 'DEMO-BL-001' }).count(), {
            timeout: 10_000,
          })
          .toBe(1);

        // 2. The demo's draft: its contract is overdue, so the amount has interest and penalty
        //    beside the principal, each part shown with the plan lines it closes.
        const demos = await data<ListPage<BuybackRow>>(BUYBACK_PATHS.list, adminToken, {
          contractNo: 'DEMO-BL-001',
          pageNum: 1,
          pageSize: 10,
        });
        const demo = demos.list.find((r) => r.state === 'draft')!;
        expect(new Decimal(demo.interest).gt(0)).toBe(true);
        const demoView = await openScreen(
          page,
          `${base}/factoring/accounts/buyback-view?buybackBizCode=${demo.buybackBizCode}`,
          'buyback-view',
        );
        await showsAmount(demoView, demo);
        const demoLines = (await demoView.locator('.ant-table-tbody').first().textContent()) ?? '';
        expect(demoLines).toContain('本金');
        expect(demoLines).toContain('利息');
        if (new Decimal(demo.penalty).gt(0)) expect(demoLines).toContain('罚息');

        // 3. 新增回购单 from the list.
        await openScreen(page, `${base}/factoring/accounts/buyback`, 'buyback-list');
        await list.getByRole('link', { name: '新增回购单' }).click();
        const editor = page.getByTestId('buyback-editor');
        await editor.waitFor();

        // 4. The 无追索 contract first: the server's refusal is shown and nothing can be saved.
        await expect.poll(() => editor.getByLabel('回购日期').inputValue()).toBe(bizDate);
        await editor.getByLabel('合同编号').fill(withoutCode);
        await expect
          .poll(() => editor.locator('.ant-alert-warning').textContent(), { timeout: 10_000 })
          .toContain('无追索合同不能回购');
        expect(await editor.getByRole('button', { name: '保存并提交' }).isDisabled()).toBe(true);

        // 5. The 有追索 contract: the amount part by part, and the plan lines it closes.
        await editor.getByLabel('合同编号').fill(withCode);
        await showsAmount(editor, quote);
        expect(await editor.locator('.ant-alert-warning').count()).toBe(0);
        const lines = editor.locator('.ant-table-tbody tr.ant-table-row');
        await expect.poll(() => lines.count()).toBe(quote.lines.length);
        expect(await lines.first().textContent()).toContain('本金');
        await editor.getByLabel('备注').fill('浏览器测试：债务人逾期未付');
        await page.screenshot({ path: shotPath('buyback-editor.png') });
        await editor.getByRole('button', { name: '保存并提交' }).click();
        await confirm(page);
        await page.waitForURL(/buyback-view\?buybackBizCode=\d{12}/, { timeout: 15_000 });
        const buybackCode = new URL(page.url()).searchParams.get('buybackBizCode')!;

        // 6. The checker approves it on its view.
        await approve(checker.page, '/factoring/accounts/buyback-view', buybackCode, 'buyback-view');

        // 7. The contract is 已结清 with nothing outstanding; the 回购单 holds it as 未收回购款.
        const after = await contractRow(page, withNo);
        await expect
          .poll(() => cellText(after.list, after.row, '在贷本金'), { timeout: 10_000 })
          .toBe(formatMoney('0.00'));
        const settled = await data<ContractInfo>(CONTRACT_PATHS.infoView, adminToken, undefined, {
          bizCode: withCode,
        });
        expect(settled.status).toBe('settled');
        let view = await openScreen(
          page,
          `${base}/factoring/accounts/buyback-view?buybackBizCode=${buybackCode}`,
          'buyback-view',
        );
        await expect
          .poll(() => described(view, '未收回购款').textContent(), { timeout: 10_000 })
          .toBe(formatMoney(quote.amount));
        expect(await described(view, '已收回购款').textContent()).toBe(formatMoney('0.00'));

        // 8. The seller pays: an incoming entered and approved (API), then 收回购款 on the view.
        const ours = await data<ListPage<BankAccountView>>(BANK_PATHS.list, adminToken, {
          ownerType: 'self',
          pageNum: 1,
          pageSize: 20,
        });
        const income = await data<{ fiidBizCode: string }>(INCOME_PATHS.saveBaseInfo, adminToken, {
          bankBizCode: ours.list.find((a) => REPAY_PURPOSES.includes(a.purpose))!.bizCode,
          payerName: settled.custName,
          payerAccount: '6222000033334444',
          payerBank: '工商银行',
          amount: '50000.00',
          valueDate: bizDate,
          serialNo: `HGLK${stamp}`,
          submit: true,
        });
        await data(INCOME_PATHS.audit, checkerToken, {}, { fiidBizCode: income.fiidBizCode });

        await view.getByRole('button', { name: '收回购款' }).click();
        const modal = page.locator('.ant-modal', { hasText: `收回购款 ${buybackCode}` });
        await modal.waitFor();
        await modal.getByLabel('来款编号').fill(income.fiidBizCode);
        await modal.getByLabel('核销日期').fill(bizDate);
        await modal.getByLabel('核销金额').fill('50000.00');
        await modal.getByRole('button', { name: '保存并提交' }).click();
        await confirm(page);
        await modal.waitFor({ state: 'hidden' });
        const settleRow = view.locator('tr.ant-table-row', { hasText: income.fiidBizCode });
        await expect.poll(() => settleRow.textContent(), { timeout: 10_000 }).toContain('审核中');
        const settleCode = (await settleRow.getByRole('link').textContent())!.trim();

        // 9. The checker approves the 回购款核销: 50,000.00 received, the rest still open.
        await approve(
          checker.page,
          '/factoring/accounts/buyback-settle-view',
          settleCode,
          'buyback-settle-view',
        );
        const open = new Decimal(quote.amount).minus('50000.00').toFixed(2);
        view = await openScreen(
          page,
          `${base}/factoring/accounts/buyback-view?buybackBizCode=${buybackCode}`,
          'buyback-view',
        );
        await expect
          .poll(() => described(view, '已收回购款').textContent(), { timeout: 10_000 })
          .toBe(formatMoney('50000.00'));
        expect(await described(view, '未收回购款').textContent()).toBe(formatMoney(open));
        await page.screenshot({ path: shotPath('buyback-view.png'), fullPage: true });

        // 10. Something is settled: the list no longer offers 冲红 (to the administrator, who holds
        //    the button), and the server refuses it.
        const listAgain = await openScreen(admin.page, `${base}/factoring/accounts/buyback`, 'buyback-list');
        const row = listAgain.locator('tr.ant-table-row', { hasText: buybackCode });
        await expect.poll(() => row.textContent(), { timeout: 10_000 }).toContain(formatMoney(open));
        expect(await row.getByRole('button', { name: '冲红' }).count()).toBe(0);
        const red = await apiCall(
          base,
          `${BUYBACK_PATHS.rushRed}?buybackBizCode=${buybackCode}`,
          adminToken,
          { reason: '浏览器测试' },
        );
        expect((red.json as { msg: string }).msg).toContain('不能冲红');
        const still = await data<BuybackView>(BUYBACK_PATHS.viewBaseInfo, adminToken, undefined, {
          buybackBizCode: buybackCode,
        });
        expect(still).toMatchObject({ redState: 'none', settled: '50000.00', open });

        // 11. 打印 → 预览: the 回购通知书 of this 回购单.
        view = await openScreen(
          page,
          `${base}/factoring/accounts/buyback-view?buybackBizCode=${buybackCode}`,
          'buyback-view',
        );
        await view.getByTestId('print-button').hover();
        const [popup] = await Promise.all([
          maker.context.waitForEvent('page'),
          page.locator('.ant-dropdown:visible').getByText('预览', { exact: true }).first().click(),
        ]);
        await popup.waitForURL((u) => u.pathname === '/preview-html', { timeout: 30_000 });
        const doc = popup.frameLocator('iframe.preview-html');
        await expect
          .poll(() => doc.locator('h1').textContent(), { timeout: 15_000 })
          .toBe('应收账款回购通知书');
        const printed = (await doc.locator('body').textContent()) ?? '';
        expect(printed).toContain(buybackCode);
        expect(printed).toContain(withNo);
        await popup.close();
      } catch (err) {
        await page.screenshot({ path: shotPath('buyback-failed-maker.png'), fullPage: true });
        await checker.page.screenshot({ path: shotPath('buyback-failed-checker.png'), fullPage: true });
        throw err;
      } finally {
        await admin.context.close();
        await maker.context.close();
        await checker.context.close();
      }
    },
  );
});
