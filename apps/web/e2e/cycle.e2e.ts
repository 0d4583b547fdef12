import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { INCOME_PATHS, PAID_PATHS, type PaidInit } from '@portal/contract/accounts';
import { accountLabel, BANK_PATHS, type BankAccountView } from '@portal/contract/bank';
import { COMPANY_PATHS, type CompanyAdd } from '@portal/contract/company';
import {
  CONTRACT_PATHS,
  type ContractInfo,
  type ContractInit,
  type SchemeView,
} from '@portal/contract/contract';
import { CREDIT_PATHS } from '@portal/contract/credit';
import { formatMoney } from '@portal/contract/format';
import { addMonths } from '@portal/contract/plan/dates';
import { RULER_PATHS, type RuleView } from '@portal/contract/ruler';
import { usccCheckChar } from '@portal/contract/uscc';
import type { Page } from '@portal/contract/api';
import { base, launchBrowser, login, newPage, shotPath, tokenOf } from './helpers';
import {
  admitCustomer,
  approve,
  confirm,
  data,
  demoLogin,
  loginAs,
  openScreen,
  pick,
  rowAction,
  submitContract,
  today,
} from './flows';

/**
 * One contract's whole cycle as the demo office works it (docs/money-lifecycle.md): the customer
 * (administrator: customers are not a duty of the demo staff), its credit and contract by 李经办
 * (maker), each approved by 王复核 (checker) on its screen, the 放款单 and the write-off by 钱财务
 * (finance) on their screens, and the plan's figures read on the contract's screen at the end.
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

/** A browser session signed in as `userName`. */
async function signedIn(userName: string, pwd: string): Promise<Awaited<ReturnType<typeof newPage>>> {
  const session = await newPage(browser, 1440, 960);
  await loginAs(session.page, userName, pwd);
  return session;
}

describe('one contract, customer to write-off', () => {
  it('customer → credit → contract → 放款单 → incoming → write-off, each approved by the checker', async () => {
    const admin = await newPage(browser, 1440, 960);
    await login(admin.page, base, password);
    const adminToken = (await tokenOf(admin.context))!;
    const maker = await signedIn('maker', await demoLogin(adminToken, 'maker'));
    const checker = await signedIn('checker', await demoLogin(adminToken, 'checker'));
    const finance = await signedIn('finance', await demoLogin(adminToken, 'finance'));
    const makerToken = (await tokenOf(maker.context))!;
    const financeToken = (await tokenOf(finance.context))!;
    try {
      // 1. The customer (a supplier) with its own collection account, by the administrator.
      const custName = `全周期供应商${stamp}有限公司`;
      const first17 = `91310115MA${stamp}9`;
      const customer: CompanyAdd = {
        compName: custName,
        usccCode: first17 + usccCheckChar(first17),
        compType: 'private',
        roles: ['supplier'],
        legalPerson: '周法人',
        regCapital: '10000000.00',
        provinceCode: '310000',
        cityCode: '310100',
        areaCode: '310115',
      };
      const { compCode } = await data<{ compCode: string }>(COMPANY_PATHS.add, adminToken, customer);
      const payeeNo = `6217000${stamp}88`;
      await data(BANK_PATHS.save, adminToken, {
        ownerType: 'customer',
        ownerCode: compCode,
        bankCode: '105',
        branchName: '上海分行',
        accountName: custName,
        accountNo: payeeNo,
        purpose: 'collect',
      });
      // Only an admitted customer holds a credit (客户准入, docs/admission.md).
      await admitCustomer(adminToken, compCode);

      // 2. Its credit, saved and submitted by the maker, approved by the checker on its screen.
      const platform = {
        custCode: compCode,
        limitAmount: '1000000.00',
        currency: 'CNY',
        startDate: '2020-01-01',
        endDate: '2099-12-31',
        cycle: 'cyclical',
        product: 'factoring',
      };
      const credit = await data<{ bizCode: string; version: number }>(
        CREDIT_PATHS.saveCreditPlatform,
        makerToken,
        platform,
      );
      await data(CREDIT_PATHS.saveCreditPlatform, makerToken, {
        ...platform,
        bizCode: credit.bizCode,
        version: credit.version,
        submit: true,
      });
      await approve(checker.page, '/factoring/credit/info-view', credit.bizCode, 'credit-view');

      // 3. The contract (300,000.00, bullet, 10 % margin), by the maker; the checker approves it.
      const contractNo = `E2E-QZQ-${stamp}`;
      const init = await data<ContractInit>(CONTRACT_PATHS.init, makerToken, undefined, {
        platCredBizCode: credit.bizCode,
      });
      const line = init.lines.find((l) => l.kind === 'platform')!;
      const rules = await data<Page<RuleView>>(RULER_PATHS.list, makerToken, { pageNum: 1, pageSize: 100 });
      const rule = rules.list.find((r) => r.method === 'BULLET' && r.state === 'enabled' && !r.contBizCode)!;
      const ours = await data<{ bizCode: string }[]>(CONTRACT_PATHS.bank, makerToken, {});
      const start = today();
      const body = {
        contractNo,
        recourse: 'with',
        // 暗保理: no 转让通知 before the disbursement (assignment.e2e.ts walks the disclosed case).
        disclosure: 'undisclosed',
        product: 'factoring',
        custCode: compCode,
        platCredBizCode: credit.bizCode,
        lineCode: line.lineCode,
        financingRatio: '0.8',
        financingAmount: '300000.00',
        marginRatio: '0.1',
        currency: 'CNY',
        startDate: start,
        maturityDate: addMonths(start, 6),
        ruleBizCode: rule.bizCode,
        bankBizCode: ours[0]!.bizCode,
        receivables: [
          {
            invoiceCode: `31002${start.slice(2, 4)}130`,
            invoiceNo: String(60_000_000 + Number(stamp)),
            invoiceDate: start,
            amount: '400000.00',
            debtorName: '核心买方有限公司',
            dueDate: addMonths(start, 6),
          },
        ],
        payers: [{ payerName: '核心买方有限公司' }],
      };
      const { bizCode: contCode, dues } = await submitContract(makerToken, body);
      await approve(checker.page, '/factoring/contract/info-view', contCode, 'contract-view');
      const upfront = dues.reduce((a, d) => a.plus(d.amount), new Decimal(0));
      const net = new Decimal('300000.00').minus(upfront).toFixed(2);

      // 4. The 放款单 by finance from the contract list (放款), paid to the supplier's account;
      //    the checker approves it on its screen.
      const page = finance.page;
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
      const payees = await data<{ list: BankAccountView[] }>(BANK_PATHS.list, adminToken, {
        ownerType: 'customer',
        ownerCode: compCode,
        pageNum: 1,
        pageSize: 10,
      });
      const payee = payees.list[0]!;
      await editor.getByLabel('收款账户').click();
      await pick(page, accountLabel(payee));
      await editor.getByLabel('银行流水号').fill(`QZQFK${stamp}`);
      await editor.getByRole('button', { name: '保存并提交' }).click();
      await confirm(page);
      await page.waitForURL(/loan-view\?loanBizCode=\d{12}/, { timeout: 15_000 });
      const loanCode = new URL(page.url()).searchParams.get('loanBizCode')!;
      await approve(checker.page, '/factoring/accounts/loan-view', loanCode, 'loan-view');
      const loaned = await data<ContractInfo>(CONTRACT_PATHS.infoView, makerToken, undefined, {
        bizCode: contCode,
      });
      expect(loaned).toMatchObject({ loanState: 'loaned', loanAmount: net, loanBizCode: loanCode });

      // 5. The buyer pays 10,000.00: finance records the incoming, the checker approves it.
      const before = await data<SchemeView>(CONTRACT_PATHS.schemeView, makerToken, undefined, {
        contBizCode: contCode,
      });
      expect(before.items).toHaveLength(1);
      const item = before.items[0]!;
      const income = await data<{ fiidBizCode: string }>(INCOME_PATHS.saveBaseInfo, financeToken, {
        bankBizCode: ours[0]!.bizCode,
        payerName: '核心买方有限公司',
        payerAccount: '6222000011112222',
        payerBank: '工商银行',
        amount: '10000.00',
        valueDate: today(),
        serialNo: `QZQLK${stamp}`,
        submit: true,
      });
      await approve(checker.page, '/factoring/accounts/income-view', income.fiidBizCode, 'income-view');

      // 6. Finance writes it off against the contract by the rule (nothing due yet: principal
      //    first), on the write-off screen; the checker approves it.
      const paidInit = await data<PaidInit>(PAID_PATHS.initPaidBase, financeToken, undefined, {
        fiidBizCode: income.fiidBizCode,
      });
      const target = paidInit.contracts.find((c) => c.contBizCode === contCode)!;
      const paidEditor = await openScreen(
        page,
        `${base}/factoring/accounts/paid-editor?fiidBizCode=${income.fiidBizCode}`,
        'paid-editor',
      );
      await paidEditor.getByLabel('合同').click();
      await pick(page, `${contractNo} ${custName} 待还本金 ${formatMoney(target.principalOpen)}`);
      await paidEditor.getByRole('button', { name: '按规则分配' }).click();
      await expect
        .poll(() => paidEditor.getByTestId('paid-totals').textContent(), { timeout: 10_000 })
        .toContain('本次核销合计10,000.00');
      await paidEditor.getByRole('button', { name: '保存并提交' }).click();
      await confirm(page);
      await page.waitForURL(/paid-view\?paidBizCode=\d{12}/, { timeout: 15_000 });
      const paidCode = new URL(page.url()).searchParams.get('paidBizCode')!;
      await approve(checker.page, '/factoring/accounts/paid-view', paidCode, 'paid-view');

      // 7. The plan on the contract's screen: 10,000.00 of principal paid, the rest still owed.
      const view = await openScreen(
        maker.page,
        `${base}/factoring/contract/info-view?bizCode=${contCode}`,
        'contract-view',
      );
      await view.getByRole('tab', { name: '方案/还款计划' }).click();
      const planRow = view.getByTestId('plan-table').locator('tbody tr.ant-table-row').first();
      const owed = new Decimal(item.principal).plus(item.interest).plus(item.fee).minus('10000.00');
      await expect.poll(() => planRow.textContent(), { timeout: 10_000 }).toContain(formatMoney('10000.00'));
      const text = (await planRow.textContent())!;
      expect(text).toContain(formatMoney(item.principal));
      expect(text).toContain(formatMoney(owed.toFixed(2)));
      // Not due yet: 未到期, however much is paid ahead (docs/money-rules.md).
      expect(text).toContain('未到期');
      await maker.page.screenshot({ path: shotPath('cycle-plan.png'), fullPage: true });
    } catch (err) {
      await finance.page.screenshot({ path: shotPath('cycle-failure-finance.png') });
      await checker.page.screenshot({ path: shotPath('cycle-failure-checker.png') });
      throw err;
    } finally {
      await admin.context.close();
      await maker.context.close();
      await checker.context.close();
      await finance.context.close();
    }
  }, 240_000);
});
