import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { BANK_PATHS, type BankAccountView } from '@portal/contract/bank';
import { INCOME_PATHS } from '@portal/contract/accounts';
import { CLOSE_PATHS, type CloseMonthPage } from '@portal/contract/voucher';
import { base, motionDone, newPage, watchPage } from './helpers';
import { addChecker, asAdmin, clickTab, data, fileBrowser, loginAs, openScreen, pick } from './flows';

/**
 * 月结 through the screen (docs/accounting.md "Month close"): the administrator asks to close the
 * earliest open month of the books, may not approve their own request, a second administrator
 * approves it; an incoming dated in that month is then refused at its approval with the close's
 * Chinese message; the month is reopened with a reason by the same four eyes, and the incoming
 * posts. The month ends open again, as it was, for the files after this one on the server.
 */
const browser = fileBrowser();
const stamp = String(Date.now()).slice(-6);

const SCREEN = '/factoring/accounts/voucher-close';

/** The month's row on the 月结 screen. */
const rowOf = (page: Page, period: string) => page.locator(`tr[data-row-key="${period}"]`);

/** Asks to close or reopen `period` in the screen's dialog. */
async function ask(page: Page, period: string, action: '结账' | '反结账', reason?: string) {
  const screen = await openScreen(page, `${base}${SCREEN}`, 'voucher-close');
  await screen.getByRole('button', { name: '申请结账/反结账' }).click();
  const dialog = page.locator('.ant-modal', { hasText: '申请结账/反结账' });
  await motionDone(dialog);
  await dialog.getByLabel('会计期间').fill(period);
  if (action === '反结账') {
    await dialog.getByLabel('操作').click();
    await pick(page, '反结账');
  }
  if (reason !== undefined) await dialog.getByLabel('原因').fill(reason);
  await dialog.getByRole('button', { name: /提\s*交/ }).click();
}

/** Presses 同意 on the month's pending request and answers the confirmation. */
async function agree(page: Page, period: string) {
  await openScreen(page, `${base}${SCREEN}`, 'voucher-close');
  const row = rowOf(page, period);
  // 同意 shows while a request waits (and the user may decide).
  const button = row.getByRole('button', { name: /同\s*意/ });
  await expect.poll(() => button.count()).toBe(1);
  await button.click();
  const dialog = page.locator('.ant-modal-confirm');
  await motionDone(dialog);
  await dialog.getByLabel('复核意见').fill('复核无误');
  await dialog.getByRole('button', { name: /同\s*意/ }).click();
  await dialog.waitFor({ state: 'detached' });
}

const toast = (page: Page, text: string) => page.locator('.ant-message-notice', { hasText: text });

describe('月结', () => {
  it(
    'closes a month by four eyes, refuses a voucher dated in it, reopens it with a reason by four eyes',
    { timeout: 240_000 },
    async () => {
      await asAdmin(
        browser(),
        async ({ page, token }) => {
          // The earliest month of the books: every month before it is closed (there is none).
          const months = await data<CloseMonthPage>(CLOSE_PATHS.list, token, { pageNum: 1, pageSize: 120 });
          const open = months.list.filter((m) => !m.closed).map((m) => m.period);
          const period = open.sort()[0]!;
          expect(months.list.filter((m) => m.closed)).toEqual([]);
          const checkerUser = await addChecker(token);
          const checker = await newPage(browser(), 1600, 960);
          const checkerReport = watchPage(checker.page);
          try {
            await loginAs(checker.page, checkerUser.userName, checkerUser.password);

            // 1. Asked by the administrator; the asker's own 同意 is refused.
            await ask(page, period, '结账');
            const row = rowOf(page, period);
            await expect.poll(() => row.textContent()).toContain('结账（');
            await agree(page, period);
            await toast(page, '申请人和复核人相同，不可复核').waitFor();
            expect(await row.textContent()).toContain('未结账');

            // 2. The checker approves: the month is closed.
            await agree(checker.page, period);
            const checked = rowOf(checker.page, period);
            await expect.poll(() => checked.textContent()).toContain('已结账');
            await expect.poll(() => checked.textContent()).toContain('结账已执行（复核员：复核无误）');

            // 3. An incoming dated in the closed month: its approval would write a voucher there.
            const accounts = await data<{ list: BankAccountView[] }>(BANK_PATHS.list, token, {
              ownerType: 'self',
              pageNum: 1,
              pageSize: 10,
            });
            const valueDate = `${period}-15`;
            const income = await data<{ fiidBizCode: string }>(INCOME_PATHS.saveBaseInfo, token, {
              bankBizCode: accounts.list[0]!.bizCode,
              payerName: '核心买方有限公司',
              payerAccount: '6222000011112222',
              payerBank: '工商银行',
              amount: '1000.00',
              valueDate,
              serialNo: `CLOSE${stamp}`,
              submit: true,
            });
            const approveIncome = async () => {
              const view = await openScreen(
                checker.page,
                `${base}/factoring/accounts/income-view?bizCode=${income.fiidBizCode}`,
                'income-view',
              );
              await expect.poll(() => view.textContent()).toContain('审核中');
              await clickTab(view, '流程审批');
              const panel = view.getByTestId('decision-panel');
              await panel.getByTestId('decision-comment').fill('同意');
              await panel.getByTestId('decision-approve').click();
              const dialog = checker.page.locator('.ant-modal-confirm');
              await motionDone(dialog);
              await dialog.getByRole('button', { name: /确\s*定/ }).click();
              return view;
            };
            const refused = await approveIncome();
            await toast(
              checker.page,
              `凭证日期${valueDate}所在的会计期间${period}已结账，不能记账`,
            ).waitFor();
            expect(await refused.locator('.ant-card-head').first().textContent()).toContain('审核中');

            // 4. 反结账: a reason is required; asked by the administrator, approved by the checker.
            await ask(page, period, '反结账');
            await toast(page, '反结账须填写原因').waitFor();
            const dialog = page.locator('.ant-modal', { hasText: '申请结账/反结账' });
            await dialog.getByLabel('原因').fill('补记来款');
            await dialog.getByRole('button', { name: /提\s*交/ }).click();
            await dialog.waitFor({ state: 'hidden' });
            await expect.poll(() => row.textContent()).toContain('反结账（');
            expect(await row.textContent()).toContain('原因：补记来款');
            await agree(checker.page, period);
            await expect.poll(() => checked.textContent()).toContain('未结账');
            await expect.poll(() => checked.textContent()).toContain('反结账已执行');

            // 5. The month open again: the incoming posts.
            const view = await approveIncome();
            await expect
              .poll(() => view.locator('.ant-card-head').first().textContent(), { timeout: 10_000 })
              .toContain('已审核');
          } catch (e) {
            throw new Error(`${String(e)}\nchecker: ${checkerReport()}`);
          } finally {
            await checker.context.close();
          }
        },
        { failureShot: 'close-failure.png' },
      );
    },
  );
});
