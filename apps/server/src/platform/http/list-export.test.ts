import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import Fastify from 'fastify';
import { INCOME_EXPORT_FILE_NAME, type IncomeRow } from '@portal/contract/accounts';
import type { Page } from '@portal/contract/api';
import { CONTRACT_PATHS, type ContractListRow } from '@portal/contract/contract';
import { CREDIT_PATHS, creditHistoryFileName } from '@portal/contract/credit';
import { PERMISSION_PATHS, type UserView } from '@portal/contract/permission';
import { PA_PATHS } from '@portal/contract/prepayment';
import { INCOME_PATHS, PAID_PATHS } from '@portal/contract/accounts';
import {
  createTestPortal,
  createUserWithCodes,
  type TestClient,
  type TestPortal,
} from '../../testing/harness';
import { addChecker, creditApi } from '../../modules/credit/testkit';
import { addOwnAccount, contractBody, contractFixture, draftContract } from '../../modules/contract/testkit';
import { incomeApi } from '../../modules/paid/testkit';
import { streamListExport } from './export';
import { MONEY_FMT, moneyCell } from './xlsx';

/**
 * The business lists' sort, amount ranges and 导出 (docs/architecture.md "List exports"): through
 * the real API for the lists, and the shared export helper on its own for batching and totals.
 */

let t: TestPortal;
let maker: TestClient;
let checker: TestClient;
let bankBizCode: string;
const PAYER = '导出排序测试付款人';

async function sheetOf(raw: Buffer): Promise<ExcelJS.Worksheet> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(raw as unknown as ArrayBuffer);
  return wb.worksheets[0]!;
}

beforeAll(async () => {
  t = await createTestPortal();
  maker = await t.login();
  checker = await addChecker(t);
  bankBizCode = await addOwnAccount(maker);
  for (const [amount, valueDate, serialNo] of [
    ['2500.50', '2026-01-01', 'EXP-1'],
    ['100.10', '2026-01-03', 'EXP-2'],
    ['1234567.89', '2026-01-02', 'EXP-3'],
    ['0.07', '2026-01-10', 'EXP-4'],
  ] as const) {
    await maker.ok(incomeApi.saveBaseInfo, { bankBizCode, payerName: PAYER, amount, valueDate, serialNo });
  }
}, 120_000);
afterAll(() => t.close());

const incomeList = (body: Record<string, unknown>) =>
  maker.ok<Page<IncomeRow>>(incomeApi.list, { payerName: PAYER, pageNum: 1, pageSize: 20, ...body });

describe('list sort (orderBy over the allow-list)', () => {
  it('sorts both ways on the server and refuses a column outside the allow-list', async () => {
    const asc = await incomeList({ orderBy: 'amount', order: 'asc' });
    expect(asc.list.map((r) => r.amount)).toEqual(['0.07', '100.10', '2500.50', '1234567.89']);
    const desc = await incomeList({ orderBy: 'amount', order: 'desc' });
    expect(desc.list.map((r) => r.amount)).toEqual(['1234567.89', '2500.50', '100.10', '0.07']);
    const byDate = await incomeList({ orderBy: 'valueDate', order: 'asc' });
    expect(byDate.list.map((r) => r.serialNo)).toEqual(['EXP-1', 'EXP-3', 'EXP-2', 'EXP-4']);
    // Not sortable: refused with the field named, not silently ignored.
    const bad = await maker.call(incomeApi.list, { pageNum: 1, pageSize: 20, orderBy: 'payerName' });
    expect([bad.status, bad.msg]).toEqual([400, '排序字段取值不正确']);
  });
});

describe('amount and date ranges', () => {
  it('keeps the rows inside both bounds (inclusive), either bound open', async () => {
    const both = await incomeList({
      amountStart: '100.10',
      amountEnd: '2500.50',
      orderBy: 'amount',
      order: 'asc',
    });
    expect(both.list.map((r) => r.amount)).toEqual(['100.10', '2500.50']);
    expect(both.total).toBe(2);
    const from = await incomeList({ amountStart: '2500.51' });
    expect(from.list.map((r) => r.amount)).toEqual(['1234567.89']);
    const to = await incomeList({ amountEnd: '100.09' });
    expect(to.list.map((r) => r.amount)).toEqual(['0.07']);
    const dated = await incomeList({
      valueDateFrom: '2026-01-02',
      valueDateTo: '2026-01-09',
      amountEnd: '5000',
    });
    expect(dated.list.map((r) => r.serialNo)).toEqual(['EXP-2']);
  });

  it('names the field of a bound that is not an amount', async () => {
    const bad = await maker.call(incomeApi.list, { pageNum: 1, pageSize: 20, amountStart: '12.345' });
    expect([bad.status, bad.msg]).toEqual([400, '来款金额起必须是最多两位小数的金额']);
  });

  it('refuses crossed bounds (起 above 止) instead of answering an empty list, the export too', async () => {
    const crossed = { pageNum: 1, pageSize: 20, amountStart: '2500.50', amountEnd: '100.10' };
    const bad = await maker.call(incomeApi.list, crossed);
    expect([bad.status, bad.msg]).toEqual([400, '来款金额起不能大于来款金额止']);
    const exported = await maker.call(`/api${INCOME_PATHS.listExport}`, crossed);
    expect([exported.status, exported.msg]).toEqual([400, '来款金额起不能大于来款金额止']);
    // Equal bounds are one amount, compared as decimals ('100.1' is '100.10').
    const equal = await incomeList({ amountStart: '100.1', amountEnd: '100.10' });
    expect(equal.list.map((r) => r.amount)).toEqual(['100.10']);
    const contracts = await maker.call(`/api${CONTRACT_PATHS.list}`, {
      pageNum: 1,
      pageSize: 20,
      financingAmountStart: '10',
      financingAmountEnd: '9.99',
    });
    expect([contracts.status, contracts.msg]).toEqual([400, '融资金额起不能大于融资金额止']);
  });

  it('filters the contract list by financing amount', async () => {
    const f = await contractFixture(t, maker, checker);
    const small = await draftContract(maker, contractBody(f, { financingAmount: '50000.00' }));
    const big = await draftContract(maker, contractBody(f, { financingAmount: '90000.00' }));
    const list = await maker.ok<Page<ContractListRow>>(`/api${CONTRACT_PATHS.list}`, {
      pageNum: 1,
      pageSize: 20,
      financingAmountStart: '60000',
    });
    const codes = list.list.map((r) => r.bizCode);
    expect(codes).toContain(big.bizCode);
    expect(codes).not.toContain(small.bizCode);
    const res = await maker.call(`/api${CONTRACT_PATHS.listExport}`, {
      pageNum: 1,
      pageSize: 20,
      financingAmountEnd: '50000.00',
      orderBy: 'financingAmount',
      order: 'desc',
    });
    expect(res.httpStatus).toBe(200);
    const ws = await sheetOf(res.raw);
    const rows = ws.getRows(2, ws.rowCount - 2) ?? [];
    expect(rows.map((r) => r.getCell(1).value)).toContain(small.bizCode);
    expect(rows.map((r) => r.getCell(1).value)).not.toContain(big.bizCode);
    expect(rows.every((r) => typeof r.getCell(5).value === 'number')).toBe(true);
  });
});

describe('导出 (xlsx, the filters and sort applied)', () => {
  it('streams the filtered, sorted rows with money as numeric cells Excel can sum', async () => {
    const res = await maker.call(incomeApi.listExport, {
      payerName: PAYER,
      amountStart: '100.00',
      orderBy: 'amount',
      order: 'desc',
      pageNum: 3,
      pageSize: 1,
    });
    expect(res.httpStatus).toBe(200);
    expect(String(res.headers['content-type'])).toContain('spreadsheetml');
    expect(String(res.headers['content-disposition'])).toContain(
      `filename*=UTF-8''${encodeURIComponent(INCOME_EXPORT_FILE_NAME)}`,
    );
    const ws = await sheetOf(res.raw);
    const header = ws.getRow(1).values as unknown[];
    const amountCol = header.indexOf('来款金额');
    expect(amountCol).toBeGreaterThan(0);
    // Paging ignored: every matching row (3), largest first, then 合计.
    expect(ws.rowCount).toBe(1 + 3 + 1);
    const amounts = [2, 3, 4].map((r) => ws.getRow(r).getCell(amountCol));
    expect(amounts.map((c) => c.value)).toEqual([1234567.89, 2500.5, 100.1]);
    for (const c of amounts) expect(c.numFmt).toBe(MONEY_FMT);
    const total = ws.getRow(5);
    expect(total.getCell(1).value).toBe('合计');
    // The incomings are drafts: listed, but not in force, so the 合计 counts none of them.
    expect(total.getCell(2).value).toBe('0笔（不含未生效3笔）');
    expect(total.getCell(amountCol).value).toBe(0);
    expect(total.getCell(amountCol).numFmt).toBe(MONEY_FMT);
  });

  it('needs the list’s export button, and refuses bad filters as JSON before any byte', async () => {
    await createUserWithCodes(t.database.db, 'incomelister', 'Export@12345678', ['ft-income']);
    const lister = await t.login('incomelister', 'Export@12345678');
    expect((await lister.call(incomeApi.list, { pageNum: 1, pageSize: 20 })).status).toBe(200);
    expect((await lister.call(incomeApi.listExport, { pageNum: 1, pageSize: 20 })).status).toBe(401);
    const bad = await maker.call(incomeApi.listExport, { pageNum: 1, pageSize: 20, orderBy: 'nope' });
    expect([bad.httpStatus, bad.msg]).toEqual([400, '排序字段取值不正确']);
  });

  it('answers an xlsx on every business list that has one', async () => {
    const exports: [string, Record<string, unknown>, string][] = [
      [PAID_PATHS.listExport, { amountStart: '0.01' }, '核销编号'],
      [PA_PATHS.listExport, { amountEnd: '99999999' }, '前期款编号'],
      [CREDIT_PATHS.creditListExport, { limitAmountStart: '1000000', orderBy: 'limitAmount' }, '授信编号'],
    ];
    for (const [path, body, first] of exports) {
      const res = await maker.call(`/api${path}`, { pageNum: 1, pageSize: 20, ...body });
      expect(res.httpStatus, path).toBe(200);
      const ws = await sheetOf(res.raw);
      expect(ws.getRow(1).getCell(1).value, path).toBe(first);
      expect(ws.getRow(ws.rowCount).getCell(1).value, path).toBe('合计');
    }
    // The credit of the contract fixture: its 授信额度 a number.
    const credit = await sheetOf(
      (
        await maker.call(`/api${CREDIT_PATHS.creditListExport}`, {
          pageNum: 1,
          pageSize: 20,
          limitAmountStart: '1000000',
          limitAmountEnd: '1000000',
        })
      ).raw,
    );
    expect(credit.rowCount).toBeGreaterThanOrEqual(3);
    expect(credit.getRow(2).getCell(5).value).toBe(1000000);
  });

  it('exports a credit’s occupation ledger (授信历史), its movements counted, not summed', async () => {
    const f = await contractFixture(t, maker, checker, { limit: '300000.00' });
    const history = await maker.ok<unknown[]>(creditApi.creditHistory, undefined, {
      query: { bizCode: f.credBizCode },
    });
    const res = await maker.call(creditApi.creditHistoryExport, undefined, {
      query: { bizCode: f.credBizCode },
    });
    expect(res.httpStatus).toBe(200);
    expect(String(res.headers['content-disposition'])).toContain(
      encodeURIComponent(creditHistoryFileName(f.credBizCode)),
    );
    const ws = await sheetOf(res.raw);
    expect(ws.rowCount).toBe(1 + history.length + 1);
    expect(history.length).toBeGreaterThan(0);
    expect(ws.getRow(1).getCell(5).value).toBe('变动后额度');
    expect(ws.getRow(2).getCell(5).value).toBe(300000);
    expect(ws.getRow(2).getCell(5).numFmt).toBe(MONEY_FMT);
    const total = ws.getRow(ws.rowCount);
    expect(total.getCell(2).value).toBe(`${history.length}笔`);
    expect(total.getCell(5).value).toBeNull();
    // Another credit's code beside it: refused like the view.
    const other = await maker.call(creditApi.creditHistoryExport, undefined, {
      query: { bizCode: f.credBizCode, credBizCode: '000000999999' },
    });
    expect(other.httpStatus).toBe(404);
  });

  it('exports the users sorted as asked', async () => {
    const list = await maker.ok<Page<UserView>>(`/api${PERMISSION_PATHS.userList}`, {
      pageNum: 1,
      pageSize: 500,
      orderBy: 'userName',
      order: 'desc',
    });
    const res = await maker.call(`/api${PERMISSION_PATHS.userListExport}`, {
      pageNum: 1,
      pageSize: 20,
      orderBy: 'userName',
      order: 'desc',
    });
    const ws = await sheetOf(res.raw);
    const names = (ws.getRows(2, ws.rowCount - 2) ?? []).map((r) => r.getCell(2).value);
    expect(names).toEqual(list.list.map((u) => u.userName));
    expect(ws.getRow(ws.rowCount).getCell(2).value).toBe(`${list.total}人`);
  });
});

describe('the shared export helper', () => {
  it('walks the list in batches, sums money exactly and keeps a figure a double cannot hold as text', async () => {
    const rows = Array.from({ length: 7 }, (_, i) => ({ code: `R${i}`, amount: `${i}.10` }));
    rows.push({ code: 'HUGE', amount: '9999999999999999.99' });
    const asked: number[] = [];
    const app = Fastify();
    app.post('/x', async (_req, reply) => {
      await streamListExport<(typeof rows)[number]>(reply, {
        fileName: '测试.xlsx',
        sheetName: '测试',
        unit: '笔',
        batchSize: 3,
        columns: [
          { header: '编号', value: (r) => r.code },
          { header: '说明', value: () => 'x' },
          { header: '金额', money: true, value: (r) => r.amount },
        ],
        page: async (pageNum, size) => {
          asked.push(pageNum);
          return rows.slice((pageNum - 1) * size, pageNum * size);
        },
      });
      return reply;
    });
    const res = await app.inject({ method: 'POST', url: '/x' });
    await app.close();
    expect(asked).toEqual([1, 2, 3]);
    const ws = await sheetOf(res.rawPayload);
    expect(ws.rowCount).toBe(1 + 8 + 1);
    expect(ws.getRow(2).getCell(3).value).toBe(0.1);
    expect(ws.getRow(9).getCell(3).value).toBe('9999999999999999.99');
    expect(ws.getRow(10).getCell(2).value).toBe('8笔');
    // 0.10 + 1.10 + … + 6.10 + 9999999999999999.99, exact: too long for a double, so text.
    expect(ws.getRow(10).getCell(3).value).toBe('10000000000000021.69');
  });

  it('moneyCell: a number when the double gives the cents back, else the exact text', () => {
    expect(moneyCell('1234567.80')).toBe(1234567.8);
    expect(moneyCell('-0.01')).toBe(-0.01);
    expect(moneyCell(null)).toBeNull();
    expect(moneyCell('12345678901234567.89')).toBe('12345678901234567.89');
  });
});
