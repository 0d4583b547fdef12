import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { INCOME_PATHS } from '@portal/contract/accounts';
import { BANK_PATHS, type BankAccountView } from '@portal/contract/bank';
import {
  activePage,
  launchBrowser,
  motionDone,
  newPage,
  switchTab,
  tagOf,
  base,
  signIn,
  sessionToken,
} from './helpers';
import { addChecker, confirm, data, openScreen, publicCall, today } from './flows';

/**
 * Documents as their makers meet them: a rejection comes back to the maker with its reason, a
 * submission nobody acted on can be taken back, and an editor keeps its input across tabs and
 * asks before it is thrown away.
 */
const password = inject('adminPassword');
let browser: Browser;
let adminToken: string;
let checkerToken: string;
let bankBizCode: string;

beforeAll(async () => {
  browser = await launchBrowser();
  adminToken = await sessionToken(password);
  const checker = await addChecker(adminToken);
  checkerToken = (
    await publicCall<{ accessToken: string }>('/admin/portal/api/login/user/mobileNumberLogin', {
      userName: checker.userName,
      passWord: checker.password,
      userType: '2',
    })
  ).accessToken;
  const accounts = await data<{ list: BankAccountView[] }>(BANK_PATHS.list, adminToken, {
    ownerType: 'self',
    pageNum: 1,
    pageSize: 10,
  });
  bankBizCode = accounts.list[0]!.bizCode;
});
afterAll(async () => {
  await browser?.close();
});

let seq = 0;
const stamp = () => `${String(Date.now()).slice(-6)}${seq++}`;

/** A 来款 saved and submitted by the administrator (its maker), paid by `payerName`. */
async function submittedIncome(payerName: string): Promise<string> {
  const saved = await data<{ fiidBizCode: string }>(INCOME_PATHS.saveBaseInfo, adminToken, {
    bankBizCode,
    payerName,
    amount: '1234.56',
    valueDate: today(),
    serialNo: `WD${stamp()}`,
    submit: true,
  });
  return saved.fiidBizCode;
}

describe('the maker’s side of approvals', () => {
  it('a rejected document is its maker’s 被驳回 to-do with the reason, shown again in its editor', async () => {
    const payer = `驳回测试${stamp()}`;
    const fiid = await submittedIncome(payer);
    await data(INCOME_PATHS.unAudit, checkerToken, { comment: '流水号与回单不符' }, { fiidBizCode: fiid });
    const { context, page } = await newPage(browser);
    try {
      await signIn(context, password);
      const dashboard = await openScreen(page, `${base}/dashboard`, 'dashboard');
      const row = dashboard.getByTestId('todo-table').locator('.ant-table-row', { hasText: payer });
      await row.waitFor();
      expect(await row.textContent()).toContain('被驳回');
      expect(await row.textContent()).toContain('流水号与回单不符');
      await row.click();
      await page.waitForURL((u) => u.pathname === '/factoring/accounts/income-editor');
      expect(new URL(page.url()).searchParams.get('fiidBizCode')).toBe(fiid);
      const notice = page.getByTestId('income-editor').getByTestId('rejection-notice');
      await expect.poll(() => notice.textContent(), { timeout: 10_000 }).toContain('流水号与回单不符');
    } finally {
      await context.close();
    }
  });

  it('the maker withdraws a submission nobody acted on: a draft again', async () => {
    const fiid = await submittedIncome(`撤回测试${stamp()}`);
    const { context, page } = await newPage(browser);
    try {
      await signIn(context, password);
      const view = await openScreen(
        page,
        `${base}/factoring/accounts/income-view?fiidBizCode=${fiid}`,
        'income-view',
      );
      await expect.poll(() => view.locator('.ant-card-head').first().textContent()).toContain('审核中');
      await view.getByTestId('doc-withdraw').click();
      await confirm(page);
      await expect
        .poll(() => view.locator('.ant-card-head').first().textContent(), { timeout: 10_000 })
        .toContain('草稿');
      expect(await view.getByTestId('doc-withdraw').count()).toBe(0);
      // Nobody can decide it any more.
      const r = await fetchAudit(fiid);
      expect(r).toBe('单据为草稿，不能审核');
    } finally {
      await context.close();
    }
  });
});

async function fetchAudit(fiid: string): Promise<string> {
  try {
    await data(INCOME_PATHS.audit, checkerToken, {}, { fiidBizCode: fiid });
    return 'approved';
  } catch (e) {
    return String((e as Error).message).replace(/^.*: \d+ /, '');
  }
}

describe('editor input', () => {
  const EDITOR = '/factoring/contract/info-editor';

  it('survives a tab switch; closing the tab or reloading asks first', async () => {
    const { context, page } = await newPage(browser);
    try {
      await signIn(context, password);
      const editor = await openScreen(page, `${base}${EDITOR}`, 'contract-editor');
      const no = editor.getByLabel('合同号');
      // Typed keys: a user gesture, which the browser's reload question needs.
      await no.click();
      await no.pressSequentially('HT-KEEP-001');
      await switchTab(page, '/dashboard');
      await switchTab(page, EDITOR);
      await expect.poll(() => activePage(page, EDITOR).getByLabel('合同号').inputValue()).toBe('HT-KEEP-001');

      // Closing the tab asks; 取消 keeps it and its input.
      await tagOf(page, EDITOR).locator('.tags-view-item__close').click();
      const ask = page.locator('.ant-modal-confirm', { hasText: '未保存' });
      await motionDone(ask);
      await ask.getByRole('button', { name: /取\s*消/ }).click();
      await ask.waitFor({ state: 'detached' });
      expect(await tagOf(page, EDITOR).count()).toBe(1);
      expect(await activePage(page, EDITOR).getByLabel('合同号').inputValue()).toBe('HT-KEEP-001');

      // A reload asks the browser's question; dismissed, the page and its input stay.
      const asked: string[] = [];
      page.on('dialog', (d) => {
        asked.push(d.type());
        void d.dismiss();
      });
      await page.reload({ timeout: 3_000 }).catch(() => undefined);
      await expect.poll(() => asked).toContain('beforeunload');
      expect(await activePage(page, EDITOR).getByLabel('合同号').inputValue()).toBe('HT-KEEP-001');

      // 确定 closes it.
      await tagOf(page, EDITOR).locator('.tags-view-item__close').click();
      await confirm(page);
      await expect.poll(() => tagOf(page, EDITOR).count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});
