import { describe, expect, inject, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { BAD_DEBT_PATHS, type BadDebtQuote } from '@portal/contract/baddebt';
import { CLASS_PATHS } from '@portal/contract/classification';
import { CONTRACT_PATHS, type ContractInfo } from '@portal/contract/contract';
import { formatMoney } from '@portal/contract/format';
import { LOAN_PATHS, type LoanInit } from '@portal/contract/loan';
import { base, login, newPage, shotPath, tokenOf } from './helpers';
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
 * 核销坏账 (docs/accounting.md "Bad-debt write-off") through its screens: 李经办 (maker) raises the
 * write-off of a disbursed contract classified 损失 (by an approved 分类调整单, through the API), 王复核
 * (checker) approves it, and the contract shows 已核销. A contract not classified 损失 is refused on
 * the editor with the server's reason. The contracts are the test's own.
 */
const browser = fileBrowser();
const password = inject('adminPassword');
const stamp = String(Date.now()).slice(-6);

/** A contract of the demo credit, approved and disbursed through the API. */
async function disbursed(adminToken: string, checkerToken: string, contractNo: string, invoiceNo: number) {
  const { bizCode } = await submittedContract(adminToken, contractNo, invoiceNo, {});
  await data(CONTRACT_PATHS.infoAudit, checkerToken, {}, { bizCode });
  const init = await data<LoanInit>(LOAN_PATHS.initBase, adminToken, undefined, { contBizCode: bizCode });
  const loan = await data<{ loanBizCode: string }>(LOAN_PATHS.saveBaseInfo, adminToken, {
    contBizCode: bizCode,
    valueDate: init.valueDate,
    payBankBizCode: init.payBankBizCode,
    payeeBankBizCode: init.payeeBankBizCode,
    serialNo: `HXFK${stamp}${contractNo.includes('HXK') ? 'K' : 'S'}`,
    submit: true,
  });
  await data(LOAN_PATHS.audit, checkerToken, {}, { loanBizCode: loan.loanBizCode });
  return bizCode;
}

/** The value of a Descriptions item labelled `label` in `scope`. */
function described(scope: Locator, label: string): Locator {
  return scope
    .locator('.ant-descriptions-item-label', { hasText: label })
    .first()
    .locator('xpath=following-sibling::td[1]');
}

describe('核销坏账 (bad-debt write-off)', () => {
  it(
    'maker raises the write-off of a 损失 contract on screen, checker approves, the contract is 已核销; a 可疑 contract is refused',
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
        const lossNo = `E2E-HX-${stamp}`;
        const doubtfulNo = `E2E-HXK-${stamp}`;
        const lossCode = await disbursed(adminToken, checkerToken, lossNo, 62_000_000 + Number(stamp));
        const doubtfulCode = await disbursed(
          adminToken,
          checkerToken,
          doubtfulNo,
          63_000_000 + Number(stamp),
        );
        // Their classes, by 分类调整单 approved by the checker.
        for (const [contBizCode, toClass] of [
          [lossCode, 'loss'],
          [doubtfulCode, 'doubtful'],
        ] as const) {
          const adj = await data<{ adjBizCode: string }>(CLASS_PATHS.saveBaseInfo, adminToken, {
            contBizCode,
            toClass,
            reason: '浏览器测试：债务人破产',
            submit: true,
          });
          await data(CLASS_PATHS.audit, checkerToken, { comment: '同意' }, { adjBizCode: adj.adjBizCode });
        }
        const bizDate = today();
        const quote = await data<BadDebtQuote>(BAD_DEBT_PATHS.quote, adminToken, undefined, {
          contBizCode: lossCode,
          writeOffDate: bizDate,
        });
        expect(quote.principal).toBe('300000.00');

        // 1. The list, then 新增核销坏账.
        const list = await openScreen(page, `${base}/factoring/accounts/bad-debt`, 'bad-debt-list');
        await list.getByRole('link', { name: '新增核销坏账' }).click();
        const editor = page.getByTestId('bad-debt-editor');
        await editor.waitFor();
        await expect.poll(() => editor.getByLabel('核销日期').inputValue()).toBe(bizDate);

        // 2. The 可疑 contract: the server's reason shown, nothing can be saved.
        await editor.getByLabel('合同编号').fill(doubtfulCode);
        await expect
          .poll(() => editor.locator('.ant-alert-warning').textContent(), { timeout: 10_000 })
          .toContain('只有「损失」类合同可以核销坏账');
        expect(await editor.getByRole('button', { name: '保存并提交' }).isDisabled()).toBe(true);

        // 3. The 损失 contract: the amount part by part, how the principal is charged, the lines.
        await editor.getByLabel('合同编号').fill(lossCode);
        await expect
          .poll(() => editor.getByTestId('bad-debt-amount').textContent(), { timeout: 10_000 })
          .toBe(formatMoney(quote.amount));
        expect((await described(editor, '未还本金').textContent())?.trim()).toBe(
          formatMoney(quote.principal),
        );
        expect(await editor.getByTestId('bad-debt-loss').textContent()).toBe(formatMoney(quote.lossCharged));
        const lines = editor.locator('.ant-table-tbody tr.ant-table-row');
        await expect.poll(() => lines.count()).toBe(quote.lines.length);
        await editor.getByLabel('核销原因').fill('浏览器测试：债务人破产清算');
        await page.screenshot({ path: shotPath('bad-debt-editor.png') });
        await editor.getByRole('button', { name: '保存并提交' }).click();
        await confirm(page);
        await page.waitForURL(/bad-debt-view\?badDebtBizCode=\d{12}/, { timeout: 15_000 });
        const code = new URL(page.url()).searchParams.get('badDebtBizCode')!;

        // 4. The checker approves it on its view.
        await approve(checker.page, '/factoring/accounts/bad-debt-view', code, 'bad-debt-view');

        // 5. The write-off shows 已核销 and what it released; the contract is 已核销.
        const view = await openScreen(
          page,
          `${base}/factoring/accounts/bad-debt-view?badDebtBizCode=${code}`,
          'bad-debt-view',
        );
        await expect.poll(() => view.textContent(), { timeout: 10_000 }).toContain('已核销');
        expect(await view.getByTestId('bad-debt-amount').textContent()).toBe(formatMoney(quote.amount));
        const info = await data<ContractInfo>(CONTRACT_PATHS.infoView, adminToken, undefined, {
          bizCode: lossCode,
        });
        expect(info.status).toBe('writtenOff');
        // The contract's view carries the 已核销 tag beside its state.
        const contract = await openScreen(
          page,
          `${base}/factoring/contract/info-view?bizCode=${lossCode}`,
          'contract-view',
        );
        await expect.poll(() => contract.textContent(), { timeout: 10_000 }).toContain('已核销');
        await page.screenshot({ path: shotPath('bad-debt-contract.png') });
      } finally {
        await admin.context.close();
        await maker.context.close();
        await checker.context.close();
      }
    },
  );
});
