import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { COMPANY_PATHS, type CompanyAdd } from '@portal/contract/company';
import { PERMISSION_PATHS, type RoleView } from '@portal/contract/permission';
import { createClientKey, importRsaPublicKey, sealRequest } from '@portal/contract/envelope';
import { usccCheckChar } from '@portal/contract/uscc';
import { activePage, apiCall, launchBrowser, login, newPage, shotPath, tokenOf } from './helpers';

const base = inject('baseUrl');
const password = inject('adminPassword');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const stamp = String(Date.now()).slice(-6);

async function data<T>(path: string, token: string, body?: unknown): Promise<T> {
  const r = await apiCall(base, path, token, body);
  const json = r.json as { status: number; msg: string; data: T };
  if (json.status !== 200) throw new Error(`${path}: ${json.status} ${json.msg}`);
  return json.data;
}

/** A sealed public call (login). */
async function publicCall<T>(path: string, body: unknown): Promise<T> {
  const keyRes = await fetch(`${base}/api/admin/portal/login/user/rsa/secretKey`, { method: 'POST' });
  const keyBody = (await keyRes.json()) as { data: { keyId: string; publicKey: string } };
  const key = await createClientKey(keyBody.data.keyId, await importRsaPublicKey(keyBody.data.publicKey));
  const sealed = await sealRequest(key, 'POST', `/api${path}`, body);
  const res = await fetch(`${base}/api${path}`, {
    method: 'POST',
    headers: sealed.headers,
    body: sealed.body,
  });
  const json = (await res.json()) as { status: number; msg: string; data: T };
  if (json.status !== 200) throw new Error(`${path}: ${json.status} ${json.msg}`);
  return json.data;
}

async function addCompany(token: string, name: string, n: number, parentCompCode?: string): Promise<string> {
  const first17 = `91310115MA${String(Number(stamp) * 10 + n)
    .padStart(7, '0')
    .slice(-7)}`;
  const body: CompanyAdd = {
    compName: name,
    usccCode: first17 + usccCheckChar(first17),
    compType: 'private',
    roles: ['supplier'],
    legalPerson: '测试法人',
    regCapital: '10000000.00',
    provinceCode: '310000',
    cityCode: '310100',
    areaCode: '310115',
    ...(parentCompCode ? { parentCompCode } : {}),
  };
  return (await data<{ compCode: string }>(COMPANY_PATHS.add, token, body)).compCode;
}

/** A second administrator (the checker of four-eyes approvals), with its first password changed. */
async function addChecker(token: string): Promise<{ userName: string; password: string }> {
  const roles = await data<{ list: RoleView[] }>(PERMISSION_PATHS.roleList, token, {
    pageNum: 1,
    pageSize: 100,
  });
  const adminRole = roles.list.find((r) => r.code === 'admin')!;
  const orgs = await data<{ deptBizCode: string }[]>(PERMISSION_PATHS.orgTree, token, {});
  const userName = `checker${stamp}`;
  const temp = await data<{ password: string }>(PERMISSION_PATHS.userAdd, token, {
    userName,
    realName: '复核员',
    deptCode: orgs[0]!.deptBizCode,
    roleCodes: [adminRole.bizCode],
  });
  const session = await publicCall<{ accessToken: string }>(
    '/admin/portal/api/login/user/mobileNumberLogin',
    {
      userName,
      passWord: temp.password,
      userType: '2',
    },
  );
  const newPassword = 'Checker@2026x';
  await data('/admin/portal/user/password/update', session.accessToken, {
    pwd: temp.password,
    newPwd: newPassword,
    reNewPwd: newPassword,
  });
  return { userName, password: newPassword };
}

async function loginAs(page: Page, userName: string, pwd: string): Promise<void> {
  await page.goto(`${base}/login`);
  await page.getByPlaceholder('用户名').fill(userName);
  await page.getByPlaceholder('密码').fill(pwd);
  await page.getByRole('button', { name: /登\s*录/ }).click();
  await page.waitForURL((url) => url.pathname !== '/login', { timeout: 20_000 });
}

async function confirm(page: Page): Promise<void> {
  await page
    .locator('.ant-modal-confirm')
    .getByRole('button', { name: /确\s*定/ })
    .click();
}

async function pick(page: Page, title: string): Promise<void> {
  await page
    .locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${title}"]`)
    .first()
    .click();
}

/** Opens a screen and waits for it; one reload if the shell has not rendered it in time. */
async function openScreen(page: Page, url: string, testId: string) {
  await page.goto(url);
  const screen = page.getByTestId(testId).first();
  try {
    await screen.waitFor({ timeout: 10_000 });
  } catch {
    await page.screenshot({ path: shotPath(`credit-slow-${testId}.png`) });
    await page.reload();
    await screen.waitFor({ timeout: 20_000 });
  }
  return screen;
}

/** Clicks a tab until it is the selected one (a click during a re-render can be lost). */
async function clickTab(scope: Locator, name: string): Promise<void> {
  const tab = scope.getByRole('tab', { name, exact: true }).first();
  await expect
    .poll(
      async () => {
        if ((await tab.getAttribute('aria-selected')) !== 'true') await tab.click();
        return tab.getAttribute('aria-selected');
      },
      { timeout: 15_000 },
    )
    .toBe('true');
}

/** Opens a view page as the checker and approves it in the audit view's 流程审批 tab. */
async function approve(page: Page, path: string, bizCode: string, testId: string): Promise<void> {
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

describe('credit screens', () => {
  it('creates and approves a credit with a factoring sub-limit, distributes part, raises it, and the chart follows', async () => {
    const maker = await newPage(browser);
    await login(maker.page, base, password);
    const token = (await tokenOf(maker.context))!;
    const groupName = `授信集团${stamp}`;
    const memberName = `授信成员${stamp}`;
    const group = await addCompany(token, groupName, 1);
    await addCompany(token, memberName, 2, group);
    const checkerUser = await addChecker(token);
    const checker = await newPage(browser);
    await loginAs(checker.page, checkerUser.userName, checkerUser.password);

    const page = maker.page;
    try {
      await scenario(page, checker.page, { groupName, memberName, group });
    } catch (err) {
      await page.screenshot({ path: shotPath('credit-failed-maker.png') });
      await checker.page.screenshot({ path: shotPath('credit-failed-checker.png') });
      console.info('maker url', page.url(), 'checker url', checker.page.url());
      throw err;
    }
    await maker.context.close();
    await checker.context.close();
  }, 150_000);
});

async function scenario(
  page: Page,
  checkerPage: Page,
  ids: { groupName: string; memberName: string; group: string },
) {
  const { groupName, memberName, group } = ids;
  const checker = { page: checkerPage };
  {
    // 1. The platform credit, in the editor's first tab.
    const editor = await openScreen(page, `${base}/factoring/credit/info-editor`, 'credit-editor');
    await editor.getByLabel('客户').fill(groupName);
    await pick(page, groupName);
    await editor.getByLabel('授信总额度').fill('1000000.00');
    await editor.getByLabel('起始日').fill('2020-01-01');
    await editor.getByLabel('到期日').fill('2099-12-31');
    await editor
      .getByRole('button', { name: /保\s*存/ })
      .first()
      .click();
    await expect
      .poll(() => page.locator('.ant-modal-confirm').textContent())
      .toContain('此操作将保存平台授信！ 是否继续？');
    await confirm(page);
    await page.waitForURL(/info-editor\?bizCode=\d{12}/);
    const bizCode = new URL(page.url()).searchParams.get('bizCode')!;
    await expect.poll(() => editor.textContent()).toContain(`授信编辑 ${bizCode}`);

    // 2. A factoring sub-limit in the 保理授信 tab.
    await clickTab(editor, '保理授信');
    const ft = editor.getByTestId('ft-editor');
    await ft.getByRole('button', { name: /添\s*加/ }).click();
    await ft.getByLabel('债务人名称').fill('核心买方有限公司');
    await ft.getByLabel('保理子额度').fill('600000.00');
    await ft.getByLabel('融资比例').fill('0.8');
    await ft.getByLabel('追索权').click();
    await pick(page, '有追索');
    await ft.getByRole('button', { name: /保\s*存/ }).click();
    await confirm(page);
    await expect.poll(() => page.locator('.ant-message').textContent()).toContain('操作成功');

    // 3. Submit from the first tab; the checker approves.
    await clickTab(editor, '平台授信');
    await editor.getByRole('button', { name: /提交审批/ }).click();
    await confirm(page);
    await page.waitForURL(/info-view\?bizCode=/);
    await approve(checker.page, '/factoring/credit/info-view', bizCode, 'credit-view');
    await clickTab(checker.page.getByTestId('credit-view'), '业务单据');
    await clickTab(checker.page.getByTestId('credit-view'), '保理授信');
    await expect.poll(() => checker.page.getByTestId('credit-view').textContent()).toContain('600,000.00');

    // 4. Distribute 300,000.00 to the group member; approve.
    const dist = await openScreen(page, `${base}/factoring/credit/distribution-editor`, 'dist-editor');
    await dist.getByLabel('授信').fill(bizCode);
    await pick(page, `${bizCode} ${groupName}`);
    await expect.poll(() => dist.textContent()).toContain('可分配');
    await dist.getByLabel('成员客户').fill(memberName);
    await pick(page, memberName);
    await dist.getByLabel('分配额度').fill('300000.00');
    await dist.getByRole('button', { name: /提交审批/ }).click();
    await confirm(page);
    await page.waitForURL(/distribution-view\?bizCode=/);
    const distCode = new URL(page.url()).searchParams.get('bizCode')!;
    await approve(checker.page, '/factoring/credit/distribution-view', distCode, 'dist-view');

    // The chart: the group keeps 700,000.00, the member has 300,000.00.
    await openScreen(page, `${base}/factoring/credit/info`, 'credit-list');
    const list = activePage(page, '/factoring/credit/info');
    const groupRow = list.locator(`[data-testid="utilisation-table"] tr[data-cust="${group}"]`);
    await expect.poll(() => groupRow.textContent(), { timeout: 10_000 }).toContain('700,000.00');
    expect(await list.getByTestId('utilisation-table').textContent()).toContain(memberName);

    // 5. Raise the platform line to 1,500,000.00; approve; the chart moves.
    const chg = await openScreen(page, `${base}/factoring/credit/change-editor`, 'chg-editor');
    await chg.getByLabel('授信').fill(bizCode);
    await pick(page, `${bizCode} ${groupName}`);
    await chg.getByLabel('变更后额度').fill('1500000.00');
    await chg.getByLabel('变更原因').fill('经营规模扩大');
    await chg.getByRole('button', { name: /提交审批/ }).click();
    await confirm(page);
    await page.waitForURL(/change-view\?bizCode=/);
    const chgCode = new URL(page.url()).searchParams.get('bizCode')!;
    await approve(checker.page, '/factoring/credit/change-view', chgCode, 'chg-view');

    await openScreen(page, `${base}/factoring/credit/info`, 'credit-list');
    await list
      .getByTestId('utilisation-chart')
      .getByRole('button', { name: /刷\s*新/ })
      .click();
    await expect.poll(() => groupRow.textContent(), { timeout: 10_000 }).toContain('1,200,000.00');
    await page.screenshot({ path: shotPath('credit-utilisation.png') });

    // History of the credit: creation of both lines, the reservation and the limit change.
    const view = await openScreen(
      page,
      `${base}/factoring/credit/info-view?bizCode=${bizCode}`,
      'credit-view',
    );
    await clickTab(view, '审批记录');
    await expect.poll(() => view.textContent()).toContain('复核员');
    await clickTab(view, '业务单据');
    await clickTab(view, '授信历史');
    const history = view.getByTestId('credit-history');
    await expect.poll(() => history.textContent()).toContain('额度调整');
    expect(await history.textContent()).toContain('分配预留');
    await page.screenshot({ path: shotPath('credit-history.png') });
  }
}
