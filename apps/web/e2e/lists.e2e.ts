import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import ExcelJS from 'exceljs';
import type { Browser, Locator, Page } from 'playwright-core';
import { INCOME_EXPORT_FILE_NAME, INCOME_PATHS } from '@portal/contract/accounts';
import { BANK_PATHS, type BankAccountView } from '@portal/contract/bank';
import { CONTRACT_PATHS } from '@portal/contract/contract';
import { PERMISSION_PATHS } from '@portal/contract/permission';
import {
  activePage,
  apiCall,
  launchBrowser,
  navigateInApp,
  newPage,
  shotPath,
  base,
  signIn,
  sessionToken,
} from './helpers';
import { data, today } from './flows';

/**
 * The business lists as an office sees them: they fit the window at 1440 and 800 wide (the page
 * never scrolls sideways, 操作 stays in view, no cell wraps one character per line), and their
 * columns sort on the server.
 */
const password = inject('adminPassword');
let browser: Browser;
let token: string;
/** This run's incomings: their payer names hold it. */
let run: string;

beforeAll(async () => {
  browser = await launchBrowser();
  token = await sessionToken(password);
  // A few incomings, so that the money lists have rows with long names.
  const accounts = await data<{ list: BankAccountView[] }>(BANK_PATHS.list, token, {
    ownerType: 'self',
    pageNum: 1,
    pageSize: 10,
  });
  const n = String(Date.now()).slice(-6);
  run = `第${n}`;
  for (const [i, amount] of ['300.00', '10.00', '2000.00'].entries()) {
    await data(INCOME_PATHS.saveBaseInfo, token, {
      bankBizCode: accounts.list[0]!.bizCode,
      payerName: `一家名字相当长的付款人有限责任公司第${n}${i}分公司`,
      amount,
      valueDate: today(),
      serialNo: `LS${n}${i}`,
    });
  }
});
afterAll(async () => {
  await browser?.close();
});

const LISTS = [
  '/factoring/contract/info',
  '/factoring/accounts/income',
  '/factoring/accounts/paid',
  '/factoring/pa/mgr',
  '/permission/user',
] as const;

/** A list with its rows: loaded with the app, or (the walk's next list) opened in the running app. */
async function openList(page: Page, path: string, how: 'load' | 'in-app' = 'load'): Promise<Locator> {
  if (how === 'load') await page.goto(`${base}${path}`);
  else await navigateInApp(page, path);
  const list = activePage(page, path);
  await list.locator('.ant-table').first().waitFor({ timeout: 20_000 });
  await list.locator('.ant-spin-spinning').first().waitFor({ state: 'detached', timeout: 20_000 });
  return list;
}

describe('lists fit the window', () => {
  for (const width of [1440, 800]) {
    it(`at ${width} px: no sideways page scroll, 操作 fixed in view, no cell wraps`, async () => {
      const { context, page } = await newPage(browser, width, 900);
      try {
        await signIn(context, password);
        for (const [i, path] of LISTS.entries()) {
          const list = await openList(page, path, i === 0 ? 'load' : 'in-app');
          const overflow = await page.evaluate(
            () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
          );
          expect(overflow, `${path} scrolls the page sideways`).toBeLessThanOrEqual(0);
          // An empty list has no 操作 column (docs/architecture.md "Lists fit their box").
          if ((await list.locator('.ant-table-tbody tr.ant-table-row').count()) > 0) {
            const actions = list.locator('.ant-table-thead th', { hasText: '操作' }).first();
            expect(await actions.getAttribute('class'), `${path} 操作`).toMatch(
              /ant-table-cell-fix-(right|end)\b/,
            );
            const box = (await actions.boundingBox())!;
            expect(box.x + box.width, `${path} 操作 cut off`).toBeLessThanOrEqual(width);
          }
          // One line per cell: a header or a row of one character per line is several lines tall.
          const tallest = await list.evaluate((el) => {
            const cells = [
              ...el.querySelectorAll<HTMLElement>('.ant-table-thead th, .ant-table-tbody tr.ant-table-row'),
            ];
            return Math.max(0, ...cells.map((c) => c.getBoundingClientRect().height));
          });
          expect(tallest, `${path} has a wrapped cell`).toBeLessThan(64);
        }
      } finally {
        await context.close();
      }
    });
  }

  it('a long cell is cut with an ellipsis and shown whole in a tooltip', async () => {
    const { context, page } = await newPage(browser, 800, 900);
    try {
      await signIn(context, password);
      const list = await openList(page, '/factoring/accounts/income');
      const cell = list
        .locator('.ant-table-tbody td.ant-table-cell-ellipsis', { hasText: '一家名字相当长' })
        .first();
      await cell.locator('span').first().hover();
      const tip = page.locator('.ant-tooltip:visible', { hasText: '一家名字相当长的付款人有限责任公司' });
      await tip.waitFor();
    } finally {
      await context.close();
    }
  });
});

describe('lists sort on the server', () => {
  /** The row keys shown, in order. */
  const shown = (list: Locator) =>
    list
      .locator('.ant-table-tbody tr.ant-table-row')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-row-key')));

  async function sortsLike(
    path: string,
    header: string,
    listPath: string,
    orderBy: string,
    key: string,
  ): Promise<void> {
    const { context, page } = await newPage(browser);
    try {
      await signIn(context, password);
      const list = await openList(page, path);
      const th = list.locator('.ant-table-thead th', { hasText: header }).first();
      for (const order of ['asc', 'desc'] as const) {
        await th.click();
        await expect
          .poll(() => th.getAttribute('aria-sort'))
          .toBe(order === 'asc' ? 'ascending' : 'descending');
        const want = await data<{ list: Record<string, string>[] }>(listPath, token, {
          pageNum: 1,
          pageSize: 20,
          orderBy,
          order,
        });
        await expect.poll(() => shown(list), { timeout: 10_000 }).toEqual(want.list.map((r) => r[key]));
      }
    } finally {
      await context.close();
    }
  }

  it('用户管理 by 用户名, both ways', async () => {
    await sortsLike('/permission/user', '用户名', PERMISSION_PATHS.userList, 'userName', 'userCode');
  });

  it('来款 by 来款金额, both ways', async () => {
    await sortsLike('/factoring/accounts/income', '来款金额', INCOME_PATHS.list, 'amount', 'fiidBizCode');
  });

  it('a column outside the allow-list is refused with a Chinese message', async () => {
    const r = await apiCall(base, CONTRACT_PATHS.list, token, {
      pageNum: 1,
      pageSize: 20,
      orderBy: 'password',
    });
    const body = r.json as { status: number; msg: string };
    expect(body.status).toBe(400);
    expect(body.msg).toContain('排序字段取值不正确');
  });
});

describe('money lists filter on an amount range and export what they show', () => {
  it('来款: 来款金额起 narrows the list, and 导出 holds those rows sorted, money as numbers', async () => {
    const { context, page } = await newPage(browser);
    try {
      await signIn(context, password);
      const list = await openList(page, '/factoring/accounts/income');
      await list.getByLabel('付款人', { exact: true }).fill(run);
      await list.getByLabel('来款金额起').fill('100');
      await list.getByRole('button', { name: /查\s*询/ }).click();
      const firstRow = () => list.locator('.ant-table-tbody tr.ant-table-row').first().textContent();
      // 300.00 and 2000.00 (and their 未核销余额), not 10.00.
      await expect.poll(() => list.locator('.ant-table-tbody tr.ant-table-row').count()).toBe(2);
      const th = list.locator('.ant-table-thead th', { hasText: '来款金额' }).first();
      await th.click();
      await expect.poll(() => th.getAttribute('aria-sort')).toBe('ascending');
      await expect.poll(firstRow).not.toContain('2,000.00');
      await th.click();
      await expect.poll(() => th.getAttribute('aria-sort')).toBe('descending');
      await expect.poll(firstRow).toContain('2,000.00');

      const downloading = page.waitForEvent('download');
      await list.getByRole('button', { name: /导\s*出/ }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toBe(INCOME_EXPORT_FILE_NAME);
      const path = shotPath('lists-income-export.xlsx');
      await download.saveAs(path);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(readFileSync(path) as unknown as ArrayBuffer);
      const ws = wb.worksheets[0]!;
      const col = (ws.getRow(1).values as unknown[]).indexOf('来款金额');
      // Header, the two rows largest first, 合计. Both are drafts, not in force: listed with their
      // state and left out of 合计 (docs/money-rules.md "Totals").
      expect(ws.rowCount).toBe(4);
      expect([2, 3, 4].map((r) => ws.getRow(r).getCell(col).value)).toEqual([2000, 300, 0]);
      expect(ws.getRow(2).getCell(col).numFmt).toBe('#,##0.00');
      expect(ws.getRow(4).getCell(2).value).toBe('0笔（不含未生效2笔）');
    } finally {
      await context.close();
    }
  });
});
