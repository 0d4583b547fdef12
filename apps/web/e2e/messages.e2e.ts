import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { COMPANY_PATHS, type CompanyAdd } from '@portal/contract/company';
import { COMP_CHANGE_PATHS } from '@portal/contract/crm-change';
import { MESSAGE_PATHS, MESSAGE_POLL_MS } from '@portal/contract/messages';
import { PERMISSION_PATHS, type RoleView } from '@portal/contract/permission';
import { usccCheckChar } from '@portal/contract/uscc';
import { launchBrowser, newPage, shotPath, watchPage } from './helpers';
import { changeFirstPassword, data, loginAs, publicCall } from './flows';

const password = inject('adminPassword');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const stamp = String(Date.now()).slice(-6);

/** A new colleague holding the 风控 role: the step 企业信息变更 waits for. */
async function addRiskChecker(token: string): Promise<{ userName: string; password: string }> {
  const roles = await data<{ list: RoleView[] }>(PERMISSION_PATHS.roleList, token, {
    pageNum: 1,
    pageSize: 100,
  });
  const risk = roles.list.find((r) => r.code === 'risk')!;
  const orgs = await data<{ deptBizCode: string }[]>(PERMISSION_PATHS.orgTree, token, {});
  const userName = `bell${stamp}`;
  const temp = await data<{ password: string }>(PERMISSION_PATHS.userAdd, token, {
    userName,
    realName: '铃声复核',
    deptCode: orgs[0]!.deptBizCode,
    roleCodes: [risk.bizCode],
  });
  return { userName, password: await changeFirstPassword(userName, temp.password, 'Bell@2026xyz') };
}

/** The number on the bell ('' while nothing is unread: the badge shows no count then). */
async function bellCount(page: Page): Promise<string> {
  const sup = page.getByTestId('message-bell').locator('.ant-badge-count');
  if ((await sup.count()) === 0) return '';
  return (await sup.first().getAttribute('title')) ?? '';
}

describe('消息中心', () => {
  it('a checker sees the bell count rise when a document is submitted to them, and opens it', async () => {
    const adminSession = await publicCall<{ accessToken: string }>(
      '/admin/portal/api/login/user/mobileNumberLogin',
      { userName: 'admin', passWord: password, userType: '2' },
    );
    const token = adminSession.accessToken;
    const checker = await addRiskChecker(token);
    const first17 = `91310115MB${String(Number(stamp) * 10 + 7)
      .padStart(7, '0')
      .slice(-7)}`;
    const company: CompanyAdd = {
      compName: `消息测试企业${stamp}`,
      usccCode: first17 + usccCheckChar(first17),
      compType: 'private',
      roles: ['supplier'],
      legalPerson: '测试法人',
      regCapital: '10000000.00',
      provinceCode: '310000',
      cityCode: '310100',
      areaCode: '310115',
    };
    const { compCode } = await data<{ compCode: string }>(COMPANY_PATHS.add, token, company);

    const their = await newPage(browser);
    const report = watchPage(their.page);
    try {
      const { page } = their;
      // The page's own clock (Playwright's): time runs as usual, and the waits for the bell's next
      // poll below move it on by one poll's interval instead of waiting the interval out.
      await page.clock.install();
      await loginAs(page, checker.userName, checker.password);
      await page.getByTestId('message-bell').waitFor();
      expect(await bellCount(page)).toBe('');

      // Someone else submits a change of the customer: its 风控复核 step is the checker's.
      const saved = await data<{ bizCode: string }>(COMP_CHANGE_PATHS.save, token, {
        ...company,
        compCode,
        compName: `消息测试企业${stamp}（更名）`,
        reason: '更名',
        submit: true,
      });
      // The bell asks every 15 s; no reload.
      await page.clock.fastForward(MESSAGE_POLL_MS);
      await expect.poll(() => bellCount(page), { timeout: 40_000, interval: 1000 }).toBe('1');
      // The next poll finds nothing new: a conditional GET answered 304, and the bell keeps its count.
      const nextPoll = page.waitForResponse(
        (r) => r.url().includes(MESSAGE_PATHS.count) && r.status() === 304,
        { timeout: 40_000 },
      );
      await page.clock.fastForward(MESSAGE_POLL_MS);
      const unchanged = await nextPoll;
      expect(unchanged.request().method()).toBe('GET');
      expect(await bellCount(page)).toBe('1');

      await page.getByTestId('message-bell').click();
      const item = page.getByTestId('message-item').first();
      await item.waitFor();
      expect(await item.textContent()).toContain('待审批');
      expect(await item.textContent()).toContain('企业信息变更');
      await page.screenshot({ path: shotPath('messages-bell.png') });
      await item.click();
      await page.waitForURL((url) => url.searchParams.get('bizCode') === saved.bizCode, { timeout: 20_000 });
      await expect.poll(() => bellCount(page), { timeout: 10_000 }).toBe('');
    } catch (err) {
      await their.page.screenshot({ path: shotPath('messages-failure.png'), fullPage: true });
      console.error(report());
      throw err;
    } finally {
      await their.context.close();
    }
  }, 180_000);
});
