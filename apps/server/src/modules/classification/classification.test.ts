import Decimal from 'decimal.js';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIZDATE_PATHS } from '@portal/contract/bizdate';
import {
  CLASS_MENU,
  CLASS_PATHS,
  proposeClass,
  DEFAULT_CLASS_THRESHOLDS,
  type AssetClass,
  type ClassAdjInit,
  type ClassAdjView,
  type ClassDistribution,
  type ClassMigration,
  type ClassRow,
} from '@portal/contract/classification';
import { LEDGER_PATHS, type LedgerPage } from '@portal/contract/ledger';
import { buttonCode } from '@portal/contract/menus';
import { addDays } from '@portal/contract/plan/dates';
import { SYSPARAM_PATHS, type SysParamsView } from '@portal/contract/sysparams';
import { queryRows } from '../../platform/db/client';
import {
  createTestPortal,
  createUserWithCodes,
  onPostgres,
  type TestClient,
  type TestPortal,
  servedPaths,
} from '../../testing/harness';
import { addChecker, addCustomer, approvedCredit } from '../credit/testkit';
import {
  addOwnAccount,
  addRule,
  approvedContract,
  BULLET_RULE,
  platformLineOf,
  receivable,
  type ContractFixture,
} from '../contract/testkit';
import { disburse } from '../loan/testkit';
import { classBatch, type ClassCursor } from './queries';

/**
 * A hand-built portfolio for the 五级分类 (docs/classification.md): ten bullet contracts of
 * 10,000.00 each, disbursed on their start dates, nothing paid. On the business date D = 2027-03-31
 * each one's single item is overdue by the days in its name (due D − n); `due` is due on D itself
 * (0 days) and `later` is due after D and was disbursed on 2027-03-10 (after the February month end).
 */
const D = '2027-03-31';
const FEB_END = '2027-02-28';
const DAYS = [1, 90, 91, 180, 181, 360, 361] as const;
type Key = 'due' | 'later' | 'fresh' | `d${(typeof DAYS)[number]}`;
const classificationApi = servedPaths(CLASS_PATHS);
const PW = 'Class@12345678';

let t: TestPortal;
let admin: TestClient;
let checker: TestClient;
let portfolio: ContractFixture;
const code = {} as Record<Key, string>;

async function fixture(): Promise<ContractFixture> {
  const custCode = await addCustomer(t.database.db, '分类测试供应商有限公司');
  const credBizCode = await approvedCredit(admin, checker, custCode, {
    over: { limitAmount: '1000000.00', startDate: '2025-06-01', endDate: '2027-12-31' },
  });
  return {
    custCode,
    credBizCode,
    lineCode: await platformLineOf(t, credBizCode),
    ruleBizCode: await addRule(admin, BULLET_RULE),
    bankBizCode: await addOwnAccount(admin),
  };
}

const runDayEnd = async (date: string) => {
  t.portal.clock.set(date);
  await admin.ok(`/api${BIZDATE_PATHS.runDayEnd}`);
};
const list = async (c: TestClient = admin) =>
  (await c.ok<{ list: ClassRow[] }>(classificationApi.list, { pageNum: 1, pageSize: 50 })).list;
const rowOf = (rows: ClassRow[], k: Key) => rows.find((r) => r.contBizCode === code[k])!;

/** The 五级分类 list (every page) summed per class: what the dashboard's card must show. */
async function listDistribution(c: TestClient = admin): Promise<Record<string, [number, string]>> {
  const rows: ClassRow[] = [];
  for (let pageNum = 1; ; pageNum++) {
    const p = await c.ok<{ list: ClassRow[]; total: number }>(classificationApi.list, {
      pageNum,
      pageSize: 4,
    });
    rows.push(...p.list);
    if (rows.length >= p.total || p.list.length === 0) break;
  }
  const out: Record<string, [number, string]> = {};
  for (const k of ['normal', 'watch', 'substandard', 'doubtful', 'loss', 'none']) {
    const mine = rows.filter((r) => (r.assetClass ?? 'none') === k);
    out[k] = [mine.length, mine.reduce((s, r) => s.plus(r.principalOutstanding), new Decimal(0)).toFixed(2)];
  }
  return out;
}
const cardOf = (d: ClassDistribution) =>
  Object.fromEntries(d.rows.map((r) => [r.assetClass, [r.contracts, r.principalOutstanding]]));

beforeAll(async () => {
  t = await createTestPortal({ BUSINESS_DATE: D });
  admin = await t.login();
  checker = await addChecker(t);
  const f = await fixture();
  portfolio = f;
  const make = async (start: string, maturity: string) =>
    (
      await approvedContract(t, admin, checker, {
        fixture: f,
        over: {
          financingAmount: '10000.00',
          startDate: start,
          maturityDate: maturity,
          receivables: [receivable('15000.00', maturity)],
        },
      })
    ).bizCode;
  for (const n of DAYS) code[`d${n}`] = await make(addDays(D, -n - 60), addDays(D, -n));
  code.due = await make(addDays(D, -60), D);
  code.later = await make('2027-03-10', '2027-06-30');
  for (const c of Object.values(code)) await disburse(admin, checker, c);
}, 300_000);
afterAll(() => t?.close());

describe('the proposal from overdue days', () => {
  it('is the pure function at the boundaries', () => {
    const cases: [number, AssetClass][] = [
      [0, 'normal'],
      [1, 'watch'],
      [90, 'watch'],
      [91, 'substandard'],
      [180, 'substandard'],
      [181, 'doubtful'],
      [360, 'doubtful'],
      [361, 'loss'],
    ];
    for (const [days, cls] of cases)
      expect(proposeClass(days, DEFAULT_CLASS_THRESHOLDS), String(days)).toBe(cls);
  });

  it('records each live contract at the day-end, golden at the boundaries', async () => {
    // Nothing is classified before a day-end has run.
    expect(rowOf(await list(), 'd1')).toMatchObject({ assetClass: null, proposedClass: null });
    await runDayEnd(FEB_END);
    await runDayEnd(D);
    const rows = await list();
    const got = Object.fromEntries(
      (Object.keys(code) as Key[]).map((k) => {
        const r = rowOf(rows, k);
        return [k, [r.overdueDays, r.proposedClass, r.assetClass, r.classDate]];
      }),
    );
    expect(got).toEqual({
      due: [0, 'normal', 'normal', D],
      later: [0, 'normal', 'normal', D],
      d1: [1, 'watch', 'watch', D],
      d90: [90, 'watch', 'watch', D],
      d91: [91, 'substandard', 'substandard', D],
      d180: [180, 'substandard', 'substandard', D],
      d181: [181, 'doubtful', 'doubtful', D],
      d360: [360, 'doubtful', 'doubtful', D],
      d361: [361, 'loss', 'loss', D],
    });
    // The ledger's 五级分类 column reads the same record.
    const ledger = await admin.ok<LedgerPage>(`/api${LEDGER_PATHS.list}`, { pageNum: 1, pageSize: 50 });
    expect(ledger.list.find((r) => r.contBizCode === code.d181)!.classification).toBe('doubtful');
    const doubtful = await admin.ok<LedgerPage>(`/api${LEDGER_PATHS.list}`, {
      pageNum: 1,
      pageSize: 50,
      assetClass: 'doubtful',
    });
    expect(doubtful.list.map((r) => r.contBizCode).sort()).toEqual([code.d181, code.d360].sort());
    // A second run of the date writes the same rows.
    await runDayEnd(D);
    expect(await list()).toEqual(rows);
    // Filters and sort.
    const loss = await admin.ok<{ list: ClassRow[]; total: number }>(classificationApi.list, {
      pageNum: 1,
      pageSize: 50,
      assetClass: 'loss',
    });
    expect(loss.list.map((r) => r.contBizCode)).toEqual([code.d361]);
    const sorted = await admin.ok<{ list: ClassRow[] }>(classificationApi.list, {
      pageNum: 1,
      pageSize: 3,
      orderBy: 'overdueDays',
      order: 'desc',
    });
    expect(sorted.list.map((r) => r.overdueDays)).toEqual([361, 360, 181]);
    const bad = await admin.call(classificationApi.list, { pageNum: 1, pageSize: 10, assetClass: 'bad' });
    expect(bad.status).toBe(400);
    expect(bad.msg).toContain('当前分类');
  });

  it('takes changed thresholds from 参数设置 at the next day-end, not before', async () => {
    const sysParamApi = servedPaths(SYSPARAM_PATHS);
    const current = (await admin.ok<SysParamsView>(sysParamApi.get)).params;
    expect(current).toMatchObject({
      classWatchMaxDays: 90,
      classSubstandardMaxDays: 180,
      classDoubtfulMaxDays: 360,
    });
    const refused = await admin.call(sysParamApi.save, { ...current, classSubstandardMaxDays: 90 });
    expect([refused.status, refused.msg]).toEqual([400, '次级类逾期天数上限必须大于关注类逾期天数上限']);
    const refused2 = await admin.call(sysParamApi.save, { ...current, classDoubtfulMaxDays: 100 });
    expect([refused2.status, refused2.msg]).toEqual([400, '可疑类逾期天数上限必须大于次级类逾期天数上限']);
    await admin.ok(sysParamApi.save, {
      ...current,
      classWatchMaxDays: 30,
      classSubstandardMaxDays: 90,
      classDoubtfulMaxDays: 180,
    });
    const [audit] = await queryRows<{ detail: { after: Record<string, unknown> } }>(
      t.database.db,
      sql`select detail from audit_log where entity = 'sysParams' order by id desc limit 1`,
    );
    expect(audit!.detail.after).toEqual({
      classWatchMaxDays: 30,
      classSubstandardMaxDays: 90,
      classDoubtfulMaxDays: 180,
    });
    // Not yet: the record is the day-end's.
    expect(rowOf(await list(), 'd91').assetClass).toBe('substandard');
    await runDayEnd(D);
    const rows = await list();
    const classes = (['d1', 'd90', 'd91', 'd180', 'd181'] as const).map((k) => rowOf(rows, k).assetClass);
    expect(classes).toEqual(['watch', 'substandard', 'doubtful', 'doubtful', 'loss']);
    await admin.ok(sysParamApi.save, current);
    await runDayEnd(D);
    expect(rowOf(await list(), 'd91').assetClass).toBe('substandard');
  });
});

describe('distribution and migration', () => {
  it('distributes count and 本金余额 per class; the totals are the ledger’s', async () => {
    const dist = await admin.ok<ClassDistribution>(classificationApi.distribution, {});
    const by = Object.fromEntries(
      dist.rows.map((r) => [r.assetClass, [r.contracts, r.principalOutstanding]]),
    );
    expect(by).toEqual({
      normal: [2, '20000.00'],
      watch: [2, '20000.00'],
      substandard: [2, '20000.00'],
      doubtful: [2, '20000.00'],
      loss: [1, '10000.00'],
      none: [0, '0.00'],
    });
    const ledger = await admin.ok<LedgerPage>(`/api${LEDGER_PATHS.list}`, { pageNum: 1, pageSize: 1 });
    expect(dist.totals).toEqual({ contracts: 9, principalOutstanding: ledger.totals.principalOutstanding });
    expect(ledger.totals.principalOutstanding).toBe('90000.00');
    // On an earlier date: the February record.
    const feb = await admin.ok<ClassDistribution>(classificationApi.distribution, { asOf: FEB_END });
    expect(feb.rows.find((r) => r.assetClass === 'normal')!.contracts).toBe(2);
    const febLedger = await admin.ok<LedgerPage>(`/api${LEDGER_PATHS.list}`, {
      pageNum: 1,
      pageSize: 1,
      asOf: FEB_END,
    });
    expect(feb.totals.principalOutstanding).toBe(febLedger.totals.principalOutstanding);
  });

  it('gives the from × to matrix between two month ends', async () => {
    const m = await admin.ok<ClassMigration>(classificationApi.migration, {
      fromMonth: '2027-02',
      toMonth: '2027-03',
    });
    expect([m.fromDate, m.toDate]).toEqual([FEB_END, D]);
    // On 02-28 each item was 31 days less overdue: d1 and due not yet due, d90/d91 59/60 days, …
    const nonZero = Object.fromEntries(
      m.froms.flatMap((f) =>
        m.tos.filter((to) => m.cells[f][to] > 0).map((to) => [`${f}>${to}`, m.cells[f][to]]),
      ),
    );
    expect(nonZero).toEqual({
      'normal>normal': 1,
      'normal>watch': 1,
      'watch>watch': 1,
      'watch>substandard': 1,
      'substandard>substandard': 1,
      'substandard>doubtful': 1,
      'doubtful>doubtful': 1,
      'doubtful>loss': 1,
      'new>normal': 1,
    });
    const bad = await admin.call(classificationApi.migration, { fromMonth: '2027-03', toMonth: '2027-02' });
    expect([bad.status, bad.msg]).toEqual([400, '截止月份必须晚于起始月份']);
  });

  it('gives the dashboard’s card the 五级分类 list’s own distribution, from the stored record', async () => {
    const card = await admin.ok<ClassDistribution>(classificationApi.distribution, {});
    expect(card.asOf).toBe(D);
    expect(cardOf(card)).toEqual(await listDistribution());
    // A contract disbursed after the latest day-end is 未分类 on both, with its balance.
    const fresh = await approvedContract(t, admin, checker, {
      fixture: portfolio,
      over: {
        financingAmount: '2500.50',
        startDate: D,
        maturityDate: '2027-09-30',
        receivables: [receivable('4000.00', '2027-09-30')],
      },
    });
    await disburse(admin, checker, fresh.bizCode);
    const after = await admin.ok<ClassDistribution>(classificationApi.distribution, {});
    expect(cardOf(after).none).toEqual([1, '2500.50']);
    expect(cardOf(after)).toEqual(await listDistribution());
    const ledger = await admin.ok<LedgerPage>(`/api${LEDGER_PATHS.list}`, { pageNum: 1, pageSize: 1 });
    expect(after.totals).toEqual({
      contracts: ledger.totals.contracts,
      principalOutstanding: ledger.totals.principalOutstanding,
    });
    // The stored record is what it reads: a row changed under it shows on the card at once.
    await t.database.db.execute(
      sql`update contract_classes set asset_class = 'loss', proposed_class = 'loss'
           where contract_id = (select id from contracts where biz_code = ${code.due}) and business_date = ${D}::date`,
    );
    expect(cardOf(await admin.ok<ClassDistribution>(classificationApi.distribution, {})).loss).toEqual([
      2,
      '20000.00',
    ]);
    await t.database.db.execute(
      sql`update contract_classes set asset_class = 'normal', proposed_class = 'normal'
           where contract_id = (select id from contracts where biz_code = ${code.due}) and business_date = ${D}::date`,
    );
    // A user who sees only their own contracts gets the card of their rows (none here).
    await createUserWithCodes(t.database.db, 'class-card-own', PW, [CLASS_MENU], { dataScope: 'self' });
    const own = await t.login('class-card-own', PW);
    const mine = await own.ok<ClassDistribution>(classificationApi.distribution, {});
    expect(mine.totals).toEqual({ contracts: 0, principalOutstanding: '0.00' });
    expect(cardOf(mine)).toEqual(await listDistribution(own));
    code.fresh = fresh.bizCode;
  });
});

/** The 导出 of the 五级分类 list, read back. */
async function exported(filters: Record<string, unknown>) {
  const res = await admin.call(classificationApi.export, filters);
  expect(res.httpStatus).toBe(200);
  expect(res.headers['content-type']).toContain('spreadsheetml');
  expect(String(res.headers['content-disposition'])).toContain(encodeURIComponent('五级分类.xlsx'));
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(res.raw as unknown as ArrayBuffer);
  return wb.worksheets[0]!;
}

describe('the 五级分类 导出', () => {
  it('writes the list’s rows with its filters, money as numbers with two decimals, and a 合计 row', async () => {
    const ws = await exported({});
    expect(String(ws.getRow(1).getCell(1).value)).toBe(`五级分类  分类日期：${D}`);
    const head = (ws.getRow(2).values as unknown[]).slice(1);
    expect(head).toEqual([
      '合同编号',
      '合同号',
      '客户名称',
      '本金余额',
      '坏账准备',
      '逾期天数',
      '建议分类',
      '当前分类',
      '分类日期',
      '调整单号',
      '待审调整单',
    ]);
    const col = (h: string) => head.indexOf(h) + 1;
    const rows = await list();
    // Ten contracts (nine classified, one not yet) in the list's order, most overdue first.
    expect(ws.rowCount).toBe(2 + 10 + 1);
    const body = Array.from({ length: 10 }, (_, i) => ws.getRow(3 + i));
    expect(body.map((r) => r.getCell(1).value)).toEqual(rows.map((r) => r.contBizCode));
    const d181 = body.find((r) => r.getCell(1).value === code.d181)!;
    expect(d181.getCell(col('本金余额')).value).toBe(10000);
    expect(d181.getCell(col('本金余额')).numFmt).toBe('#,##0.00');
    expect(d181.getCell(col('逾期天数')).value).toBe(181);
    expect([d181.getCell(col('建议分类')).value, d181.getCell(col('当前分类')).value]).toEqual([
      '可疑',
      '可疑',
    ]);
    expect(d181.getCell(col('分类日期')).value).toBe(D);
    const fresh = body.find((r) => r.getCell(1).value === code.fresh)!;
    expect(fresh.getCell(col('本金余额')).value).toBe(2500.5);
    expect(fresh.getCell(col('当前分类')).value).toBe('未分类');
    const total = ws.getRow(13);
    expect([total.getCell(1).value, total.getCell(2).value]).toEqual(['合计', '10笔']);
    expect(total.getCell(col('本金余额')).value).toBe(92500.5);
    expect(total.getCell(col('本金余额')).numFmt).toBe('#,##0.00');

    // Filters as on the screen.
    const doubtful = await exported({ assetClass: 'doubtful' });
    expect(doubtful.rowCount).toBe(2 + 2 + 1);
    expect([doubtful.getRow(3).getCell(1).value, doubtful.getRow(4).getCell(1).value]).toEqual([
      code.d360,
      code.d181,
    ]);
    expect(doubtful.getRow(5).getCell(col('本金余额')).value).toBe(20000);
    const named = await exported({ contractNo: 'nothing-like-it' });
    expect(named.rowCount).toBe(2 + 1);
    expect(named.getRow(3).getCell(2).value).toBe('0笔');
    const bad = await admin.call(classificationApi.export, { assetClass: 'bad' });
    expect([bad.status, bad.msg.includes('当前分类')]).toEqual([400, true]);
  });

  it('walks the list in keyset batches that together are the list', async () => {
    const all = { dataScope: 'all' as const, deptId: null, userId: 0 };
    const seen: string[] = [];
    let after: ClassCursor | null = null;
    for (;;) {
      const b = await classBatch(t.database.db, {}, all, D, after, 3);
      expect(b.rows.length).toBeLessThanOrEqual(3);
      seen.push(...b.rows.map((r) => r.contBizCode));
      if (b.next === null) break;
      after = b.next;
    }
    expect(seen).toEqual((await list()).map((r) => r.contBizCode));
  });

  it('needs the screen’s 导出 button', async () => {
    await createUserWithCodes(t.database.db, 'class-no-export', PW, [CLASS_MENU]);
    const reader = await t.login('class-no-export', PW);
    expect((await reader.call(classificationApi.export, {})).status).toBe(401);
    await createUserWithCodes(
      t.database.db,
      'class-export',
      PW,
      [CLASS_MENU, buttonCode(CLASS_MENU, 'export')],
      {
        dataScope: 'self',
      },
    );
    const own = await t.login('class-export', PW);
    const res = await own.call(classificationApi.export, {});
    expect(res.httpStatus).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.raw as unknown as ArrayBuffer);
    // Their own contracts only: none.
    expect(wb.worksheets[0]!.rowCount).toBe(3);
  });
});

describe('the 分类调整单', () => {
  let adj = '';

  it('answers 401 without the codes, and keeps other organisations’ rows out of sight', async () => {
    await createUserWithCodes(t.database.db, 'class-none', PW, ['permission-user']);
    const none = await t.login('class-none', PW);
    expect((await none.call(classificationApi.list, { pageNum: 1, pageSize: 10 })).status).toBe(401);
    expect((await none.call(classificationApi.distribution, {})).status).toBe(401);
    await createUserWithCodes(t.database.db, 'class-reader', PW, [CLASS_MENU]);
    const reader = await t.login('class-reader', PW);
    expect((await reader.call(classificationApi.list, { pageNum: 1, pageSize: 10 })).status).toBe(200);
    const save = await reader.call(classificationApi.saveBaseInfo, {
      contBizCode: code.d361,
      toClass: 'doubtful',
      reason: '抵押充足',
    });
    expect(save.status).toBe(401);
    expect((await t.client().call(classificationApi.list, { pageNum: 1, pageSize: 10 })).status).toBe(403);
    // Own rows only: the admin's contracts are not this user's.
    await createUserWithCodes(
      t.database.db,
      'class-own',
      PW,
      [CLASS_MENU, ...(['add', 'save', 'audit'] as const).map((a) => buttonCode(CLASS_MENU, a))],
      { dataScope: 'self' },
    );
    const own = await t.login('class-own', PW);
    expect(await list(own)).toEqual([]);
    const hidden = await own.call(classificationApi.saveBaseInfo, {
      contBizCode: code.d361,
      toClass: 'doubtful',
      reason: '抵押充足',
    });
    expect([hidden.status, hidden.msg]).toEqual([404, '合同不存在']);
  });

  it('refuses bad input naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ contBizCode: code.d361, toClass: 'bad', reason: '原因' }, '调整后分类'],
      [{ contBizCode: code.d361, toClass: 'doubtful', reason: '' }, '调整原因'],
      [{ contBizCode: code.d361, toClass: 'loss', reason: '原因' }, '调整后分类与当前分类（损失）相同'],
    ];
    for (const [body, msg] of cases) {
      const r = await admin.call(classificationApi.saveBaseInfo, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.msg).toContain(msg);
    }
  });

  it('goes to a checker: the maker cannot approve it, a rejection changes nothing, an approval does', async () => {
    const init = await admin.ok<ClassAdjInit>(classificationApi.initBase, undefined, {
      query: { contBizCode: code.d361 },
    });
    expect(init).toMatchObject({ overdueDays: 361, proposedClass: 'loss', fromClass: 'loss' });
    const saved = await admin.ok<{ adjBizCode: string; version: number; state: string }>(
      classificationApi.saveBaseInfo,
      {
        contBizCode: code.d361,
        toClass: 'doubtful',
        reason: '抵押物足值，预计可收回',
        submit: true,
      },
    );
    adj = saved.adjBizCode;
    expect(adj).toMatch(/^\d{12}$/);
    expect(saved.state).toBe('pending');
    const twice = await admin.call(classificationApi.saveBaseInfo, {
      contBizCode: code.d361,
      toClass: 'substandard',
      reason: '再调',
    });
    expect([twice.status, twice.msg]).toEqual([409, `该合同已有未审核的分类调整单 ${adj}`]);
    const self = await admin.call(
      classificationApi.audit,
      { comment: '自审' },
      { query: { adjBizCode: adj } },
    );
    expect([self.status, self.msg]).toEqual([409, '经办人和复核人相同，不可复核']);
    await checker.ok(classificationApi.unAudit, { comment: '依据不足' }, { query: { adjBizCode: adj } });
    expect(rowOf(await list(), 'd361')).toMatchObject({
      assetClass: 'loss',
      adjBizCode: null,
      openAdjBizCode: adj,
    });
    const view = await admin.ok<ClassAdjView>(classificationApi.viewBaseInfo, undefined, {
      query: { adjBizCode: adj },
    });
    expect(view).toMatchObject({ state: 'rejected', fromClass: 'loss', toClass: 'doubtful' });
    const again = await admin.ok<{ state: string }>(classificationApi.saveBaseInfo, {
      adjBizCode: adj,
      version: view.version,
      contBizCode: code.d361,
      toClass: 'doubtful',
      reason: '抵押物足值，附评估报告',
      submit: true,
    });
    expect(again.state).toBe('pending');
    await checker.ok(classificationApi.audit, { comment: '同意' }, { query: { adjBizCode: adj } });
    expect(rowOf(await list(), 'd361')).toMatchObject({
      assetClass: 'doubtful',
      proposedClass: 'loss',
      adjBizCode: adj,
      openAdjBizCode: null,
    });
    const approved = await admin.ok<ClassAdjView>(classificationApi.viewBaseInfo, undefined, {
      query: { adjBizCode: adj },
    });
    expect(approved).toMatchObject({ state: 'approved', effectiveDate: D });
    const audits = await queryRows<{ action: string }>(
      t.database.db,
      sql`select action from audit_log where (entity = 'classAdjust' and entity_code = ${adj})
            or (entity = 'contract' and action = 'classAdjust') order by id`,
    );
    expect(audits.map((a) => a.action)).toEqual(expect.arrayContaining(['create', 'update', 'classAdjust']));
    // One audit row per save, written by the document pipeline (never a second one by the module).
    const count = (action: string) => audits.filter((a) => a.action === action).length;
    expect([count('create'), count('update')]).toEqual([1, 1]);
    // The adjusted class is what the ledger and the distribution show.
    const dist = await admin.ok<ClassDistribution>(classificationApi.distribution, {});
    expect(dist.rows.find((r) => r.assetClass === 'loss')!.contracts).toBe(0);
    expect(dist.rows.find((r) => r.assetClass === 'doubtful')!.contracts).toBe(3);
  });

  it('prints through the standard 分类调整单 template with its maker and checker', async () => {
    const PRINT = '/api/ft/api/print/perViewHtml';
    const res = await admin.call(PRINT, { bizType: 'classAdjust', docCode: adj });
    expect(res.httpStatus).toBe(200);
    const html = res.raw.toString('utf8');
    const [names] = await queryRows<{ maker: string; checker: string }>(
      t.database.db,
      sql`select (select actor_name from wf_records where doc_type = 'classAdjust' and doc_code = ${adj}
                    and action = 'submit' order by id desc limit 1) as maker,
                 (select actor_name from wf_records where doc_type = 'classAdjust' and doc_code = ${adj}
                    and action = 'approve' order by id desc limit 1) as checker`,
    );
    expect(names!.maker).not.toBe(names!.checker);
    for (const part of [
      '<h1>五级分类调整单</h1>',
      `单据编号：${adj}`,
      '<th>逾期天数</th><td>361</td><th>建议分类</th><td>损失</td>',
      '<th>调整前分类</th><td>损失</td><th>调整后分类</th><td>可疑</td>',
      '<th>调整原因</th><td colspan="3">抵押物足值，附评估报告</td>',
      `<th>审核状态</th><td>已审核</td><th>生效日期</th><td class="date">${D}</td>`,
      `<th>经办人</th><td>${names!.maker}</td>`,
      `<th>复核人</th><td>${names!.checker}</td>`,
      '<th>复核意见</th><td colspan="3">同意</td>',
    ])
      expect(html).toContain(part);
    expect(html).not.toContain('{{');
    // The print follows the document: its screen's 打印 button, its contract's data scope.
    await createUserWithCodes(t.database.db, 'class-no-print', PW, [CLASS_MENU]);
    const reader = await t.login('class-no-print', PW);
    expect((await reader.call(PRINT, { bizType: 'classAdjust', docCode: adj })).status).toBe(401);
    await createUserWithCodes(
      t.database.db,
      'class-print-own',
      PW,
      [CLASS_MENU, buttonCode(CLASS_MENU, 'print')],
      {
        dataScope: 'self',
      },
    );
    const own = await t.login('class-print-own', PW);
    const hidden = await own.call(PRINT, { bizType: 'classAdjust', docCode: adj });
    expect([hidden.status, hidden.msg]).toEqual([404, '分类调整单不存在']);
  });

  it('stands at later day-ends until a proposal goes below both the class and the proposal it overrode', async () => {
    // Re-running the date keeps the approved class (the proposal is still 损失).
    await runDayEnd(D);
    expect(rowOf(await list(), 'd361')).toMatchObject({ assetClass: 'doubtful', adjBizCode: adj });
    // d90 (关注, 90 days) adjusted up to 正常: it stands while the proposal stays 关注 …
    const up = await admin.ok<{ adjBizCode: string }>(classificationApi.saveBaseInfo, {
      contBizCode: code.d90,
      toClass: 'normal',
      reason: '买方已确认付款',
      submit: true,
    });
    await checker.ok(classificationApi.audit, { comment: '同意' }, { query: { adjBizCode: up.adjBizCode } });
    expect(rowOf(await list(), 'd90').assetClass).toBe('normal');
    // … and lapses the day the proposal moves further down (91 days: 次级).
    await runDayEnd(addDays(D, 1));
    expect(rowOf(await list(), 'd90')).toMatchObject({
      overdueDays: 91,
      assetClass: 'substandard',
      adjBizCode: null,
    });
    expect(rowOf(await list(), 'd361')).toMatchObject({ assetClass: 'doubtful', adjBizCode: adj });
    // The March record is kept as it was.
    const m = await admin.ok<ClassMigration>(classificationApi.migration, {
      fromMonth: '2027-02',
      toMonth: '2027-03',
    });
    expect(m.toDate).toBe(D);
    expect(m.cells.doubtful.doubtful).toBe(2);
    t.portal.clock.set(D);
  });

  it('is final once approved (a later adjustment replaces it); deleted only before approval', async () => {
    const approvedDelete = await admin.call(classificationApi.deleteInfo, undefined, {
      query: { adjBizCode: adj },
    });
    expect(approvedDelete.status).toBe(409);
    const revoke = await checker.call(
      classificationApi.unAudit,
      { comment: '反审核' },
      { query: { adjBizCode: adj } },
    );
    expect(revoke.status).toBe(409);
    const draft = await admin.ok<{ adjBizCode: string }>(classificationApi.saveBaseInfo, {
      contBizCode: code.d1,
      toClass: 'normal',
      reason: '草稿',
    });
    await admin.ok(classificationApi.deleteInfo, undefined, { query: { adjBizCode: draft.adjBizCode } });
    expect(rowOf(await list(), 'd1').openAdjBizCode).toBeNull();
  });
});

describe.runIf(onPostgres)('on PostgreSQL', () => {
  it('an approval racing the day-end of its date is kept, whichever commits first', async () => {
    t.portal.clock.set(D);
    for (let round = 0; round < 3; round++) {
      const target: AssetClass = round % 2 === 0 ? 'substandard' : 'loss';
      const saved = await admin.ok<{ adjBizCode: string }>(classificationApi.saveBaseInfo, {
        contBizCode: code.d181,
        toClass: target,
        reason: `并发调整 ${round}`,
        submit: true,
      });
      await Promise.all([
        admin.ok(`/api${BIZDATE_PATHS.runDayEnd}`),
        checker.ok(classificationApi.audit, { comment: '同意' }, { query: { adjBizCode: saved.adjBizCode } }),
      ]);
      expect(rowOf(await list(), 'd181'), `round ${round}`).toMatchObject({
        assetClass: target,
        adjBizCode: saved.adjBizCode,
      });
    }
  });
});
