import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Page as ListPageData } from '@portal/contract/api';
import {
  CRM_PATHS,
  type AddView,
  type BankUserList,
  type ApprovalRow,
  type BillView,
  type CompRoleRow,
  type CompUserRow,
  type DesView,
  type RelationRow,
} from '@portal/contract/crm';
import { BANK_PATHS, type BankAccountView } from '@portal/contract/bank';
import type { FileInfo } from '@portal/contract/files';
import { usccCheckChar } from '@portal/contract/uscc';
import { confirm, data, pick } from './flows';
import Decimal from 'decimal.js';
import { COMPANY_EXPORT_FILE_NAME } from '@portal/contract/company';
import {
  animationsDone,
  downloadXlsx,
  launchBrowser,
  newPage,
  searchField,
  shotPath,
  base,
  signIn,
} from './helpers';

const password = inject('adminPassword');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

/** Clicks a 查看详情 tab of the website layout and waits for its route. */
async function openTab(page: Page, title: string, path: string, testId: string) {
  await page.getByTestId('website-tabs').getByRole('menuitem', { name: title, exact: true }).click();
  await page.waitForURL((u) => u.pathname === path);
  const tab = page.getByTestId(testId);
  await tab.waitFor();
  return tab;
}

const modal = (page: Page) => page.locator('.ant-modal-wrap:visible .ant-modal');

async function saveModal(page: Page) {
  const m = modal(page);
  await m.getByRole('button', { name: /保\s*存/ }).click();
  await m.waitFor({ state: 'hidden' });
}

describe('CRM corporation', () => {
  it('creates a customer and walks every edit tab, saving each; the view shows it with 审核信息', async () => {
    const { context, page } = await newPage(browser);
    const token = await signIn(context, password);
    const q = (compCode: string) => ({ compCode });

    // 企业列表 -> 新增 -> 基本信息
    await page.goto(`${base}/crm/corporation/list`);
    await page
      .getByTestId('crm-corp-list')
      .getByRole('button', { name: /新\s*增/ })
      .click();
    await page.waitForURL((u) => u.pathname === '/crm/corporation/edit/corporation');
    const name = `浏览器客户管理有限公司${Date.now() % 100000}`;
    const first17 = `91310115MD${String(Date.now()).slice(-7)}`;
    const basic = page.getByTestId('crm-tab-corporation');
    await basic.getByLabel('企业名称').fill(name);
    await basic.getByLabel('统一社会信用代码').fill(first17 + usccCheckChar(first17));
    await basic.getByLabel('法定代表人').fill('测试法人');
    await basic.getByLabel('注册资本（元）').fill('8000000.00');
    await basic.getByLabel('客户角色').click();
    await pick(page, '核心企业');
    await page.keyboard.press('Escape');
    await basic.getByLabel('所在地区').click();
    await animationsDone(page);
    await page.locator('.ant-cascader-dropdown:visible .ant-cascader-menu-item[title="上海市"]').click();
    await page.keyboard.press('Escape');
    await basic.getByRole('button', { name: /保\s*存/ }).click();
    await page.waitForURL((u) => u.searchParams.has('compCode'), { timeout: 15_000 });
    const compCode = new URL(page.url()).searchParams.get('compCode')!;
    expect(compCode).toMatch(/^\d{12}$/);
    // The form is shown again once the saved customer is loaded (its name in the title).
    await expect.poll(() => basic.locator('.ant-card-head').textContent()).toContain(name);
    // Edit and save again.
    await basic.getByLabel('联系人').fill('李四');
    await basic.getByRole('button', { name: /保\s*存/ }).click();
    await expect
      .poll(
        async () =>
          (
            await data<{ contactName: string }>(
              '/admin/portal/crm/company/comp/view',
              token,
              undefined,
              q(compCode),
            )
          ).contactName,
      )
      .toBe('李四');

    // 企业用户
    const emp = await openTab(page, '企业用户', '/crm/corporation/edit/employee', 'crm-tab-employee');
    await emp.getByRole('button', { name: /新增用户/ }).click();
    const mobile = `1880${String(Date.now()).slice(-7)}`;
    await modal(page).getByLabel('姓名').fill('浏览器用户');
    await modal(page).getByLabel('手机号').fill(mobile);
    await modal(page).getByLabel('岗位').fill('经办');
    await saveModal(page);
    await expect.poll(() => emp.locator('.ant-table-tbody').textContent()).toContain('浏览器用户');

    // corporationAdd (股东及实际控制人)
    const add = await openTab(
      page,
      '股东及实际控制人',
      '/crm/corporation/edit/corporationAdd',
      'crm-tab-corporationAdd',
    );
    await add.getByLabel('实际控制人', { exact: true }).fill('测试法人');
    await add.getByRole('button', { name: /添加股东/ }).click();
    const holder = add.getByTestId('shareholder-row').first();
    await holder.getByLabel('股东名称').fill('测试法人');
    await holder.getByLabel('持股比例（%）').fill('100');
    await add.getByRole('button', { name: /保\s*存/ }).click();
    await expect
      .poll(
        async () =>
          (await data<AddView | null>(CRM_PATHS.addView, token, undefined, q(compCode)))?.shareholders.length,
      )
      .toBe(1);

    // 企业角色: a second, disabled employee is not offered as a role member.
    const offMobile = `1881${String(Date.now()).slice(-7)}`;
    const { userCode: offUser } = await data<{ userCode: string }>(CRM_PATHS.employeeSave, token, {
      compCode,
      userName: '停用的员工',
      mobile: offMobile,
    });
    await data(CRM_PATHS.employeeDisable, token, undefined, { userCode: offUser });
    const role = await openTab(page, '企业角色', '/crm/corporation/edit/role', 'crm-tab-role');
    await role.getByRole('button', { name: /新增角色/ }).click();
    await modal(page).getByLabel('角色名称').fill('经办人');
    await modal(page).getByLabel('角色成员').click();
    const offered = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
    // The options are read until they settle: once a read right after the first option showed found
    // no open dropdown (it was rendering again), so one read is not a fact about the options.
    await expect.poll(() => offered.allTextContents()).toEqual([`浏览器用户 ${mobile}`]);
    await pick(page, `浏览器用户 ${mobile}`);
    await page.keyboard.press('Escape');
    await saveModal(page);
    await expect.poll(() => role.locator('.ant-table-tbody').textContent()).toContain('浏览器用户');
    const roles = await data<ListPageData<CompRoleRow>>(CRM_PATHS.roleList, token, { compCode });
    expect(roles.list[0]).toMatchObject({ roleName: '经办人' });

    // 账户信息
    const acc = await openTab(page, '账户信息', '/crm/corporation/edit/account', 'crm-tab-account');
    await acc.getByRole('button', { name: /新增账户/ }).click();
    await modal(page).getByLabel('开户银行').click();
    await page.keyboard.type('招商');
    await pick(page, '招商银行（308）');
    await modal(page).getByLabel('开户网点').fill('上海分行营业部');
    await modal(page).getByLabel('账户名称').fill(name);
    await modal(page)
      .getByLabel('银行账号')
      .fill(`62148${String(Date.now()).slice(-11)}`);
    await saveModal(page);
    await expect.poll(() => acc.locator('.ant-table-tbody').textContent()).toContain('招商银行');
    const accounts = await data<ListPageData<BankAccountView>>(CRM_PATHS.accountList, token, { compCode });
    expect(accounts.list[0]).toMatchObject({ isDefault: true, ownerCode: compCode });

    // 开票信息
    const bill = await openTab(page, '开票信息', '/crm/corporation/edit/bill', 'crm-tab-bill');
    await bill.getByLabel('发票抬头').fill(name);
    await bill.getByLabel('纳税人识别号').fill(first17 + usccCheckChar(first17));
    await bill.getByLabel('开户银行').fill('招商银行上海分行');
    await bill.getByLabel('开票银行账号').fill('6214830000009999');
    await bill.getByRole('button', { name: /保\s*存/ }).click();
    await expect
      .poll(
        async () =>
          (await data<BillView | null>(CRM_PATHS.billView, token, undefined, q(compCode)))?.invoiceTitle,
      )
      .toBe(name);
    // A second save sends the version it read.
    await bill.getByLabel('注册电话').fill('021-66668888');
    await bill.getByRole('button', { name: /保\s*存/ }).click();
    await expect
      .poll(
        async () => (await data<BillView | null>(CRM_PATHS.billView, token, undefined, q(compCode)))?.version,
      )
      .toBe(1);

    // 企业介绍
    const des = await openTab(page, '企业介绍', '/crm/corporation/edit/des', 'crm-tab-des');
    await des.getByLabel('企业简介').fill('浏览器测试写入的企业简介。');
    await des.getByRole('button', { name: /保\s*存/ }).click();
    await expect
      .poll(async () => (await data<DesView | null>(CRM_PATHS.desView, token, undefined, q(compCode)))?.intro)
      .toBe('浏览器测试写入的企业简介。');

    // 资料文件
    const file = await openTab(page, '资料文件', '/crm/corporation/edit/file', 'crm-tab-file');
    await file.locator('[data-testid="file-list"] input[type="file"]').setInputFiles({
      name: '营业执照.pdf',
      mimeType: 'application/pdf',
      buffer: PDF,
    });
    await file.getByTestId('file-item').waitFor();
    await file.getByRole('button', { name: /保\s*存/ }).click();
    await expect
      .poll(async () => (await data<FileInfo[]>(CRM_PATHS.fileList, token, undefined, q(compCode))).length)
      .toBe(1);

    // 查看: read-only tabs, and 审核信息 with the history written above.
    await page.goto(`${base}/crm/corporation/view/bill?compCode=${compCode}`);
    const viewBill = page.getByTestId('crm-tab-bill');
    await expect.poll(() => viewBill.getByLabel('发票抬头').inputValue()).toBe(name);
    expect(await viewBill.getByLabel('发票抬头').isDisabled()).toBe(true);
    expect(await viewBill.getByRole('button', { name: /保\s*存/ }).count()).toBe(0);
    const approval = await openTab(page, '审核信息', '/crm/corporation/view/approval', 'crm-tab-approval');
    await expect.poll(() => approval.locator('.ant-table-tbody').textContent()).toContain('开票信息');
    // A record opens into its fields in words, before and after: the contact edited above, and the
    // attached file by its name, never its token or the raw audit record.
    const [attached] = await data<FileInfo[]>(CRM_PATHS.fileList, token, undefined, q(compCode));
    const rowOf = (text: string) => approval.locator('tr.ant-table-row', { hasText: text }).first();
    await rowOf('联系人').locator('.ant-table-row-expand-icon').click();
    const contactChange = approval.locator('.ant-table-expanded-row', { hasText: '联系人' }).first();
    await contactChange.waitFor();
    expect(await contactChange.locator('thead').textContent()).toMatch(/修改前.*修改后/);
    expect(await contactChange.locator('tr', { hasText: '联系人' }).last().textContent()).toContain('李四');
    await rowOf('资料文件').locator('.ant-table-row-expand-icon').click();
    const fileChange = approval.locator('.ant-table-expanded-row', { hasText: '营业执照.pdf' }).first();
    await fileChange.waitFor();
    const shown = (await approval.textContent()) ?? '';
    expect(shown).not.toContain(attached!.fileToken);
    expect(shown).not.toMatch(/[{}"]/);
    const history = await data<ListPageData<ApprovalRow>>(CRM_PATHS.approvalList, token, { compCode });
    expect(history.total).toBeGreaterThanOrEqual(8);
    await page.screenshot({ path: shotPath('crm-view-approval.png') });

    // 企业用户审核: the new registration is pending; 通过 it.
    const users = await data<ListPageData<CompUserRow>>(CRM_PATHS.employeeList, token, { compCode });
    const userCode = users.list[0]!.userCode;
    await page.goto(`${base}/crm/frim/frimcheck/base?userCode=${userCode}`);
    const check = page.getByTestId('crm-firm-check');
    await expect.poll(() => check.getByTestId('reg-state').textContent()).toBe('待审核');
    await check.getByLabel('审核意见').fill('资料齐全');
    await check.getByRole('button', { name: /通\s*过/ }).click();
    await confirm(page);
    await expect.poll(() => check.getByTestId('reg-state').textContent()).toBe('已通过');
    await context.close();
  });

  it('企业列表 导出: the customers the search shows, registered capital as numbers Excel sums', async () => {
    const { context, page } = await newPage(browser);
    try {
      const token = await signIn(context, password);
      const customers = await data<{ code: string; label: string }[]>(
        '/admin/portal/crm/company/comp/comp/list/dict',
        token,
        {},
      );
      const name = customers[0]!.label;
      await page.goto(`${base}/crm/corporation/list`);
      const list = page.getByTestId('crm-corp-list');
      await searchField(list, '企业名称').fill(name);
      await list.getByRole('button', { name: /查\s*询/ }).click();
      await list.locator('.ant-table-row', { hasText: name }).first().waitFor();
      const rows = await downloadXlsx(
        page,
        () => list.getByRole('button', { name: /导\s*出/ }).click(),
        COMPANY_EXPORT_FILE_NAME,
      );
      const capital = rows[0]!.indexOf('注册资本（元）');
      const body = rows.slice(1, -1);
      expect(body.length).toBeGreaterThan(0);
      for (const row of body) {
        expect(String(row[1])).toContain(name);
        expect(typeof row[capital]).toBe('number');
      }
      const sum = body.reduce<Decimal>((t, row) => t.plus(String(row[capital])), new Decimal(0));
      const total = rows[rows.length - 1]!;
      expect([total[0], total[1]]).toEqual(['合计', `${body.length}户`]);
      expect(new Decimal(String(total[capital])).toFixed(2)).toBe(sum.toFixed(2));
    } finally {
      await context.close();
    }
  });

  it('maintains departments and relations, and draws the relation graph', async () => {
    const { context, page } = await newPage(browser);
    const token = await signIn(context, password);
    const customers = await data<{ code: string; label: string }[]>(
      '/admin/portal/crm/company/comp/comp/list/dict',
      token,
      {},
    );
    const [a, b] = [customers[0]!, customers[customers.length - 1]!];

    // 组织架构
    await page.goto(`${base}/crm/corporation/org`);
    const org = page.getByTestId('crm-org');
    await org.getByLabel('企业').click();
    await page.keyboard.type(a.label);
    await pick(page, a.label);
    await org.getByRole('button', { name: /新增部门/ }).click();
    const dept = `浏览器部门${Date.now() % 10000}`;
    await modal(page).getByLabel('部门名称').fill(dept);
    await saveModal(page);
    await expect.poll(() => org.locator('.ant-tree').textContent()).toContain(dept);
    // A department counts its own members: none yet (every department once showed all the
    // enterprise's users).
    expect(await org.locator('.ant-tree').textContent()).not.toContain(`${dept}（`);

    // 企业关系维护: a guarantee valid in the far future (no overlap with demo relations)
    await page.goto(`${base}/crm/corporation/relation`);
    const rel = page.getByTestId('crm-relation');
    await rel.getByRole('button', { name: /新增关系/ }).click();
    const m = modal(page);
    await m.getByLabel('关系类型').click();
    await pick(page, '担保关系');
    await m.getByLabel('核心企业').click();
    await page.keyboard.type(a.label);
    await pick(page, a.label);
    await m.getByLabel('关联企业').click();
    await page.keyboard.type(b.label);
    await pick(page, b.label);
    const year = 2090 + (Date.now() % 9);
    const range = m.locator('.ant-picker-range input');
    await range.first().click();
    await range.first().fill(`${year}-01-01`);
    await page.keyboard.press('Enter');
    await range.last().fill(`${year}-12-31`);
    await page.keyboard.press('Enter');
    await expect.poll(() => range.last().inputValue()).toBe(`${year}-12-31`);
    await saveModal(page);
    const list = await data<ListPageData<RelationRow>>(CRM_PATHS.relationList, token, {
      compCode: a.code,
      relType: 'guarantor',
      relState: 'future',
    });
    expect(list.list.some((r) => r.startDate === `${year}-01-01` && r.relCompCode === b.code)).toBe(true);
    await rel.getByRole('tab', { name: '关系图' }).click();
    await rel.getByTestId('relation-graph').locator('canvas').first().waitFor();
    await page.screenshot({ path: shotPath('crm-relation-graph.png') });
    await context.close();
  });

  it('edits a customer bank account and authorises its operators; checks a registration from the list', async () => {
    const { context, page } = await newPage(browser);
    const token = await signIn(context, password);
    const customers = await data<{ code: string; label: string }[]>(
      '/admin/portal/crm/company/comp/comp/list/dict',
      token,
      {},
    );
    const approved = await data<ListPageData<CompUserRow>>(CRM_PATHS.firmList, token, {
      regState: 'approved',
      state: 'enabled',
      pageSize: 100,
    });
    const owner = customers.find((c) => approved.list.some((u) => u.compCode === c.code))!;
    const operator = approved.list.find((u) => u.compCode === owner.code)!;
    const accounts = await data<ListPageData<BankAccountView>>(BANK_PATHS.list, token, {
      ownerType: 'customer',
      ownerCode: owner.code,
    });
    const account = accounts.list[0]!;

    // 银行信息管理 list -> 编辑 (basic-info)
    await page.goto(`${base}/crm/corporation/bank`);
    await page.getByTestId('crm-bank-list').waitFor();
    await page.goto(`${base}/crm/corporation/bank-editor/basic-info?bizCode=${account.bizCode}`);
    const basic = page.getByTestId('crm-bank-basic');
    await expect.poll(() => basic.getByLabel('账户名称').inputValue()).toBe(account.accountName);
    await basic.getByLabel('开户网点').fill('浏览器测试支行');
    await basic.getByRole('button', { name: /保\s*存/ }).click();
    await expect
      .poll(
        async () =>
          (await data<BankAccountView>(BANK_PATHS.view, token, undefined, { bizCode: account.bizCode }))
            .branchName,
      )
      .toBe('浏览器测试支行');

    // employee tab: authorise one approved user
    const emp = await openTab(page, '企业用户', '/crm/corporation/bank-editor/employee', 'crm-bank-employee');
    // The picker asks the server for the customer's users as soon as the account is known (maybe
    // before this line runs, so no wait on that answer) and again for what is typed: the option is
    // chosen once the typed search has answered, or the list re-renders under the click (a lost
    // pick that saved no user).
    const employeeList = (r: { url(): string }) => r.url().includes(CRM_PATHS.employeeList);
    await emp.getByLabel('授权用户').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').first().waitFor();
    // Filled into the picker's own search box (typing at the keyboard was lost once when the
    // options arrived as it typed), and seen there before the search's answer is awaited.
    const searched = page.waitForResponse(employeeList);
    const search = emp.getByLabel('授权用户');
    await search.fill(operator.mobile);
    await expect.poll(() => search.inputValue()).toBe(operator.mobile);
    await searched;
    await pick(page, `${operator.userName} ${operator.mobile}`);
    await page.keyboard.press('Escape');
    await emp.locator('.ant-select-selection-item', { hasText: operator.userName }).waitFor();
    await emp.getByRole('button', { name: /保\s*存/ }).click();
    await expect
      .poll(async () =>
        (
          await data<BankUserList>(CRM_PATHS.bankUserList, token, undefined, { bizCode: account.bizCode })
        ).users.map((u) => u.userCode),
      )
      .toEqual([operator.userCode]);
    await page.goto(`${base}/crm/corporation/bank-view/employee?bizCode=${account.bizCode}`);
    await expect
      .poll(() => page.getByTestId('crm-bank-employee').locator('.ant-table-tbody').textContent())
      .toContain(operator.mobile);

    // 企业用户 list: filter the pending registrations, open one and reject it with a comment
    await page.goto(`${base}/crm/frim/list`);
    const list = page.getByTestId('crm-firm-list');
    await list.getByLabel('注册审核').click();
    await pick(page, '待审核');
    await list.getByRole('button', { name: /查\s*询/ }).click();
    await expect
      .poll(() => list.locator('.ant-table-tbody tr.ant-table-row').first().textContent())
      .toContain('待审核');
    await page.screenshot({ path: shotPath('crm-firm-list.png') });
    await list
      .locator('.ant-table-tbody tr.ant-table-row')
      .first()
      .getByRole('button', { name: '审核', exact: true })
      .click();
    await page.waitForURL((u) => u.pathname === '/crm/frim/frimcheck/base');
    const check = page.getByTestId('crm-firm-check');
    await expect.poll(() => check.getByTestId('reg-state').textContent()).toBe('待审核');
    await check.getByLabel('审核意见').fill('身份证照片不清晰');
    await check.getByRole('button', { name: /驳\s*回/ }).click();
    await confirm(page);
    await expect.poll(() => check.getByTestId('reg-state').textContent()).toBe('已驳回');
    await context.close();
  });
});
