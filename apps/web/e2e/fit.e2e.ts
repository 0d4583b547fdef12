import { afterAll, beforeAll, describe, inject, it, type ExpectStatic } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { activePage, launchBrowser, navigateInApp, newPage, base, signIn, sessionToken } from './helpers';
import { demoLogin, openScreen } from './flows';

/**
 * Every list fits its window (docs/architecture.md "Lists fit their box"): at 1280×800 and
 * 1440×900, as the administrator and as a read-only user, the key columns are in view without
 * scrolling sideways (not under the fixed 操作), and a 操作 column is there only with something
 * in it; on a 390 px phone no page is wider than the screen.
 */
const password = inject('adminPassword');
let browser: Browser;
let auditorPassword: string;

/** Opening every list takes a while on a busy machine. */
const LONG = 900_000;

/** Every list screen of the office (the screens built on shared/list/ListPage). */
const LISTS = [
  '/crm/corporation/list',
  '/crm/corporation/change',
  '/crm/corporation/manager',
  '/crm/corporation/bank',
  '/crm/corporation/relation',
  '/crm/frim/list',
  '/ec/permit/comp',
  '/ec/permit/comp-role-chg',
  '/ec/permit/personal',
  '/dw/permit/comp',
  '/dw/permit/personal',
  '/fc/fc',
  '/factoring/config/company',
  '/factoring/config/bank',
  '/factoring/config/ruler',
  '/factoring/config/print',
  '/factoring/config/bizdate',
  '/factoring/config/admission',
  '/factoring/credit/info',
  '/factoring/credit/distribution',
  '/factoring/credit/change',
  '/factoring/contract/info',
  '/factoring/contract/change',
  '/factoring/contract/handover',
  '/factoring/contract/collection',
  '/factoring/pa/mgr',
  '/factoring/accounts/loan',
  '/factoring/accounts/income',
  '/factoring/accounts/paid',
  '/factoring/accounts/paid-red',
  '/factoring/accounts/classification',
  '/factoring/accounts/buyback',
  '/factoring/accounts/bad-debt',
  '/factoring/accounts/voucher',
  '/permission/role',
  '/permission/user',
  '/monitor/operlog',
  '/monitor/logininfor',
  '/monitor/online',
  '/system/notice',
] as const;

/** The columns the issue named, which must be among each list's key columns. */
const NAMED_KEYS: Partial<Record<(typeof LISTS)[number], readonly string[]>> = {
  '/permission/user': ['用户名', '角色', '状态'],
  '/factoring/accounts/loan': ['客户名称', '融资金额', '实付金额', '银行流水号', '状态'],
  '/factoring/contract/info': ['合同号', '客户名称', '融资金额', '状态'],
  '/factoring/credit/info': ['客户名称', '授信额度', '可用额度', '状态'],
  '/factoring/accounts/income': ['付款人', '来款金额', '未核销余额', '状态'],
  '/factoring/accounts/paid': ['合同号', '核销金额', '状态'],
  '/factoring/pa/mgr': ['客户名称', '收取金额', '状态'],
  '/factoring/accounts/buyback': ['客户名称', '回购金额', '未收回购款', '状态'],
  '/factoring/accounts/bad-debt': ['客户名称', '本金', '核销金额', '状态'],
  '/factoring/contract/collection': ['合同号', '逾期金额'],
  '/factoring/config/admission': ['企业名称', '状态'],
  '/factoring/config/bank': ['银行账号', '默认'],
  '/ec/permit/comp': ['企业名称', '角色', '状态'],
  '/ec/permit/personal': ['用户姓名', '角色', '状态'],
  '/dw/permit/comp': ['企业名称', '角色', '状态'],
  '/dw/permit/personal': ['用户姓名', '角色', '状态'],
};

beforeAll(async () => {
  browser = await launchBrowser();
  const token = await sessionToken(password);
  auditorPassword = await demoLogin(token, 'auditor');
});
afterAll(async () => {
  await browser?.close();
});

/**
 * Shows the list at `path`, with its rows: loaded with the app (`goto`), or, for the walk's next
 * list, opened in the app already running (`navigateInApp`), as a user goes from list to list.
 * A load of the whole app for each of the 40 lists was most of this file's time (bench/README.md
 * "Fourteenth pass"); the walk's first list is still a load.
 */
async function openList(page: Page, path: string, how: 'load' | 'in-app' = 'load'): Promise<Locator> {
  if (how === 'load') await page.goto(`${base}${path}`);
  else await navigateInApp(page, path);
  // The office keeps the page of every tab visited mounted, hidden: the one at `path` shows.
  const list = activePage(page, path).locator('.list-page').first();
  await list.waitFor({ timeout: 20_000 });
  await list.locator('.ant-table, .list-cards').first().waitFor({ timeout: 20_000 });
  await list.locator('.ant-spin-spinning').first().waitFor({ state: 'detached', timeout: 20_000 });
  return list;
}

/** What a list shows of its columns, measured in the page. */
async function measure(list: Locator) {
  return list.evaluate((el) => {
    const box = (e: Element) => e.getBoundingClientRect();
    const scroller = el.querySelector('.ant-table-content, .ant-table-body');
    const heads = [...el.querySelectorAll<HTMLElement>('.ant-table-thead th')];
    // The last: 操作日志 has a data column 操作 (what was done) too.
    const actions = heads.findLast((th) => th.innerText.trim() === '操作');
    const actionsIndex = actions ? [...actions.parentElement!.children].indexOf(actions) : -1;
    const actionCells = [...el.querySelectorAll('.ant-table-tbody tr.ant-table-row')].map(
      (tr) => tr.children[actionsIndex]?.querySelectorAll('button').length ?? 0,
    );
    return {
      scrolls: scroller ? scroller.scrollWidth - scroller.clientWidth : 0,
      right: scroller ? box(scroller).right : 0,
      actionsLeft: actions ? box(actions).left : null,
      emptyActionCells: actions ? actionCells.filter((n) => n === 0).length : 0,
      mostActionButtons: actions ? Math.max(0, ...actionCells) : 0,
      actionRows: actionCells.length,
      keys: heads
        .filter((th) => th.classList.contains('list-col-key'))
        .map((th) => ({ title: th.innerText.trim(), right: box(th).right })),
    };
  });
}

/**
 * Screens with a table of their own (not a ListPage) whose 操作 holds only actions a read-only
 * user lacks: for that user the column is not there at all.
 */
const ACTION_TABLES = [
  ['/factoring/accounts/voucher-account', 'voucher-accounts'],
  ['/factoring/accounts/voucher-close', 'voucher-close'],
  ['/factoring/credit/debtor-match', 'debtor-match'],
] as const;

/** How many 操作 headers the screen's tables show, once they have loaded. */
async function actionHeaders(page: Page, path: string, testId: string): Promise<number> {
  const screen = await openScreen(page, `${base}${path}`, testId);
  await screen.locator('.ant-table').first().waitFor({ timeout: 20_000 });
  await screen.locator('.ant-spin-spinning').first().waitFor({ state: 'detached', timeout: 20_000 });
  return screen.locator('.ant-table-thead th', { hasText: /^操作$/ }).count();
}

async function checkLists(page: Page, width: number, expect: ExpectStatic) {
  for (const [i, path] of LISTS.entries()) {
    const list = await openList(page, path, i === 0 ? 'load' : 'in-app');
    // Polled: the page switched from may still be leaving.
    await expect
      .poll(
        () =>
          page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
        { message: `${path} scrolls the page sideways`, timeout: 5000 },
      )
      .toBeLessThanOrEqual(0);
    const m = await measure(list);
    expect.soft(m.keys.length, `${path} declares key columns`).toBeGreaterThan(0);
    expect.soft(m.scrolls, `${path} scrolls sideways at ${width}`).toBeLessThanOrEqual(1);
    for (const key of m.keys) {
      expect
        .soft(key.right, `${path} ${key.title} out of view`)
        .toBeLessThanOrEqual(Math.min(m.right, width) + 1);
      if (m.actionsLeft !== null)
        expect.soft(key.right, `${path} ${key.title} under 操作`).toBeLessThanOrEqual(m.actionsLeft + 1);
    }
    const titles = m.keys.map((k) => k.title);
    for (const named of NAMED_KEYS[path as keyof typeof NAMED_KEYS] ?? [])
      expect.soft(titles, `${path} key columns`).toContain(named);
    // A 操作 column has something in it (a row may offer nothing, like one's own session's 强退).
    if (m.actionsLeft !== null)
      expect.soft(m.emptyActionCells, `${path} 操作 without actions`).toBeLessThan(m.actionRows);
    // Of more than three actions a row shows two and 更多 (shared/list/RowActions.tsx).
    expect.soft(m.mostActionButtons, `${path} 操作 links beside 更多`).toBeLessThanOrEqual(3);
  }
}

/**
 * Two tests at a time (the e2e project's `maxConcurrency`), each in a context and a session of its
 * own: a walk waits on each screen's chunk, rows and render in turn, a second one fills those
 * waits (bench/README.md "Fourteenth pass"). A concurrent test asserts with its own `expect`.
 */
describe.concurrent('every list fits', () => {
  for (const [width, height] of [
    [1280, 800],
    [1440, 900],
  ] as const) {
    it(`as the administrator at ${width}×${height}`, { timeout: LONG }, async ({ expect }) => {
      const { context, page } = await newPage(browser, width, height);
      try {
        await signIn(context, password);
        await checkLists(page, width, expect);
        // The administrator may save the 科目映射: its rows have 保存.
        expect(await actionHeaders(page, ...ACTION_TABLES[0])).toBeGreaterThan(0);
      } finally {
        await context.close();
      }
    });

    it(`as a read-only user at ${width}×${height}`, { timeout: LONG }, async ({ expect }) => {
      const { context, page } = await newPage(browser, width, height);
      try {
        await signIn(context, auditorPassword, 'auditor');
        await checkLists(page, width, expect);
        // 用户管理 offers a read-only user nothing: no 操作 column at all.
        const users = await openList(page, '/permission/user');
        expect(await users.locator('.ant-table-thead th', { hasText: /^操作$/ }).count()).toBe(0);
        for (const [path, testId] of ACTION_TABLES)
          expect.soft(await actionHeaders(page, path, testId), `${path} 操作 without actions`).toBe(0);
      } finally {
        await context.close();
      }
    });
  }

  it(
    'on a 390 px phone no page is wider than the screen, and lists show a card per row',
    { timeout: LONG },
    async ({ expect }) => {
      const { context, page } = await newPage(browser, 390, 844);
      try {
        await signIn(context, password);
        for (const [i, path] of LISTS.entries()) {
          const list = await openList(page, path, i === 0 ? 'load' : 'in-app');
          const wide = await page.evaluate(() => document.documentElement.scrollWidth);
          expect.soft(wide, `${path} is wider than the phone`).toBeLessThanOrEqual(390);
          // The header's user menu is on the screen, not cut off or beyond its edge.
          const menu = (await page.getByTestId('user-menu').filter({ visible: true }).first().boundingBox())!;
          expect.soft(menu.x + menu.width, `${path} user menu beyond the screen`).toBeLessThanOrEqual(390);
          expect.soft(await list.locator('.list-cards').count(), `${path} cards`).toBe(1);
          // The website's side menus fold on a phone: its lists start on the first screen.
          if (/^\/(crm|ec|dw)\//.test(path))
            expect
              .soft((await list.boundingBox())!.y, `${path} starts below the first screen`)
              .toBeLessThan(400);
        }
        // Screens that are not lists fit too: the dashboard and the ledger.
        for (const [path, testId] of [
          ['/dashboard', 'dashboard'],
          ['/factoring/accounts/ledger', 'ledger'],
        ] as const) {
          await openScreen(page, `${base}${path}`, testId);
          await page.locator('.ant-spin-spinning').first().waitFor({ state: 'detached', timeout: 20_000 });
          const wide = await page.evaluate(() => document.documentElement.scrollWidth);
          expect.soft(wide, `${path} is wider than the phone`).toBeLessThanOrEqual(390);
          const menu = (await page.getByTestId('user-menu').filter({ visible: true }).first().boundingBox())!;
          expect.soft(menu.x + menu.width, `${path} user menu beyond the screen`).toBeLessThanOrEqual(390);
        }
      } finally {
        await context.close();
      }
    },
  );

  it(
    'at 1280×800 the contract editor’s 应收账款 cells stay in their columns',
    { timeout: LONG },
    async ({ expect }) => {
      const { context, page } = await newPage(browser, 1280, 800);
      try {
        await signIn(context, password);
        const editor = await openScreen(page, `${base}/factoring/contract/info-editor`, 'contract-editor');
        const rows = editor.getByTestId('receivables-editor');
        if ((await rows.getByLabel('发票代码').count()) === 0)
          await rows.getByRole('button', { name: /添加应收账款/ }).click();
        const labels = ['发票代码', '发票号码', '开票日期', '发票金额', '债务人名称', '到期日'];
        const boxes = [];
        for (const label of labels) {
          const cell = rows
            .getByRole('cell')
            .filter({ has: page.getByLabel(label, { exact: true }) })
            .first();
          // The visible control: a picker cell also holds its hidden code field.
          const input = cell
            .locator('.ant-input, .ant-input-number, .ant-picker, .ant-select')
            .filter({ visible: true })
            .first();
          boxes.push({ label, cell: (await cell.boundingBox())!, input: (await input.boundingBox())! });
        }
        for (const [i, b] of boxes.entries()) {
          expect(b.input.x + b.input.width, `${b.label} runs out of its column`).toBeLessThanOrEqual(
            b.cell.x + b.cell.width + 0.5,
          );
          const next = boxes[i + 1];
          if (next)
            expect(b.input.x + b.input.width, `${b.label} runs under ${next.label}`).toBeLessThanOrEqual(
              next.input.x,
            );
        }
      } finally {
        await context.close();
      }
    },
  );
});
