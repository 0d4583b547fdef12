import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { MONITOR_PATHS } from '@portal/contract/monitor';
import { PERMISSION_PATHS, type UserView } from '@portal/contract/permission';
import { activePage, launchBrowser, newPage, tokenOf, watchPage, base, signIn } from './helpers';
import { addChecker, confirm, data, loginAs, publicCall } from './flows';

const password = inject('adminPassword');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('系统监控', () => {
  it('an administrator finds a colleague’s edit with its before/after, and forces the colleague out', async () => {
    const adminSession = await publicCall<{ accessToken: string }>(
      '/admin/portal/api/login/user/mobileNumberLogin',
      { userName: 'admin', passWord: password, userType: '2' },
    );
    const colleague = await addChecker(adminSession.accessToken);

    // The colleague signs in in their own browser and renames themselves (an audited edit).
    const their = await newPage(browser);
    const theirReport = watchPage(their.page);
    const mine = await newPage(browser);
    const myReport = watchPage(mine.page);
    try {
      await loginAs(their.page, colleague.userName, colleague.password);
      const theirToken = (await tokenOf(their.context))!;
      const users = await data<{ list: UserView[] }>(PERMISSION_PATHS.userList, theirToken, {
        pageNum: 1,
        pageSize: 20,
        name: colleague.userName,
      });
      const self = users.list.find((u) => u.userName === colleague.userName)!;
      await data(PERMISSION_PATHS.userUpdate, theirToken, {
        userCode: self.userCode,
        version: self.version,
        userName: self.userName,
        realName: '复核员乙',
        deptCode: self.deptCode,
        roleCodes: self.roles.map((r) => r.code),
        state: self.state,
      });

      // 操作日志: the administrator finds it by the colleague's name and opens its before/after.
      const { page } = mine;
      await signIn(mine.context, password);
      await page.goto(`${base}/monitor/operlog`);
      const operLog = activePage(page, '/monitor/operlog');
      await operLog.getByLabel('操作人').fill(colleague.userName);
      await operLog.getByRole('button', { name: /查\s*询/ }).click();
      const row = operLog.locator('tr', { hasText: '修改' }).filter({ hasText: '用户' }).first();
      await row.getByRole('button', { name: '详情' }).click();
      const detail = page.locator('.ant-modal').filter({ hasText: '操作详情' });
      const changed = detail.locator('tr', { hasText: '姓名' });
      await expect
        .poll(() => changed.locator('td').allTextContents(), { timeout: 10_000 })
        .toEqual(['姓名', '复核员', '复核员乙']);
      expect(await detail.textContent()).not.toContain('{');
      await detail.locator('.ant-modal-close').click();

      // 在线用户: 强退 the colleague's session, with a confirmation.
      await page.goto(`${base}/monitor/online`);
      const online = activePage(page, '/monitor/online');
      await online.getByLabel('用户').fill(colleague.userName);
      await online.getByRole('button', { name: /查\s*询/ }).click();
      const session = online.locator('tr', { hasText: colleague.userName });
      await session.getByRole('button', { name: '强退' }).click();
      await confirm(page);
      await page.locator('.ant-message-notice', { hasText: '操作成功！' }).last().waitFor();
      // The administrator's own session shows no 强退.
      await online.getByLabel('用户').fill('admin');
      await online.getByRole('button', { name: /查\s*询/ }).click();
      const own = online.locator('tr', { hasText: '当前会话' });
      await own.waitFor();
      expect(await own.getByRole('button', { name: '强退' }).count()).toBe(0);

      // The colleague's next action lands on the login page, told why.
      await their.page.goto(`${base}/permission/user`);
      await their.page.waitForURL((url) => url.pathname === '/login', { timeout: 20_000 });
      await expect
        .poll(() => their.page.locator('.ant-message').first().textContent())
        .toContain('您已被管理员强制下线，请重新登录');
      const stillValid = await data(MONITOR_PATHS.onlineList, adminSession.accessToken, {
        pageNum: 1,
        pageSize: 20,
        userName: colleague.userName,
      });
      expect(stillValid).toMatchObject({ total: 0 });
    } catch (e) {
      throw new Error(`${String(e)}\nadmin: ${myReport()}\ncolleague: ${theirReport()}`);
    } finally {
      await their.context.close();
      await mine.context.close();
    }
  });
});
