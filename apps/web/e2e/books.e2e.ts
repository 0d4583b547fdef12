import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Locator } from 'playwright-core';
import {
  ASSET_CLASS_LABELS,
  CLASS_FILE_NAME,
  CLASS_PATHS,
  UNCLASSIFIED_LABEL,
  type AssetClass,
  type ClassRow,
} from '@portal/contract/classification';
import { formatMoney } from '@portal/contract/format';
import { PERMISSION_PATHS, type RoleView } from '@portal/contract/permission';
import { VOUCHER_PATHS, type TrialBalance, type VoucherPage } from '@portal/contract/voucher';
import {
  animationsDone,
  activePage,
  downloadXlsx,
  launchBrowser,
  newPage,
  screenShows,
  shotPath,
  tokenOf,
  watchPage,
  base,
} from './helpers';
import { approve, changeFirstPassword, confirm, data, loginAs, pick, publicCall } from './flows';

const password = inject('adminPassword');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const stamp = String(Date.now()).slice(-6);
const LIST = '/factoring/accounts/classification';
const VIEW = '/factoring/accounts/classification-view';
const VOUCHERS = '/factoring/accounts/voucher';
const TRIAL = '/factoring/accounts/voucher-trial';
/** The demo office's first contract: approved and disbursed four months ago, so live and in the books. */
const DEMO_CONTRACT = 'DEMO-BL-001';

/** A colleague holding the demo office's roles `roles` (by role code), first password changed. */
async function colleague(
  token: string,
  userName: string,
  realName: string,
  roles: string[],
): Promise<{ userName: string; password: string }> {
  const all = await data<{ list: RoleView[] }>(PERMISSION_PATHS.roleList, token, {
    pageNum: 1,
    pageSize: 100,
  });
  const orgs = await data<{ deptBizCode: string }[]>(PERMISSION_PATHS.orgTree, token, {});
  const temp = await data<{ password: string }>(PERMISSION_PATHS.userAdd, token, {
    userName,
    realName,
    deptCode: orgs[0]!.deptBizCode,
    roleCodes: roles.map((code) => all.list.find((r) => r.code === code)!.bizCode),
  });
  return { userName, password: await changeFirstPassword(userName, temp.password, 'Books@2026xyz') };
}

const cents = (text: string | null | undefined) => Math.round(Number((text ?? '').replace(/,/g, '')) * 100);
const label = (c: AssetClass | null) => (c ? ASSET_CLASS_LABELS[c] : UNCLASSIFIED_LABEL);

/** Every row of the 五级分类 list as the server gives it to `token`'s user. */
async function classRows(token: string): Promise<ClassRow[]> {
  const page = await data<{ list: ClassRow[]; total: number }>(CLASS_PATHS.list, token, {
    pageNum: 1,
    pageSize: 500,
  });
  expect(page.list.length).toBe(page.total);
  return page.list;
}

/** The texts of a table row's cells. */
const cellsOf = (row: Locator) => row.locator('td').allTextContents();

describe('五级分类 and 会计凭证 for finance', () => {
  it(
    'a finance user exports 五级分类, raises a 分类调整单 a checker approves, and sees the books balance',
    { timeout: 300_000 },
    async () => {
      const admin = await publicCall<{ accessToken: string }>(
        '/admin/portal/api/login/user/mobileNumberLogin',
        {
          userName: 'admin',
          passWord: password,
          userType: '2',
        },
      );
      const financeUser = await colleague(admin.accessToken, `books${stamp}`, '账务测试财务', [
        'finance',
        'viewer',
      ]);
      const riskUser = await colleague(admin.accessToken, `bookchk${stamp}`, '账务测试风控', [
        'risk',
        'viewer',
      ]);

      const { context, page } = await newPage(browser, 1600, 960);
      const report = watchPage(page);
      try {
        await loginAs(page, financeUser.userName, financeUser.password);
        const token = (await tokenOf(context))!;
        const before = await classRows(token);
        const demo = before.find((r) => r.contractNo === DEMO_CONTRACT)!;
        expect(demo, `${DEMO_CONTRACT} on the 五级分类 list`).toBeTruthy();
        const target: AssetClass = demo.assetClass === 'watch' ? 'substandard' : 'watch';

        // 五级分类: the list, then its 导出 read back.
        await page.goto(`${base}${LIST}`);
        await screenShows(page, LIST);
        const list = activePage(page, LIST);
        const demoRow = list.locator('tr.ant-table-row', { hasText: DEMO_CONTRACT });
        await demoRow.waitFor({ timeout: 15_000 });
        expect((await cellsOf(demoRow)).join('|')).toContain(formatMoney(demo.principalOutstanding));
        const sheet = await downloadXlsx(
          page,
          () => list.getByRole('button', { name: /导\s*出/ }).click(),
          CLASS_FILE_NAME,
        );
        expect(String(sheet[0]![0])).toContain('五级分类  分类日期：');
        const head = sheet[1]!;
        const at = (h: string) => head.indexOf(h);
        expect(at('本金余额')).toBeGreaterThan(0);
        const body = sheet.slice(2, -1);
        expect(body.map((r) => r[at('合同编号')])).toEqual(before.map((r) => r.contBizCode));
        const line = body.find((r) => r[at('合同号')] === DEMO_CONTRACT)!;
        expect(Number(line[at('本金余额')]).toFixed(2)).toBe(demo.principalOutstanding);
        expect(line[at('当前分类')]).toBe(label(demo.assetClass));
        const sum = sheet[sheet.length - 1]!;
        expect([sum[0], sum[1]]).toEqual(['合计', `${before.length}笔`]);
        const added = body.reduce((s, r) => s + Math.round(Number(r[at('本金余额')]) * 100), 0);
        expect(Math.round(Number(sum[at('本金余额')]) * 100)).toBe(added);

        // 调整 opens a 分类调整单 for the contract; 保存并提交 sends it to 风控.
        await demoRow.getByRole('button', { name: /调\s*整/ }).click();
        await page.waitForURL((u) => u.pathname === '/factoring/accounts/classification-editor');
        const editor = page.getByTestId('classification-editor');
        await expect.poll(() => editor.textContent(), { timeout: 15_000 }).toContain(DEMO_CONTRACT);
        await editor.getByLabel('调整后分类').click();
        await pick(page, ASSET_CLASS_LABELS[target]);
        await editor.getByLabel('调整原因').fill('买方付款延迟，需加强关注（浏览器测试）');
        await editor.getByRole('button', { name: '保存并提交' }).click();
        await confirm(page);
        await page.waitForURL((u) => u.pathname === VIEW, { timeout: 20_000 });
        const adjBizCode = new URL(page.url()).searchParams.get('adjBizCode')!;
        expect(adjBizCode).toMatch(/^\d{12}$/);
        await expect
          .poll(() => page.getByTestId('classification-view').textContent(), { timeout: 15_000 })
          .toContain('审核中');

        // A 风控 colleague approves it in their own browser.
        const checker = await newPage(browser, 1600, 960);
        try {
          await loginAs(checker.page, riskUser.userName, riskUser.password);
          await approve(checker.page, VIEW, adjBizCode, 'classification-view');
        } finally {
          await checker.context.close();
        }

        // The list shows the new class, held by the approved document.
        await page.goto(`${base}${LIST}`);
        await screenShows(page, LIST);
        const after = activePage(page, LIST).locator('tr.ant-table-row', { hasText: DEMO_CONTRACT });
        await expect
          .poll(async () => (await cellsOf(after)).join('|'), { timeout: 15_000 })
          .toContain(adjBizCode);
        expect((await cellsOf(after)).join('|')).toContain(ASSET_CLASS_LABELS[target]);
        const now = (await classRows(token)).find((r) => r.contractNo === DEMO_CONTRACT)!;
        expect([now.assetClass, now.adjBizCode]).toEqual([target, adjBizCode]);
        await page.screenshot({ path: shotPath('books-classification.png') });

        // 会计凭证 of the period the demo's disbursement was posted in: a voucher's Σ借 = Σ贷.
        // The oldest disbursement voucher is the demo's: other browser tests add disbursements and
        // red mirrors of them to the same server (the list answers newest first by default).
        const vouchers = await data<VoucherPage>(VOUCHER_PATHS.list, token, {
          pageNum: 1,
          pageSize: 100,
          orderBy: 'voucherDate',
          order: 'asc',
        });
        const loan = vouchers.list.find((v) => v.docType === 'loan' && !v.redOfNo)!;
        expect(loan, 'the demo disbursement’s voucher').toBeTruthy();
        const period = loan.period;
        await page.goto(`${base}${VOUCHERS}`);
        await screenShows(page, VOUCHERS);
        const books = activePage(page, VOUCHERS);
        await books.getByLabel('会计期间').fill(period);
        await animationsDone(page);
        await books.getByRole('button', { name: /查\s*询/ }).click();
        const voucherRow = books
          .locator('tr.ant-table-row', { hasText: loan.voucherNo })
          .filter({ hasText: period });
        await voucherRow.first().waitFor({ timeout: 15_000 });
        await animationsDone(page);
        await voucherRow.first().getByTestId('voucher-open').click();
        const drawer = page
          .locator('.ant-drawer-section')
          .filter({ hasText: `记账凭证 ${period} ${loan.voucherNo}` });
        const lines = drawer.locator('.ant-table-tbody tr.ant-table-row');
        await expect.poll(() => lines.count(), { timeout: 15_000 }).toBeGreaterThan(1);
        let debit = 0;
        let credit = 0;
        for (const row of await lines.all()) {
          const cells = await cellsOf(row);
          debit += cents(cells[3]);
          credit += cents(cells[4]);
        }
        expect(debit).toBeGreaterThan(0);
        expect(debit).toBe(credit);
        expect(debit).toBe(cents(loan.amount));
        const voucherTotals = await cellsOf(drawer.locator('.ant-table-summary tr').first());
        expect([voucherTotals[1], voucherTotals[2]]).toEqual([
          formatMoney(loan.amount),
          formatMoney(loan.amount),
        ]);
        await page.screenshot({ path: shotPath('books-voucher.png') });

        // 试算平衡 of that period: Σ借 = Σ贷 for the movement, as the server computes it.
        const trial = await data<TrialBalance>(VOUCHER_PATHS.trial, token, { period });
        expect(trial.balanced).toBe(true);
        expect(trial.totals.debit).toBe(trial.totals.credit);
        await page.goto(`${base}${TRIAL}`);
        await screenShows(page, TRIAL);
        const tb = activePage(page, TRIAL);
        await tb.getByLabel('会计期间').fill(period);
        await tb.getByRole('button', { name: /查\s*询/ }).click();
        const totals = tb.getByTestId('trial-totals');
        // 合计, 期初借方, 期初贷方, 本期借方, 本期贷方, 期末借方, 期末贷方
        await expect
          .poll(async () => (await cellsOf(totals)).slice(3, 5), { timeout: 15_000 })
          .toEqual([formatMoney(trial.totals.debit), formatMoney(trial.totals.credit)]);
        const shown = await cellsOf(totals);
        expect(shown[3]).toBe(shown[4]);
        expect(shown[1]).toBe(shown[2]);
        expect(shown[5]).toBe(shown[6]);
        expect(await tb.getByText('借贷平衡').isVisible()).toBe(true);
        await page.screenshot({ path: shotPath('books-trial.png') });
      } catch (e) {
        throw new Error(`${String(e)}\n${report()}`);
      } finally {
        await context.close();
      }
    },
  );
});
