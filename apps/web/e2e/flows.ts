import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import Decimal from 'decimal.js';
import { ADMISSION_PATHS } from '@portal/contract/admission';
import { BANK_PATHS, REPAY_PURPOSES, type BankAccountView } from '@portal/contract/bank';
import { FILE_PATHS } from '@portal/contract/files';
import { CONTRACT_PATHS, type ContractInit, type DueKind } from '@portal/contract/contract';
import { addMonths } from '@portal/contract/plan/dates';
import { RULER_PATHS, type RuleView } from '@portal/contract/ruler';
import type { Page as ListPage } from '@portal/contract/api';
import { PERMISSION_PATHS, type RoleView, type UserView } from '@portal/contract/permission';
import {
  animationsDone,
  apiCall,
  base,
  launchBrowser,
  motionDone,
  newPage,
  screenShows,
  shotPath,
  watchPage,
  signIn,
} from './helpers';

/**
 * Steps the business screens' browser tests share: API calls as a signed-in user, a second
 * administrator for four-eyes approvals, picking from antd selects, opening a screen, approving
 * a document in its audit view.
 */

/** One Chromium for a file's tests, launched before them and closed after: read it in a test. */
export function fileBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => browser!;
}

/**
 * `work` on a page of its own (1600×960 unless told), signed in as the administrator, with the
 * session's token for API calls. A failure says what the page still waited for and the errors it
 * saw (watchPage), after a screenshot named `failureShot` when given; the page is closed after.
 */
export async function asAdmin(
  browser: Browser,
  work: (session: { page: Page; context: BrowserContext; token: string }) => Promise<void>,
  opts: { width?: number; height?: number; failureShot?: string } = {},
): Promise<void> {
  const { context, page } = await newPage(browser, opts.width ?? 1600, opts.height ?? 960);
  const report = watchPage(page);
  try {
    // Every caller's work opens its screen first: the form's login would only load pages left unused.
    const token = await signIn(context, inject('adminPassword'));
    await work({ page, context, token });
  } catch (e) {
    if (opts.failureShot) await page.screenshot({ path: shotPath(opts.failureShot) });
    throw new Error(`${String(e)}\n${report()}`);
  } finally {
    await context.close();
  }
}

export async function data<T>(
  path: string,
  token: string,
  body?: unknown,
  query?: Record<string, string>,
): Promise<T> {
  const r = await apiCall(
    base,
    query ? `${path}?${new URLSearchParams(query).toString()}` : path,
    token,
    body,
  );
  const json = r.json as { status: number; msg: string; data: T };
  if (json.status !== 200) throw new Error(`${path}: ${json.status} ${json.msg}`);
  return json.data;
}

/** A sealed public call (login). */
export async function publicCall<T>(path: string, body: unknown): Promise<T> {
  const json = (await apiCall(base, path, '', body)).json as { status: number; msg: string; data: T };
  if (json.status !== 200) throw new Error(`${path}: ${json.status} ${json.msg}`);
  return json.data;
}

/** A second administrator (the checker of four-eyes approvals), with its first password changed. */
export async function addChecker(token: string): Promise<{ userName: string; password: string }> {
  return addUserWithRole(token, 'admin', 'checker', '复核员');
}

/** A new user holding the one role of that code, with its first password changed. */
export async function addUserWithRole(
  token: string,
  roleCode: string,
  prefix: string,
  realName: string,
): Promise<{ userName: string; password: string }> {
  const roles = await data<{ list: RoleView[] }>(PERMISSION_PATHS.roleList, token, {
    pageNum: 1,
    pageSize: 100,
  });
  const role = roles.list.find((r) => r.code === roleCode)!;
  const orgs = await data<{ deptBizCode: string }[]>(PERMISSION_PATHS.orgTree, token, {});
  const userName = `${prefix}${String(Date.now()).slice(-6)}`;
  const temp = await data<{ password: string }>(PERMISSION_PATHS.userAdd, token, {
    userName,
    realName,
    deptCode: orgs[0]!.deptBizCode,
    roleCodes: [role.bizCode],
  });
  return { userName, password: await changeFirstPassword(userName, temp.password, 'Checker@2026x') };
}

/** A new user's first login: the temporary password changed to `next` (answered back). */
export async function changeFirstPassword(userName: string, temp: string, next: string): Promise<string> {
  const session = await publicCall<{ accessToken: string }>(
    '/admin/portal/api/login/user/mobileNumberLogin',
    { userName, passWord: temp, userType: '2' },
  );
  await data('/admin/portal/user/password/update', session.accessToken, {
    pwd: temp,
    newPwd: next,
    reNewPwd: next,
  });
  return next;
}

/**
 * A demo user's password (docs/operations.md "Demo users"), reset by the administrator and changed
 * on first use to a known one, which is answered back.
 */
export async function demoLogin(adminToken: string, userName: string): Promise<string> {
  const users = await data<{ list: UserView[] }>(PERMISSION_PATHS.userList, adminToken, {
    pageNum: 1,
    pageSize: 20,
    name: userName,
  });
  const user = users.list.find((u) => u.userName === userName)!;
  const temp = await data<{ password: string }>(PERMISSION_PATHS.passwordReset, adminToken, {
    userCode: user.userCode,
  });
  return changeFirstPassword(userName, temp.password, `Demo@2026${String(Date.now()).slice(-6)}`);
}

export async function loginAs(page: Page, userName: string, pwd: string): Promise<void> {
  await page.goto(`${base}/login`);
  await page.getByPlaceholder('用户名').fill(userName);
  await page.getByPlaceholder('密码').fill(pwd);
  await page.getByRole('button', { name: /登\s*录/ }).click();
  await page.waitForURL((url) => url.pathname !== '/login', { timeout: 20_000 });
}

/**
 * Answers 确定 in the confirmation dialog, once it has opened (motionDone): pressed while the dialog
 * still waits to zoom in, the release lands on the mask and the dialog stays. With `text`, the
 * dialog must be asking that.
 */
export async function confirm(page: Page, text?: string): Promise<void> {
  const dialog = page.locator('.ant-modal-confirm');
  if (text) await expect.poll(() => dialog.textContent()).toContain(text);
  await motionDone(dialog);
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  await dialog.waitFor({ state: 'detached' });
}

/**
 * Closes the temporary password's dialog (用户管理: add and reset) with 我已记下, once it has opened
 * (motionDone), as confirm does: pressed while it still zooms in, the press lands on the mask and
 * the dialog stays over the list.
 */
export async function passwordNoted(page: Page): Promise<void> {
  const dialog = page.locator('.ant-modal').filter({ hasText: '临时密码' });
  await motionDone(dialog);
  await dialog.getByRole('button', { name: '我已记下' }).click();
  await dialog.waitFor({ state: 'detached' });
}

/** Chooses an option of the open select, once its dropdown has stopped moving (animationsDone). */
export async function pick(page: Page, title: string): Promise<void> {
  const option = page
    .locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${title}"]`)
    .first();
  await option.waitFor();
  await animationsDone(page);
  await option.click();
}

/**
 * Clicks a row's action by its label, as a link or, when the row offers more than three, under
 * its 更多 menu (docs/architecture.md "Lists fit their box").
 */
export async function rowAction(page: Page, row: Locator, label: string): Promise<void> {
  const link = row.getByRole('button', { name: label, exact: true });
  const more = row.getByRole('button', { name: /^更多/ });
  await link.or(more).first().waitFor();
  if ((await link.count()) > 0) return link.click();
  await more.click();
  const item = page.locator('.ant-dropdown:visible').getByRole('menuitem', { name: label, exact: true });
  await item.waitFor();
  await animationsDone(page);
  await item.click();
}

/**
 * Opens a screen and waits for its `testId`, then until it is shown and settled. No reload: a
 * screen that does not come is a stall to find, not to hide.
 */
export async function openScreen(page: Page, url: string, testId: string) {
  await page.goto(url);
  const screen = page.getByTestId(testId).first();
  await screen.waitFor();
  // The management layout shows the screen as its active tab; the website layout (/crm, /ec, /fc,
  // /dw) has no tab strip, only its own motion to wait for.
  if (await page.locator('.tags-view-wrapper').count()) await screenShows(page, new URL(url).pathname);
  else await animationsDone(page);
  return screen;
}

/** Clicks a tab once, when nothing on the page moves any more, and waits for it to be selected. */
export async function clickTab(scope: Locator, name: string): Promise<void> {
  const tab = scope.getByRole('tab', { name, exact: true }).first();
  await tab.waitFor();
  await animationsDone(scope.page());
  await tab.click();
  await expect.poll(() => tab.getAttribute('aria-selected')).toBe('true');
}

/** Opens a view page as the checker and approves it in the audit view's 流程审批 tab. */
export async function approve(page: Page, path: string, bizCode: string, testId: string): Promise<void> {
  const view = await openScreen(page, `${base}${path}?bizCode=${bizCode}`, testId);
  await expect.poll(() => view.textContent(), { timeout: 10_000 }).toContain('审核中');
  await clickTab(view, '流程审批');
  const panel = view.getByTestId('decision-panel');
  await panel.getByTestId('decision-comment').fill('同意');
  await panel.getByTestId('decision-approve').click();
  await confirm(page);
  await expect
    .poll(() => view.locator('.ant-card-head').first().textContent(), { timeout: 10_000 })
    .toContain('已审核');
}

/**
 * The demo data's approved platform credit (50,000,000 for 华东建工集团). Found by its customer,
 * never by position: the picker sorts by customer name, and credits other tests create (cycle.e2e's
 * 全周期供应商…, partly used) sort before it.
 */
export async function demoCredit(token: string): Promise<{ credBizCode: string; custName: string }> {
  const credits = await data<{ credBizCode: string; custName: string }[]>(CONTRACT_PATHS.custList, token, {});
  const credit = credits.find((c) => c.custName === DEMO_CREDIT_CUSTOMER);
  if (!credit) throw new Error(`no approved credit of ${DEMO_CREDIT_CUSTOMER} among ${credits.length}`);
  return credit;
}
const DEMO_CREDIT_CUSTOMER = '华东建工集团有限公司';

/**
 * A contract of the demo credit, 300,000.00 bullet with a 10 % margin (30,000.00) and the rule's
 * 前置 interest and fee when it has them, saved and submitted through the API: its code and its
 * up-front dues. `invoiceNo` keeps each test's receivable apart from the others'; `recourse`, when
 * given, overrides the credit's (有追索 / 无追索).
 */
export async function submittedContract(
  token: string,
  contractNo: string,
  invoiceNo: number,
  opts: { recourse?: 'with' | 'without' } = {},
): Promise<{ bizCode: string; dues: { kind: DueKind; amount: string }[] }> {
  const init = await data<ContractInit>(CONTRACT_PATHS.init, token, undefined, {
    platCredBizCode: (await demoCredit(token)).credBizCode,
  });
  const line = init.lines.find((l) => new Decimal(l.availableAmount).gte('300000'))!;
  const rules = await data<ListPage<RuleView>>(RULER_PATHS.list, token, { pageNum: 1, pageSize: 100 });
  const rule = rules.list.find((r) => r.method === 'BULLET' && r.state === 'enabled' && !r.contBizCode)!;
  const ours = await data<ListPage<BankAccountView>>(BANK_PATHS.list, token, {
    ownerType: 'self',
    pageNum: 1,
    pageSize: 10,
  });
  const start = today();
  const body = {
    contractNo,
    recourse: opts.recourse ?? init.recourse ?? 'with',
    // 暗保理: the flows that disburse need no 转让通知 (assignment.e2e.ts walks the disclosed case).
    disclosure: 'undisclosed',
    product: init.product,
    custCode: init.custCode,
    platCredBizCode: init.platCredBizCode,
    lineCode: line.lineCode,
    financingRatio: '0.8',
    financingAmount: '300000.00',
    marginRatio: '0.1',
    currency: 'CNY',
    startDate: start,
    maturityDate: addMonths(start, 6),
    ruleBizCode: rule.bizCode,
    // A 还款账户 is never a 付款账户 (the server refuses it).
    bankBizCode: ours.list.find((a) => REPAY_PURPOSES.includes(a.purpose))!.bizCode,
    receivables: [
      {
        invoiceCode: `31002${start.slice(2, 4)}130`,
        invoiceNo: String(invoiceNo),
        invoiceDate: start,
        amount: '400000.00',
        debtorName: '核心买方有限公司',
        dueDate: addMonths(start, 6),
      },
    ],
    payers: [{ payerName: '核心买方有限公司' }],
  };
  return submitContract(token, body);
}

/**
 * A contract's body saved, its plan and dues saved as proposed, and submitted for approval: the
 * steps of the contract editor through the API. Answers the contract's code and its dues.
 */
export async function submitContract(
  token: string,
  body: Record<string, unknown>,
): Promise<{ bizCode: string; dues: { kind: DueKind; amount: string }[] }> {
  const saved = await data<{ bizCode: string; version: number }>(CONTRACT_PATHS.infoSave, token, body);
  const plan = await data<{ version: number }>(CONTRACT_PATHS.schemeSave, token, {
    contBizCode: saved.bizCode,
    version: saved.version,
  });
  const dues = await data<{ kind: DueKind; amount: string }[]>(CONTRACT_PATHS.due, token, undefined, {
    contBizCode: saved.bizCode,
  });
  const withDues = await data<{ version: number }>(CONTRACT_PATHS.dueSave, token, {
    contBizCode: saved.bizCode,
    version: plan.version,
    items: dues,
  });
  await data(CONTRACT_PATHS.infoSave, token, {
    ...body,
    bizCode: saved.bizCode,
    version: withDues.version,
    submit: true,
  });
  return { bizCode: saved.bizCode, dues };
}

/** Today in Asia/Shanghai (the server's business date). */
export function today(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date());
}

const kycPdf = '%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n';

/** Uploads a small PDF as `token`'s user (multipart carries only the session) and answers its token. */
async function uploadPdf(token: string, name: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([kycPdf], { type: 'application/pdf' }), name);
  const res = await fetch(`${base}/api${FILE_PATHS.upload}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const json = (await res.json()) as { status: number; msg: string; data: { fileToken: string } };
  if (json.status !== 200) throw new Error(`upload: ${json.status} ${json.msg}`);
  return json.data.fileToken;
}

/**
 * 客户准入 through the API (docs/admission.md): a customer entered in a test may hold a credit or a
 * contract only once admitted. `token`'s user raises the 准入单 with four KYC files on the customer's
 * first account (one is added when it has none), a second administrator approves it.
 */
export async function admitCustomer(token: string, compCode: string): Promise<void> {
  const accounts = await data<ListPage<BankAccountView>>(BANK_PATHS.list, token, {
    ownerType: 'customer',
    ownerCode: compCode,
    pageNum: 1,
    pageSize: 10,
  });
  const bankBizCode =
    accounts.list[0]?.bizCode ??
    (
      await data<{ bizCode: string }>(BANK_PATHS.save, token, {
        ownerType: 'customer',
        ownerCode: compCode,
        bankCode: '102',
        branchName: '营业部',
        accountName: '准入账户',
        accountNo: `6222${String(Date.now()).slice(-10)}${String(Math.floor(Math.random() * 1000)).padStart(3, '0')}`,
        purpose: 'collect',
      })
    ).bizCode;
  const saved = await data<{ bizCode: string }>(ADMISSION_PATHS.save, token, {
    compCode,
    legalIdNo: '11010519491231002X',
    controllerName: '测试实际控制人',
    bankBizCode,
    licenseFile: await uploadPdf(token, '营业执照.pdf'),
    legalIdFile: await uploadPdf(token, '法定代表人身份证件.pdf'),
    controllerFile: await uploadPdf(token, '受益所有人证明.pdf'),
    bankProofFile: await uploadPdf(token, '银行账户证明.pdf'),
    submit: true,
  });
  const checker = await addChecker(token);
  const session = await publicCall<{ accessToken: string }>(
    '/admin/portal/api/login/user/mobileNumberLogin',
    { userName: checker.userName, passWord: checker.password, userType: '2' },
  );
  await data(ADMISSION_PATHS.audit, session.accessToken, {}, { bizCode: saved.bizCode });
}
