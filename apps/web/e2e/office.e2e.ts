import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { PERMISSION_PATHS, type RoleView } from '@portal/contract/permission';
import { AUTH_PATHS } from '@portal/contract/session';
import {
  activePage,
  apiCall,
  launchBrowser,
  login,
  newPage,
  tokenOf,
  base,
  signIn,
  sessionToken,
} from './helpers';
import { changeFirstPassword, confirm, data, loginAs, passwordNoted } from './flows';

/**
 * Issue 27, screens as an office uses them: lists that reload, menus that lead somewhere, row
 * actions in a row, forms whose checks are not errors, toasts that stay and say why.
 */
const password = inject('adminPassword');
let browser: Browser;
let adminToken: string;

beforeAll(async () => {
  browser = await launchBrowser();
  adminToken = await sessionToken(password);
});
afterAll(async () => {
  await browser?.close();
});

let seq = 0;
const stamp = () => `${String(Date.now()).slice(-6)}${seq++}`;

/**
 * A staff user named `office<n>`: with one role granting `menuCodes`, the administrators' role
 * (`'admin'`) or none (`null`); its first password changed unless `changePassword` is false.
 */
async function addUser(
  access: readonly string[] | 'admin' | null,
  changePassword = true,
  n = stamp(),
): Promise<{ userName: string; password: string }> {
  const roleCodes: string[] = [];
  if (access === 'admin') {
    const roles = await data<{ list: RoleView[] }>(PERMISSION_PATHS.roleList, adminToken, {
      pageNum: 1,
      pageSize: 100,
    });
    roleCodes.push(roles.list.find((r) => r.code === 'admin')!.bizCode);
  } else if (access) {
    const { bizCode } = await data<{ bizCode: string }>(PERMISSION_PATHS.roleAdd, adminToken, {
      name: `办公室角色${n}`,
      code: `office-${n}`,
    });
    await data(PERMISSION_PATHS.roleCfgSave, adminToken, { bizCode, version: 0, menuCodes: access });
    roleCodes.push(bizCode);
  }
  const orgs = await data<{ deptBizCode: string }[]>(PERMISSION_PATHS.orgTree, adminToken, {});
  const userName = `office${n}`;
  const temp = await data<{ password: string }>(PERMISSION_PATHS.userAdd, adminToken, {
    userName,
    realName: `办公室${n}`,
    deptCode: orgs[0]!.deptBizCode,
    roleCodes,
  });
  if (!changePassword) return { userName, password: temp.password };
  return { userName, password: await changeFirstPassword(userName, temp.password, 'Office@2026xy') };
}

/** 用户管理 as admin, searched for `name` (default: everyone). */
async function openUsers(page: Page, name = '') {
  await login(page, base, password);
  await page.goto(`${base}/permission/user`);
  const users = activePage(page, '/permission/user');
  await users.getByLabel('用户名/姓名').fill(name);
  await users.getByRole('button', { name: /查\s*询/ }).click();
  return users;
}

const toasts = (page: Page, text: string) => page.locator('.ant-message-notice', { hasText: text });

describe('lists and row actions', () => {
  it('查询 with unchanged filters shows a colleague’s new record', async () => {
    const { context, page } = await newPage(browser);
    try {
      const n = stamp();
      const users = await openUsers(page, `office${n}`);
      await users.locator('.ant-table').waitFor();
      const colleagues = await addUser(null, false, n);
      await users.getByRole('button', { name: /查\s*询/ }).click();
      await users.locator('.ant-table-row', { hasText: colleagues.userName }).waitFor();
    } finally {
      await context.close();
    }
  });

  it('a second action on a row carries its new version; 操作成功！ stays 5 s', async () => {
    const user = await addUser(null, false);
    const { context, page } = await newPage(browser);
    try {
      const users = await openUsers(page, user.userName);
      const row = users.locator('.ant-table-row', { hasText: user.userName });
      await row.waitFor();
      await row.getByRole('button', { name: '重置密码' }).click();
      await confirm(page);
      await passwordNoted(page);
      await row.getByRole('switch').click();
      await confirm(page);
      // The answer's toast comes after this moment.
      const confirmedAt = Date.now();
      await expect.poll(() => row.getByRole('switch').getAttribute('aria-checked')).toBe('false');
      expect(await toasts(page, '数据已被他人修改').count()).toBe(0);
      // Toasts last 5000 ms.
      await page.waitForTimeout(Math.max(0, confirmedAt + 4_000 - Date.now()));
      expect(await toasts(page, '操作成功！').count()).toBeGreaterThan(0);
    } finally {
      await context.close();
    }
  });
});

describe('forms', () => {
  it('保存 of an empty 来款 shows the fields in error and puts nothing in the error log', async () => {
    const { context, page } = await newPage(browser);
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    try {
      await signIn(context, password);
      await page.goto(`${base}/factoring/accounts/income-editor`);
      const editor = page.getByTestId('income-editor');
      await editor.getByRole('button', { name: /^保\s*存$/ }).click();
      await editor.locator('.ant-form-item-explain-error').first().waitFor();
      await page.waitForTimeout(500);
      expect(pageErrors).toEqual([]);
      expect(await page.getByLabel('错误日志').count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('来款金额 12.345, 0 and −5 are refused under the field before any 是否继续？', async () => {
    const { context, page } = await newPage(browser);
    try {
      await signIn(context, password);
      await page.goto(`${base}/factoring/accounts/income-editor`);
      const editor = page.getByTestId('income-editor');
      const amount = editor.getByLabel('来款金额');
      // The message under this field: its nearest form item (the row around it is one too).
      const help = amount
        .locator('xpath=ancestor::div[contains(concat(" ", @class, " "), " ant-form-item ")][1]')
        .locator('.ant-form-item-explain-error');
      for (const [typed, message] of [
        ['12.345', '来款金额必须是最多两位小数的金额'],
        ['0', '来款金额必须大于0'],
        ['\u22125', '来款金额必须大于0'],
      ] as const) {
        await amount.fill(typed);
        await editor.getByRole('button', { name: /^保\s*存$/ }).click();
        await expect.poll(() => help.textContent()).toBe(message);
        expect(await page.locator('.ant-modal-confirm').count()).toBe(0);
      }
    } finally {
      await context.close();
    }
  });
});

describe('menus', () => {
  it('a section opens the first child the user may see, and the menus show nothing else', async () => {
    const user = await addUser(['ft-config', 'ft-bank']);
    const { context, page } = await newPage(browser);
    try {
      await loginAs(page, user.userName, user.password);
      const top = page.locator('.navbar-menu');
      await top.getByText('业务配置').click();
      await page.waitForURL((u) => u.pathname === '/factoring/config/bank');
      await activePage(page, '/factoring/config/bank').locator('.ant-table').waitFor();
      // 凭证's open pages serve their data only to holders of their codes: no menu entry leads there.
      expect(await top.textContent()).not.toContain('凭证');
      expect(await page.getByTestId('sidebar').textContent()).not.toMatch(/企业客户|计息规则|凭证/);
    } finally {
      await context.close();
    }
  });
});

describe('session messages', () => {
  it('权限为空！ stays its 5 s', async () => {
    const user = await addUser(null);
    const { context, page } = await newPage(browser);
    try {
      await page.goto(`${base}/login`);
      await page.getByPlaceholder('用户名').fill(user.userName);
      await page.getByPlaceholder('密码').fill(user.password);
      await page.getByRole('button', { name: /登\s*录/ }).click();
      const notice = page.locator('.ant-notification-notice', { hasText: '权限为空！' });
      await notice.waitFor();
      await page.waitForTimeout(4_000);
      expect(await notice.isVisible()).toBe(true);
      expect(new URL(page.url()).pathname).toBe('/login');
    } finally {
      await context.close();
    }
  });

  it('a revoked session returns to login saying why', async () => {
    const { context, page } = await newPage(browser);
    try {
      const users = await openUsers(page);
      await users.locator('.ant-table-row').first().waitFor();
      const token = (await tokenOf(context))!;
      expect((await apiCall(base, AUTH_PATHS.logout, token)).status).toBe(200);
      // The next screen's first call finds the session gone.
      await page.getByTestId('sidebar').getByText('角色管理').click();
      await page.waitForURL((u) => u.pathname === '/login');
      await page.locator('.ant-message-notice', { hasText: '登录已失效，请重新登录' }).waitFor();
    } finally {
      await context.close();
    }
  });

  it('the open page fires no calls after 退出登录', async () => {
    const { context, page } = await newPage(browser);
    try {
      const users = await openUsers(page);
      await users.locator('.ant-table-row').first().waitFor();
      await page.goto(`${base}/dashboard`);
      await page.getByTestId('dashboard').waitFor();
      const after: string[] = [];
      let loggedOut = false;
      page.on('request', (r) => {
        const path = new URL(r.url()).pathname;
        if (path === `/api${AUTH_PATHS.logout}`) loggedOut = true;
        else if (loggedOut && path.startsWith('/api/')) after.push(path);
      });
      await page.getByTestId('user-menu').click();
      await page.getByText('退出登录').click();
      await page.waitForURL((u) => u.pathname === '/login');
      await page.getByPlaceholder('用户名').waitFor();
      await page.waitForTimeout(2_000);
      // The login page's own calls only.
      expect(after.filter((p) => !/rsa\/secretKey|captcha/i.test(p))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('a new user’s first login shows one 请先修改初始密码, not one per call', async () => {
    const user = await addUser('admin', false);
    const { context, page } = await newPage(browser);
    try {
      await loginAs(page, user.userName, user.password);
      await page.locator('.password-dialog').waitFor();
      await toasts(page, '请先修改初始密码').first().waitFor();
      await page.waitForTimeout(1_500);
      expect(await toasts(page, '请先修改初始密码').count()).toBe(1);
    } finally {
      await context.close();
    }
  });
});

describe('sidebar', () => {
  /** 用户管理 open, with its sidebar (topbar mode: the section's pages) and the layout. */
  async function usersWithSidebar(page: Page) {
    const users = await openUsers(page);
    await users.locator('.ant-table-row').first().waitFor();
    return { users, sidebar: page.getByTestId('sidebar'), layout: page.getByTestId('management-layout') };
  }

  it('stays under dialog masks: a click beside an open dialog cannot navigate behind it', async () => {
    const { context, page } = await newPage(browser);
    try {
      const { users, sidebar } = await usersWithSidebar(page);
      await users.getByRole('button', { name: '新增用户' }).click();
      await page.locator('.ant-modal').filter({ hasText: '新增用户' }).waitFor();
      const box = (await sidebar.getByText('角色管理').boundingBox())!;
      const sidebarOnTop = await page.evaluate(
        ([x, y]) => !!document.elementFromPoint(x!, y!)?.closest('[data-testid="sidebar"]'),
        [box.x + box.width / 2, box.y + box.height / 2],
      );
      expect(sidebarOnTop).toBe(false);
    } finally {
      await context.close();
    }
  });

  it('collapsed, shows an icon for every entry (not its label’s first character)', async () => {
    const { context, page } = await newPage(browser);
    try {
      const { sidebar, layout } = await usersWithSidebar(page);
      await page.getByTestId('hamburger').click();
      await expect.poll(() => layout.getAttribute('class')).toContain('hide-sidebar');
      const entries = await sidebar.locator('.ant-menu-item').count();
      expect(entries).toBeGreaterThan(0);
      expect(await sidebar.locator('.ant-menu-item .anticon').count()).toBe(entries);
    } finally {
      await context.close();
    }
  });

  it('is open again after the window went under 992 px (a drawer there) and back', async () => {
    const { context, page } = await newPage(browser);
    try {
      const { layout } = await usersWithSidebar(page);
      expect(await layout.getAttribute('class')).toContain('open-sidebar');
      await page.setViewportSize({ width: 800, height: 860 });
      await expect.poll(() => layout.getAttribute('data-device')).toBe('mobile');
      await page.setViewportSize({ width: 1366, height: 860 });
      await expect.poll(() => layout.getAttribute('data-device')).toBe('desktop');
      expect(await layout.getAttribute('class')).toContain('open-sidebar');
    } finally {
      await context.close();
    }
  });
});
