import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  animationsDone,
  activePage,
  launchBrowser,
  login,
  newPage,
  shotPath,
  watchPage,
  base,
} from './helpers';
import { confirm, loginAs, passwordNoted } from './flows';

const password = inject('adminPassword');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function succeeded(page: Page): Promise<void> {
  await page.locator('.ant-message-notice', { hasText: '操作成功！' }).last().waitFor();
}

async function readTempPassword(page: Page): Promise<string> {
  const code = page.getByTestId('temp-password');
  await code.waitFor();
  const value = (await code.textContent())?.trim() ?? '';
  await passwordNoted(page);
  return value;
}

describe('permission administration', () => {
  it('organisation, role limited to one menu, user; the user sees only that; a reset sends them to login', async () => {
    const n = String(Date.now() % 1_000_000);
    const orgName = `浏览器测试部${n}`;
    const roleName = `组织维护员${n}`;
    const userName = `e2e_${n}`;
    const { context, page } = await newPage(browser);
    const adminReport = watchPage(page);
    let userPageOfUser: Page | undefined;
    try {
      await login(page, base, password);

      // 1. An organisation under the root.
      await page.goto(`${base}/permission/org`);
      const orgPage = activePage(page, '/permission/org');
      await orgPage.getByTestId('org-node').first().waitFor();
      await orgPage.getByRole('button', { name: '新增组织' }).click();
      await orgPage.getByLabel('组织名称').fill(orgName);
      await orgPage.getByLabel('负责人').fill('李四');
      await orgPage.getByRole('button', { name: /保\s*存/ }).click();
      await confirm(page, `确定要新增组织「${orgName}」吗？`);
      await succeeded(page);
      await orgPage.getByTestId('org-node').filter({ hasText: orgName }).waitFor();
      expect(await orgPage.locator('.ant-descriptions').textContent()).toContain('总部');

      // 2. A role limited to 组织管理 with only its 新增 button.
      await page.goto(`${base}/permission/role`);
      const rolePage = activePage(page, '/permission/role');
      await rolePage.getByRole('button', { name: '新增角色' }).click();
      const roleDialog = page.locator('.ant-modal').filter({ hasText: '新增角色' });
      await roleDialog.getByLabel('角色名称').fill(roleName);
      await roleDialog.getByLabel('角色编码').fill(`org-keeper-${n}`);
      await roleDialog.getByRole('button', { name: /保\s*存/ }).click();
      await confirm(page, `确定要新增角色「${roleName}」吗？`);
      await succeeded(page);
      const roleRow = rolePage.locator('.ant-table-row', { hasText: roleName });
      await roleRow.waitFor();
      await roleRow.getByRole('button', { name: '权限配置' }).click();
      const drawer = page.locator('.role-config');
      const checkbox = (code: string) =>
        drawer
          .locator('.ant-tree-treenode', { has: page.locator(`[data-code="${code}"]`) })
          .locator('.ant-tree-checkbox');
      const isChecked = (code: string) =>
        checkbox(code).evaluate((e) => e.classList.contains('ant-tree-checkbox-checked'));
      // The tree is searched; 全选 takes every code and gives every one back.
      const shownCodes = () =>
        drawer.locator('.ant-tree-treenode [data-code]').evaluateAll((els) => els.map((e) => e.dataset.code));
      await checkbox('permission-org').waitFor();
      const everyNode = (await shownCodes()).length;
      const search = drawer.getByLabel('搜索菜单或按钮');
      await search.fill('组织管理');
      await expect.poll(async () => (await shownCodes()).length).toBeLessThan(everyNode);
      expect(await shownCodes()).toContain('permission-org:add');
      expect(await shownCodes()).not.toContain('permission-role');
      const selectAll = drawer.getByRole('checkbox', { name: '全选' });
      await selectAll.check();
      expect(await isChecked('permission-org:add')).toBe(true);
      await selectAll.uncheck();
      expect(await isChecked('permission-org:add')).toBe(false);
      await search.fill('');
      await expect.poll(async () => (await shownCodes()).length).toBe(everyNode);
      await checkbox('permission-org').click();
      await checkbox('permission-org:update').click();
      await checkbox('permission-org:delete').click();
      // Parents granted for part of what is below them are half-ticked, never fully (issue 39).
      const isHalf = (code: string) =>
        checkbox(code).evaluate((e) => e.classList.contains('ant-tree-checkbox-indeterminate'));
      expect([await isHalf('permission'), await isChecked('permission')]).toEqual([true, false]);
      expect(await isHalf('permission-org')).toBe(true);
      expect(await isChecked('permission-org:add')).toBe(true);
      expect(await isChecked('permission-org:update')).toBe(false);
      expect(await isChecked('permission-role')).toBe(false);
      await page.screenshot({ path: shotPath('permission-role-config.png') });
      await drawer.getByRole('button', { name: /保\s*存/ }).click();
      await confirm(page, '此操作将保存角色权限配置！ 是否继续？');
      await succeeded(page);
      await drawer.waitFor({ state: 'detached' });

      // 3. A user in the new organisation with that role; the temporary password is shown once.
      await page.goto(`${base}/permission/user`);
      const userPage = activePage(page, '/permission/user');
      await userPage.getByRole('button', { name: '新增用户' }).click();
      const userDialog = page.locator('.ant-modal').filter({ hasText: '新增用户' });
      await userDialog.getByLabel('用户名').fill(userName);
      await userDialog.getByLabel('姓名').fill('浏览器用户');
      await userDialog.getByLabel('所属组织').click();
      await animationsDone(page);
      await page.locator(`.ant-select-dropdown:visible [title="${orgName}"]`).click();
      // The tree dropdown may stay open over the next field: a click on the dialog's title (outside
      // the select; Escape would close the dialog too) closes it.
      const dropdowns = page.locator('.ant-select-dropdown:visible');
      await expect
        .poll(
          async () => {
            if ((await dropdowns.count()) > 0) await userDialog.locator('.ant-modal-title').click();
            return dropdowns.count();
          },
          { timeout: 10_000 },
        )
        .toBe(0);
      await userDialog.getByLabel('角色').click();
      await animationsDone(page);
      await page.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${roleName}"]`).click();
      await page.keyboard.press('Escape');
      await userDialog.getByRole('button', { name: /保\s*存/ }).click();
      await confirm(page, '确定要新增用户「浏览器用户」吗？');
      const temp = await readTempPassword(page);
      expect(temp).toMatch(/^.{10,16}$/);
      // The organisation filter includes the new user.
      await userPage.locator('.user-org-tree').getByText(orgName).click();
      await userPage.locator('.ant-table-row', { hasText: userName }).waitFor();

      // 4. The user logs in, must change the temporary password, and logs in again.
      const u = await newPage(browser);
      userPageOfUser = u.page;
      await loginAs(u.page, userName, temp);
      const dialog = u.page.locator('.password-dialog');
      await dialog.waitFor();
      await dialog.getByLabel('旧密码').fill(temp);
      await dialog.getByLabel('新密码').fill('Browser@12345');
      await dialog.getByLabel('确认密码').fill('Browser@12345');
      await dialog.getByRole('button', { name: /确\s*定/ }).click();
      await u.page.waitForURL((url) => url.pathname === '/login');
      await loginAs(u.page, userName, 'Browser@12345');
      await u.page.getByTestId('dashboard').waitFor();

      // Only 权限管理 > 组织管理 in the menus, and only the 新增 button on it.
      const top = u.page.locator('.navbar-menu');
      await top.getByText('权限管理').waitFor();
      const topText = (await top.textContent()) ?? '';
      for (const other of ['合同管理', '授信管理', '基础配置', '客户管理'])
        expect(topText).not.toContain(other);
      // (The section's static redirect names 角色管理, which this user lacks: open the page itself.)
      await u.page.goto(`${base}/permission/org`);
      const sidebar = u.page.getByTestId('sidebar');
      await sidebar.getByText('组织管理').waitFor();
      const sideText = (await sidebar.textContent()) ?? '';
      expect(sideText).not.toContain('角色管理');
      expect(sideText).not.toContain('用户管理');
      const theirOrg = activePage(u.page, '/permission/org');
      await theirOrg.getByTestId('org-node').filter({ hasText: orgName }).click();
      await theirOrg.getByRole('button', { name: '新增组织' }).waitFor();
      await theirOrg.locator('.ant-descriptions').getByText(orgName).waitFor();
      expect(await theirOrg.getByRole('button', { name: /修\s*改/ }).count()).toBe(0);
      expect(await theirOrg.getByRole('button', { name: /删\s*除/ }).count()).toBe(0);
      await u.page.screenshot({ path: shotPath('permission-limited-user.png') });

      // 5. The administrator resets the password: a new temporary one, shown once.
      const row = userPage.locator('.ant-table-row', { hasText: userName });
      await row.getByRole('button', { name: '重置密码' }).click();
      await confirm(page, `确定要重置用户「浏览器用户（${userName}）」的密码吗？`);
      const temp2 = await readTempPassword(page);
      expect(temp2).not.toBe(temp);

      // 6. The user's next call finds the session revoked: back to login.
      await theirOrg.getByRole('button', { name: '新增组织' }).click();
      await theirOrg.getByLabel('组织名称').fill('不会保存');
      await theirOrg.getByRole('button', { name: /保\s*存/ }).click();
      await confirm(u.page);
      await u.page.waitForURL((url) => url.pathname === '/login', { timeout: 20_000 });
      // The old password no longer works; the temporary one opens the forced password dialog.
      await loginAs(u.page, userName, temp2);
      await u.page.locator('.password-dialog').waitFor();
      await u.context.close();
    } catch (err) {
      // Screens at the moment of failure, for the report.
      await page.screenshot({ path: shotPath('permission-failure-admin.png') }).catch(() => undefined);
      await userPageOfUser
        ?.screenshot({ path: shotPath('permission-failure-user.png') })
        .catch(() => undefined);
      console.error(`permission e2e failed; the admin page's calls:\n${adminReport()}`);
      throw err;
    } finally {
      await context.close();
    }
  }, 240_000);
});
