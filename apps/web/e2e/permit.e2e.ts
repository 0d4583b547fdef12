import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Page as ListPage } from '@portal/contract/api';
import { COMPANY_PATHS } from '@portal/contract/company';
import { CRM_PATHS } from '@portal/contract/crm';
import { PERMISSION_PATHS } from '@portal/contract/permission';
import { PERMIT_PATHS } from '@portal/contract/permit';
import { usccCheckChar } from '@portal/contract/uscc';
import { confirm, data, publicCall } from './flows';
import { launchBrowser, newPage, shotPath, base, signIn } from './helpers';

const password = inject('adminPassword');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

interface Fixture {
  compName: string;
  userName: string;
  /** The customer's dw admission and the user's ec admission. */
  dwCust: string;
  ecUser: string;
}

/**
 * A customer admitted to ec, dw and fc, and one of its users admitted to ec and dw, all through the
 * API: a new customer, and one demo enterprise user moved to it by registration check (CRM).
 */
async function fixture(token: string): Promise<Fixture> {
  const stamp = String(Date.now()).slice(-7);
  const compName = `准入浏览器测试有限公司${stamp}`;
  const first17 = `91370100MA${stamp}`;
  const { compCode } = await data<{ compCode: string }>(COMPANY_PATHS.add, token, {
    compName,
    usccCode: first17 + usccCheckChar(first17),
    compType: 'private',
    roles: ['supplier'],
    legalPerson: '赵六',
    regCapital: '1000000.00',
    provinceCode: '370000',
  });
  const userName = `准入用户${stamp.slice(-3)}`;
  const { userCode } = await data<{ userCode: string }>(CRM_PATHS.employeeSave, token, {
    compCode,
    userName,
    mobile: `137${stamp.padStart(8, '0')}`,
  });
  await data(CRM_PATHS.firmAudit, token, { comment: '通过' }, { userCode });

  const codes: Record<string, string> = {};
  for (const area of ['ec', 'dw', 'fc'] as const) {
    const roles = { ec: ['holder'], dw: ['financier'], fc: ['member'] }[area];
    const { bizCode } = await data<{ bizCode: string }>(PERMIT_PATHS.custSave, token, {
      area,
      compCode,
      roles,
    });
    await data(PERMIT_PATHS.custOpen, token, { area, version: 0 }, { bizCode });
    codes[`cust-${area}`] = bizCode;
  }
  for (const area of ['ec', 'dw'] as const) {
    const { bizCode } = await data<{ bizCode: string }>(PERMIT_PATHS.userSave, token, {
      area,
      userCode,
      roles: ['operator'],
    });
    await data(PERMIT_PATHS.userOpen, token, { area, version: 0 }, { bizCode });
    codes[`user-${area}`] = bizCode;
  }
  return { compName, userName, dwCust: codes['cust-dw']!, ecUser: codes['user-ec']! };
}

/** Opens the record of the row holding `text` with 查看, checks the judge, and comes back with 返回. */
async function viewAndBack(
  page: Page,
  listPath: string,
  listTestId: string,
  text: string,
  judge: string | null,
  section: string,
) {
  const list = page.getByTestId(listTestId);
  await list.waitFor();
  const row = list.locator('.ant-table-row', { hasText: text }).first();
  await row.waitFor();
  await row.getByRole('button', { name: /查\s*看/ }).click();
  // The record opens under its own section (/ec, /dw, /fc), like the list it came from.
  const prefix = listPath.split('/').slice(0, 2).join('/');
  await page.waitForURL(
    (u) => u.pathname.startsWith(`${prefix}/`) && u.pathname.endsWith('-editor/basic-info'),
  );
  // …and the page says so: its sidebar is headed by that section, not by 凭证.
  await expect
    .poll(() => page.getByTestId('website-sidebar').locator('.website-sidebar__title').textContent())
    .toBe(section);
  expect(new URL(page.url()).searchParams.get('judge')).toBe(judge);
  const record = page.getByTestId('permit-record');
  await expect.poll(() => record.textContent(), { timeout: 15_000 }).toContain(text);
  await expect.poll(() => record.textContent()).toContain('已开通');
  await page
    .getByTestId('website-tabs')
    .getByRole('button', { name: /返\s*回/ })
    .click();
  await page.waitForURL((u) => u.pathname === listPath);
  await page.getByTestId(listTestId).waitFor();
}

/**
 * A staff user whose only role grants the 山高E融 admission codes (dw-permit-comp and the dw user
 * admissions dw-permit-personal, with their buttons), its first password changed.
 */
async function addDwOperator(token: string): Promise<{ userName: string; password: string }> {
  const stamp = String(Date.now()).slice(-6);
  const { bizCode: role } = await data<{ bizCode: string }>(PERMISSION_PATHS.roleAdd, token, {
    name: `山高E融准入${stamp}`,
    code: `dw-permit-${stamp}`,
  });
  const actions = ['add', 'save', 'open', 'disable', 'setRole'];
  await data(PERMISSION_PATHS.roleCfgSave, token, {
    bizCode: role,
    version: 0,
    menuCodes: ['dw-permit-comp', 'dw-permit-personal', ...actions.map((a) => `dw-permit-personal:${a}`)],
  });
  const orgs = await data<{ deptBizCode: string }[]>(PERMISSION_PATHS.orgTree, token, {});
  const userName = `dwop${stamp}`;
  const temp = await data<{ password: string }>(PERMISSION_PATHS.userAdd, token, {
    userName,
    realName: '山高E融经办',
    deptCode: orgs[0]!.deptBizCode,
    roleCodes: [role],
  });
  const session = await publicCall<{ accessToken: string }>(
    '/admin/portal/api/login/user/mobileNumberLogin',
    { userName, passWord: temp.password, userType: '2' },
  );
  const password = 'DwOper@2026x';
  await data('/admin/portal/user/password/update', session.accessToken, {
    pwd: temp.password,
    newPwd: password,
    reNewPwd: password,
  });
  return { userName, password };
}

describe('admission screens (准入)', () => {
  it('opens a record from each permit list and comes back through 返回 by its judge', async () => {
    const { context, page } = await newPage(browser);
    const token = await signIn(context, password);
    const f = await fixture(token);

    await page.goto(`${base}/ec/permit/comp`);
    await viewAndBack(page, '/ec/permit/comp', 'permit-list-cust-ec', f.compName, 'comp', '凭证');

    await page.goto(`${base}/ec/permit/personal`);
    await viewAndBack(page, '/ec/permit/personal', 'permit-list-user-ec', f.userName, 'personal', '凭证');

    await page.goto(`${base}/dw/permit/comp`);
    await viewAndBack(page, '/dw/permit/comp', 'permit-list-cust-dw', f.compName, 'dwComp', '山高E融');

    // dwPersonal: the hidden /dw/permit/personal, reached from the dw customer list.
    await page.getByRole('button', { name: '企业用户准入' }).click();
    await page.waitForURL((u) => u.pathname === '/dw/permit/personal');
    await viewAndBack(
      page,
      '/dw/permit/personal',
      'permit-list-user-dw',
      f.userName,
      'dwPersonal',
      '山高E融',
    );

    // Without a judge (银企链) 返回 emits the back event and the browser goes back.
    await page.goto(`${base}/fc/fc`);
    await viewAndBack(page, '/fc/fc', 'permit-list-cust-fc', f.compName, null, '银企链');
    await page.screenshot({ path: shotPath('permit-fc-list.png') });
    await context.close();
  });

  it('changes the roles of an open admission and lists the change under 企业角色变更', async () => {
    // Wide enough for every column of the change list in its row (narrower, the history columns
    // fold into the row's expansion: docs/architecture.md "Lists fit their box", fit.e2e.ts).
    const { context, page } = await newPage(browser, 2400, 1000);
    const token = await signIn(context, password);
    const f = await fixture(token);

    await page.goto(`${base}/ec/permit/comp`);
    const list = page.getByTestId('permit-list-cust-ec');
    const row = list.locator('.ant-table-row', { hasText: f.compName }).first();
    await row.getByRole('button', { name: /查\s*看/ }).click();
    const record = page.getByTestId('permit-record');
    await expect.poll(() => record.textContent(), { timeout: 15_000 }).toContain(f.compName);
    await record.getByRole('checkbox', { name: '开立方' }).check();
    await record.getByLabel('变更原因').fill('浏览器测试变更');
    await record.getByRole('button', { name: '保存角色' }).click();
    await confirm(page);
    const history = record.locator('.ant-table-row', { hasText: '浏览器测试变更' });
    await history.waitFor();
    expect(await history.textContent()).toContain('开立方、持有方');
    await page.screenshot({ path: shotPath('permit-record.png') });

    const changes = await data<ListPage<{ compName: string }>>(PERMIT_PATHS.roleChgList, token, {
      area: 'ec',
      subject: 'cust',
      compName: f.compName,
    });
    expect(changes.total).toBe(2);

    // Changes of other areas and of the company's users, which this screen does not list.
    const setRole = async (path: string, view: string, bizCode: string, area: string, roles: string[]) => {
      const { version } = await data<{ version: number }>(view, token, undefined, { bizCode });
      await data(path, token, { bizCode, version, area, roles, reason: '别处的变更' });
    };
    await setRole(PERMIT_PATHS.setCustRole, PERMIT_PATHS.custView, f.dwCust, 'dw', ['financier', 'core']);
    await setRole(PERMIT_PATHS.setUserRole, PERMIT_PATHS.userView, f.ecUser, 'ec', ['operator', 'reviewer']);

    await page.goto(`${base}/ec/permit/comp-role-chg`);
    const chgList = page.getByTestId('permit-role-chg-list');
    await chgList.getByLabel('企业名称').fill(f.compName);
    await chgList.getByRole('button', { name: /查\s*询/ }).click();
    const chgRow = chgList.locator('.ant-table-row', { hasText: '浏览器测试变更' }).first();
    await chgRow.waitFor();
    // The customer's own ec changes only (its opening and the change above), roles by name.
    const rows = chgList.locator('.ant-table-tbody .ant-table-row');
    await expect.poll(() => rows.count()).toBe(2);
    for (const text of await rows.allTextContents()) {
      expect(text).toContain('凭证');
      expect(text).not.toMatch(/山高E融|银企链|别处的变更/);
      expect(text).not.toMatch(/holder|issuer|operator|core|financier/);
    }
    expect(await chgRow.textContent()).toContain('开立方、持有方');
    await chgRow.getByRole('button', { name: /查\s*看/ }).click();
    const view = page.getByTestId('permit-role-chg-view');
    await expect.poll(() => view.textContent(), { timeout: 15_000 }).toContain('开立方、持有方');
    expect(await view.textContent()).toContain(f.compName);
    await context.close();
  });

  it('lets a 山高E融-only operator see and act on /dw/permit/personal', async () => {
    const { context } = await newPage(browser);
    const token = await signIn(context, password);
    const f = await fixture(token);
    const op = await addDwOperator(token);
    await context.close();

    const dw = await newPage(browser);
    await signIn(dw.context, op.password, op.userName);
    await dw.page.goto(`${base}/dw/permit/personal`);
    const list = dw.page.getByTestId('permit-list-user-dw');
    await list.waitFor();
    const row = list.locator('.ant-table-row', { hasText: f.userName }).first();
    await row.waitFor({ timeout: 15_000 });
    // Its buttons are those of dw-permit-personal: the user admission is open, so 停用 is offered.
    const disable = row.getByRole('button', { name: /停\s*用/ });
    await disable.waitFor();
    expect(await list.getByRole('button', { name: /新\s*增/ }).count()).toBeGreaterThan(0);
    await disable.click();
    await confirm(dw.page);
    await row.getByRole('button', { name: /重新开通/ }).waitFor({ timeout: 15_000 });
    await dw.page.screenshot({ path: shotPath('permit-dw-personal-operator.png') });
    await dw.context.close();
  });
});
