import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page, Response } from 'playwright-core';
import { PASSWORD_MESSAGES } from '@portal/contract/password';
import { addUserWithRole, loginAs, publicCall } from './flows';
import {
  animationsDone,
  activePage,
  apiCall,
  launchBrowser,
  login,
  motionDone,
  newPage,
  searchField,
  shotPath,
  SHOTS_DIR,
  switchTab,
  tagOf,
  tokenOf,
  base,
} from './helpers';

const password = inject('adminPassword');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/**
 * Right-click a tab and choose an entry of its context menu, once the menu has opened (motionDone):
 * chosen while the menu still waits to slide in, the release lands beside the moved entry and the
 * menu closes unchosen.
 */
async function tabMenu(page: Page, path: string, entry: string): Promise<void> {
  const popup = page.locator('.ant-dropdown:not(.ant-dropdown-hidden)');
  await tagOf(page, path).click({ button: 'right' });
  await motionDone(popup);
  await popup.getByRole('menuitem', { name: entry }).click();
  await popup.waitFor({ state: 'hidden' });
}
const tagPaths = (page: Page) =>
  page.locator('.tags-view-item').evaluateAll((els) => els.map((e) => e.getAttribute('data-path')));

describe('session guard and login', () => {
  it('sends a visitor without a session to /login?redirect=, and back there after login', async () => {
    const { context, page } = await newPage(browser);
    const scripts = new Map<string, Promise<Buffer>>();
    const collect = (r: Response) => {
      if (r.request().resourceType() === 'script') scripts.set(new URL(r.url()).pathname, r.body());
    };
    page.on('response', collect);
    await page.goto(`${base}/factoring/contract/info?x=1`);
    await page.waitForURL(`${base}/login?redirect=${encodeURIComponent('/factoring/contract/info?x=1')}`);
    await page.getByPlaceholder('用户名').waitFor();
    page.off('response', collect);
    await page.screenshot({ path: shotPath('login.png') });

    // The login page's initial JavaScript (everything loaded until the form shows), gzip-compressed.
    let gzip = 0;
    const files: Record<string, number> = {};
    for (const [path, body] of scripts) {
      files[path] = gzipSync(await body).length;
      gzip += files[path];
    }
    writeFileSync(
      resolve(SHOTS_DIR, 'login-initial-js.json'),
      JSON.stringify({ files, gzipBytes: gzip }, null, 2),
    );
    console.log(`[e2e] login page initial JS: ${scripts.size} files, ${(gzip / 1024).toFixed(1)} KiB gzip`);

    await page.getByPlaceholder('用户名').fill('  admin  ');
    await page.getByPlaceholder('密码').fill(password);
    await page.getByRole('button', { name: /登\s*录/ }).click();
    await page.waitForURL(`${base}/factoring/contract/info?x=1`);
    await context.close();
  });

  it('shows the login page without a scrollbar at 1280×800', async () => {
    const { context, page } = await newPage(browser, 1280, 800);
    await page.goto(`${base}/login`);
    await page.getByPlaceholder('用户名').waitFor();
    const box = await page.evaluate(() => ({
      scroll: document.documentElement.scrollHeight,
      client: document.documentElement.clientHeight,
      scrollX: document.documentElement.scrollWidth,
      clientX: document.documentElement.clientWidth,
    }));
    expect(box.scroll).toBeLessThanOrEqual(box.client);
    expect(box.scrollX).toBeLessThanOrEqual(box.clientX);
    await context.close();
  });

  it('asks for the captcha when the server wants one', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${base}/login`);
    await page.getByPlaceholder('用户名').fill(`probe-${Date.now()}`);
    await page.getByPlaceholder('密码').fill('Wrong@12345678');
    const submit = page.getByRole('button', { name: /登\s*录/ });
    for (let i = 0; i < 3; i++) {
      const answered = page.waitForResponse((r) => r.url().includes('/mobileNumberLogin'));
      await submit.click();
      expect((await answered).status()).toBe(400);
      await expect.poll(() => submit.getAttribute('class')).not.toContain('login-submit--loading');
    }
    await page.getByText('用户名或密码错误').first().waitFor();
    const image = page.locator('.login-captcha img[alt="验证码"]');
    await image.waitFor();
    const first = await image.getAttribute('src');
    expect(first).toMatch(/^data:image\/svg\+xml/);
    await page.getByPlaceholder('验证码').fill('0000');
    await submit.click();
    await page.getByText('验证码错误').waitFor();
    await expect.poll(() => image.getAttribute('src')).not.toBe(first);
    await context.close();
  });

  it('logs in to the dashboard with the affixed 工作 tab', async () => {
    const { context, page } = await newPage(browser);
    await login(page, base, password);
    await page.waitForURL(`${base}/dashboard`);
    const home = tagOf(page, '/dashboard');
    await expect.poll(() => home.textContent()).toBe('工作');
    expect(await home.locator('.tags-view-item__close').count()).toBe(0);
    await page.getByTestId('dashboard').waitFor();
    // /login with a session goes to /
    await page.goto(`${base}/login`);
    await page.waitForURL(`${base}/dashboard`);
    await page.getByTestId('dashboard').waitFor();
    await page.screenshot({ path: shotPath('management-layout.png') });
    await context.close();
  });

  it('sends an unknown path to /404', async () => {
    const { context, page } = await newPage(browser);
    await login(page, base, password);
    await page.goto(`${base}/no/such/page`);
    await page.waitForURL(`${base}/404`);
    await page.getByText('抱歉，您访问的页面不存在。').waitFor();
    await context.close();
  });

  it('sends a direct link the user’s menus do not grant to /401, not /404', async () => {
    const adminSession = await publicCall<{ accessToken: string }>(
      '/admin/portal/api/login/user/mobileNumberLogin',
      { userName: 'admin', passWord: password, userType: '2' },
    );
    // A 风控 user: document screens only, no 系统管理.
    const risk = await addUserWithRole(adminSession.accessToken, 'risk', 'risk', '风控员');
    const { context, page } = await newPage(browser);
    await loginAs(page, risk.userName, risk.password);
    for (const path of ['/permission/role', '/permission']) {
      await page.goto(`${base}${path}`);
      await page.waitForURL(`${base}/401`);
      await page.getByText('抱歉，您没有访问该页面的权限。').waitFor();
    }
    // A path the product does not have at all stays /404.
    await page.goto(`${base}/permission/no-such-page`);
    await page.waitForURL(`${base}/404`);
    await context.close();
  });

  it('a 403 answer clears the token and sends the user to login', async () => {
    const { context, page } = await newPage(browser);
    await login(page, base, password);
    await page.getByTestId('dashboard').waitFor();
    const token = await tokenOf(context);
    expect(token).toBeTruthy();
    const out = await apiCall(base, '/admin/portal/user/logout', token!);
    expect(out.status).toBe(200);
    await page.goto(`${base}/factoring/pa/mgr`);
    await page.waitForURL(
      (url) => url.pathname === '/login' && url.searchParams.get('redirect') === '/factoring/pa/mgr',
    );
    expect(await tokenOf(context)).toBeUndefined();
    await context.close();
  });
});

describe('management layout', () => {
  it('keeps page state per tab; Close Others and Close All keep the affixed tab', async () => {
    const { context, page } = await newPage(browser);
    await login(page, base, password);
    await page.getByTestId('dashboard').waitFor();

    // three tabs through the menus (topbar mode: section on top, pages aside)
    await page.locator('.navbar-menu').getByText('合同管理').click();
    await page.waitForURL(`${base}/factoring/contract/info`);
    await page.getByTestId('sidebar').getByText('合同变更').click();
    await page.waitForURL(`${base}/factoring/contract/change`);
    await page.getByTestId('sidebar').getByText('资料交接单').click();
    await page.waitForURL(`${base}/factoring/contract/handover`);
    await expect
      .poll(() => tagPaths(page))
      .toEqual([
        '/dashboard',
        '/factoring/contract/info',
        '/factoring/contract/change',
        '/factoring/contract/handover',
      ]);

    // type into a form, switch away and back: the input is kept
    await switchTab(page, '/factoring/contract/change');
    // The change list's 合同号 filter (the contract list has one too: scope to the page).
    const keyword = searchField(activePage(page, '/factoring/contract/change'), '合同号');
    await keyword.fill('保理合同甲');
    await switchTab(page, '/factoring/contract/info');
    await keyword.waitFor({ state: 'hidden' });
    await switchTab(page, '/factoring/contract/change');
    await keyword.waitFor({ state: 'visible' });
    expect(await keyword.inputValue()).toBe('保理合同甲');

    // Close Others (context menu of the active tab)
    await tabMenu(page, '/factoring/contract/change', '关闭其它');
    await expect.poll(() => tagPaths(page)).toEqual(['/dashboard', '/factoring/contract/change']);
    expect(await keyword.inputValue()).toBe('保理合同甲');

    // Close All: only the affixed 工作 stays, and it is shown
    await tabMenu(page, '/factoring/contract/change', '关闭所有');
    await expect.poll(() => tagPaths(page)).toEqual(['/dashboard']);
    await page.waitForURL(`${base}/dashboard`);
    await context.close();
  });

  it('finds a screen by a fuzzy title in the route search', async () => {
    const { context, page } = await newPage(browser);
    await login(page, base, password);
    await page.getByTestId('dashboard').waitFor();
    await page.getByRole('button', { name: '搜索菜单' }).click();
    await page.locator('.header-search__select input').fill('计息规责');
    const option = page.locator('.ant-select-item-option').first();
    await expect.poll(() => option.textContent()).toBe('业务配置 > 计息规则');
    await animationsDone(page);
    await option.click();
    await page.waitForURL(`${base}/factoring/config/ruler`);
    await context.close();
  });

  it('switches the size with 布局大小已切换', async () => {
    const { context, page } = await newPage(browser);
    await login(page, base, password);
    await page.getByTestId('dashboard').waitFor();
    await page.getByRole('button', { name: '布局大小' }).click();
    await page.getByRole('menuitem', { name: '紧凑' }).click();
    await page.getByText('布局大小已切换').waitFor();
    const size = (await context.cookies()).find((c) => c.name === 'size')?.value;
    expect(size).toBe('small');
    await context.close();
  });

  it('shows each validation message of the password dialog', async () => {
    const { context, page } = await newPage(browser);
    await login(page, base, password);
    await page.getByTestId('dashboard').waitFor();
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: '修改密码' }).click();
    const dialog = page.locator('.password-dialog');
    await dialog.waitFor();
    // the dialog zooms in: measure once the animation has settled
    await expect.poll(() => dialog.evaluate((e) => e.getBoundingClientRect().width)).toBe(680);

    const ok = dialog.getByRole('button', { name: /确\s*定/ });
    await ok.click();
    await page.getByText(PASSWORD_MESSAGES.formInvalid).waitFor();
    await dialog.getByText(PASSWORD_MESSAGES.oldRequired).waitFor();
    await dialog.getByText(PASSWORD_MESSAGES.newRequiredField, { exact: true }).waitFor();
    await dialog.getByText(PASSWORD_MESSAGES.confirmRequired).waitFor();

    await dialog.getByLabel('确认密码').fill('x');
    await dialog.getByText(PASSWORD_MESSAGES.newRequired).waitFor();
    await dialog.getByLabel('旧密码').fill(password);
    await dialog.getByLabel('新密码').fill('short1A!');
    await dialog.getByText(PASSWORD_MESSAGES.pattern).waitFor();
    await dialog.getByLabel('新密码').fill(password);
    await dialog.getByText(PASSWORD_MESSAGES.sameAsOld).waitFor();
    await dialog.getByLabel('新密码').fill('Other@12345678');
    await dialog.getByText(PASSWORD_MESSAGES.mismatch).waitFor();
    await context.close();
  });

  it('is in mobile mode at width 800', async () => {
    const { context, page } = await newPage(browser, 800, 900);
    await login(page, base, password);
    await page.getByTestId('dashboard').waitFor();
    const layout = page.getByTestId('management-layout');
    expect(await layout.getAttribute('data-device')).toBe('mobile');
    expect(await page.locator('.sidebar-container').count()).toBe(0);
    await page.getByTestId('hamburger').click();
    await page.locator('.sidebar-drawer').getByText('合同管理').waitFor();
    await page.screenshot({ path: shotPath('management-layout-mobile.png') });
    await context.close();
  });
});

describe('website layout', () => {
  it('shows the header menu, the section sidebar and the 查看详情 tabs', async () => {
    const { context, page } = await newPage(browser);
    await login(page, base, password);
    await page.goto(`${base}/crm`);
    await page.waitForURL(`${base}/crm/corporation/list`);
    await page.getByTestId('website-sidebar').getByText('企业列表').waitFor();
    const header = page.locator('.website-header__menu');
    await header.getByText('客户管理').waitFor();
    await header.getByText('凭证').waitFor();
    await header.getByText('更多').waitFor();
    await page.getByTestId('crm-corp-list').waitFor();
    await page.screenshot({ path: shotPath('website-layout.png') });

    await page.goto(`${base}/crm/corporation/view?judge=comp`);
    await page.waitForURL(`${base}/crm/corporation/view/corporation?judge=comp`);
    const tabs = page.getByTestId('website-tabs');
    await tabs.getByText('查看详情').waitFor();
    await tabs.getByText('审核信息').click();
    await page.waitForURL(`${base}/crm/corporation/view/approval?judge=comp`);
    await page.screenshot({ path: shotPath('website-layout-detail.png') });
    await tabs.getByRole('button', { name: /返\s*回/ }).click();
    await page.waitForURL(`${base}/ec/permit/comp`);
    await context.close();
  });
});
