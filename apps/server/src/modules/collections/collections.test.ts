import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIZDATE_PATHS } from '@portal/contract/bizdate';
import {
  COLLECTION_MENU,
  COLLECTION_PATHS,
  DEFAULT_COLLECTION_SCHEDULE,
  reminderDue,
  type CollectionCaseView,
  type CollectionRow,
  type CollectionStaff,
} from '@portal/contract/collections';
import { buttonCode } from '@portal/contract/menus';
import { addDays } from '@portal/contract/plan/dates';
import { SYSPARAM_PATHS, type SysParamsView } from '@portal/contract/sysparams';
import { queryRows } from '../../platform/db/client';
import {
  createTestPortal,
  createUserWithCodes,
  servedPaths,
  type TestClient,
  type TestPortal,
} from '../../testing/harness';
import { addChecker } from '../credit/testkit';
import { approvedContract, receivable } from '../contract/testkit';
import { disburse } from '../loan/testkit';
import { principalWriteOff } from '../paid/testkit';

/**
 * 逾期催收 (docs/collections.md): one bullet contract of 10,000.00 due on M, managed by `mgr`,
 * walked through its reminders, the worklist, 催收记录 and the promises judged by the day-end.
 */
const D0 = '2026-03-01';
const M = '2026-04-30';
const api = servedPaths(COLLECTION_PATHS);
const PW = 'Collect@12345678';

let t: TestPortal;
let admin: TestClient;
let checker: TestClient;
let mgr: TestClient;
let mgrId: number;
let contBizCode: string;
let bankBizCode: string;

const runDayEnd = async (date: string) => {
  t.portal.clock.set(date);
  await admin.ok(`/api${BIZDATE_PATHS.runDayEnd}`);
};
const messagesOf = (userId: number) =>
  queryRows<{ kind: string; detail: string }>(
    t.database.db,
    sql`select kind, detail from messages where user_id = ${userId} and kind in ('collect', 'promiseBroken') order by id`,
  );
const list = async (c: TestClient = admin, body: Record<string, unknown> = {}) =>
  (await c.ok<{ list: CollectionRow[]; total: number }>(api.list, { pageNum: 1, pageSize: 20, ...body }))
    .list;

beforeAll(async () => {
  t = await createTestPortal({ BUSINESS_DATE: D0 });
  admin = await t.login();
  checker = await addChecker(t);
  ({ userId: mgrId } = await createUserWithCodes(t.database.db, 'collector', PW, [
    COLLECTION_MENU,
    buttonCode(COLLECTION_MENU, 'add'),
  ]));
  mgr = await t.login('collector', PW);
  const made = await approvedContract(t, admin, checker, {
    over: {
      financingAmount: '10000.00',
      startDate: '2026-02-01',
      maturityDate: M,
      receivables: [receivable('15000.00', M)],
      managerId: mgrId,
    },
  });
  contBizCode = made.bizCode;
  bankBizCode = made.fixture.bankBizCode;
  await disburse(admin, checker, contBizCode);
}, 300_000);
afterAll(() => t?.close());

describe('the reminder schedule', () => {
  it('is T−7, T−1, T+1 and every 7 days after by default', () => {
    const days = Array.from({ length: 30 }, (_, i) => i - 10).filter((n) =>
      reminderDue(n, DEFAULT_COLLECTION_SCHEDULE),
    );
    expect(days).toEqual([-7, -1, 1, 8, 15]);
    expect(
      reminderDue(4, { beforeDays: [3], afterFirstDays: 2, afterEveryDays: 2 }) &&
        !reminderDue(3, { beforeDays: [3], afterFirstDays: 2, afterEveryDays: 2 }),
    ).toBe(true);
  });
});

describe('reminders at the day-end', () => {
  it('tell the contract manager on T−7, T−1, T+1 and T+8 only, once each however often the day runs', async () => {
    for (const n of [-8, -7, -6, -1, 0, 1, 2, 8]) await runDayEnd(addDays(M, n));
    await runDayEnd(addDays(M, 8));
    const got = await messagesOf(mgrId);
    expect(got.map((m) => m.detail)).toEqual([
      `第1期将于 ${M} 到期，还有7天`,
      `第1期将于 ${M} 到期，还有1天`,
      expect.stringMatching(new RegExp(`^第1期 ${M} 到期，已逾期1天，尚欠 \\d+\\.\\d\\d 元$`)),
      expect.stringMatching(/已逾期8天/),
    ]);
    expect(new Set(got.map((m) => m.kind))).toEqual(new Set(['collect']));
  });
});

describe('the worklist and 催收记录', () => {
  it('lists the overdue contract with its figures, only within the user’s scope', async () => {
    const [row] = await list();
    expect(row).toMatchObject({
      contBizCode,
      overdueDays: 8,
      overdueItems: 1,
      assigneeName: 'collector',
      lastContactDate: null,
      promiseState: null,
      asOf: addDays(M, 8),
    });
    expect(Number(row!.overdueAmount)).toBeGreaterThan(10000);
    // A user whose scope is only their own rows sees nothing, and cannot name the contract.
    await createUserWithCodes(
      t.database.db,
      'outsider',
      PW,
      [COLLECTION_MENU, buttonCode(COLLECTION_MENU, 'add')],
      { dataScope: 'self' },
    );
    const outsider = await t.login('outsider', PW);
    expect(await list(outsider)).toEqual([]);
    const hidden = await outsider.call(api.records, undefined, { query: { contBizCode } });
    expect(hidden.httpStatus).toBe(404);
    const write = await outsider.call(api.addRecord, {
      contBizCode,
      contactDate: addDays(M, 8),
      channel: 'phone',
      result: 'refused',
    });
    expect(write.httpStatus).toBe(404);
    // Without the update button the case cannot be reassigned.
    const refused = await mgr.call(api.saveCase, { contBizCode, assigneeId: mgrId });
    expect(refused.httpStatus).toBe(401);
  });

  it('records contacts and promises, refusing what does not hold together', async () => {
    const base = { contBizCode, contactDate: addDays(M, 8), channel: 'phone' };
    const missing = await mgr.call(api.addRecord, { ...base, result: 'promised' });
    expect([missing.status, missing.msg]).toEqual([400, '请输入承诺还款日期']);
    const future = await mgr.call(api.addRecord, { ...base, contactDate: addDays(M, 9), result: 'refused' });
    expect([future.status, future.msg]).toEqual([400, `联系日期不能晚于营业日 ${addDays(M, 8)}`]);
    await mgr.ok(api.addRecord, {
      ...base,
      result: 'promised',
      promiseDate: addDays(M, 10),
      promiseAmount: '1000.00',
    });
    const view = await mgr.ok<CollectionCaseView>(api.addRecord, {
      ...base,
      channel: 'visit',
      result: 'promised',
      promiseDate: addDays(M, 10),
      promiseAmount: '5000.00',
      note: '上门',
    });
    expect(view.records.map((r) => [r.channel, r.promiseAmount, r.promiseState])).toEqual([
      ['visit', '5000.00', 'open'],
      ['phone', '1000.00', 'open'],
    ]);
    const [row] = await list(mgr);
    expect(row).toMatchObject({
      lastContactDate: addDays(M, 8),
      lastContactChannel: 'visit',
      lastContactResult: 'promised',
      promiseDate: addDays(M, 10),
      promiseAmount: '5000.00',
      promiseState: 'open',
    });
    const [audit] = await queryRows<{ action: string }>(
      t.database.db,
      sql`select action from audit_log where entity = 'collection' order by id desc limit 1`,
    );
    expect(audit?.action).toBe('addRecord');
  });

  it('lets a holder of update set the assignee and the next action', async () => {
    const staff = await admin.ok<CollectionStaff[]>(api.staff);
    const admin1 = staff.find((s) => s.name === '系统管理员')!;
    const view = await admin.ok<CollectionCaseView>(api.saveCase, {
      contBizCode,
      assigneeId: admin1.userId,
      nextAction: '发律师函',
      nextActionDate: addDays(M, 12),
    });
    expect(view).toMatchObject({ assigneeName: '系统管理员', nextAction: '发律师函' });
    const [row] = await list(admin, { assigneeName: '系统管理员' });
    expect(row).toMatchObject({ contBizCode, nextActionDate: addDays(M, 12) });
    await admin.ok(api.saveCase, { contBizCode, assigneeId: mgrId });
  });
});

describe('promises to pay', () => {
  it('are judged the day after their date: kept when paid, a broken one tells the manager', async () => {
    t.portal.clock.set(addDays(M, 9));
    await principalWriteOff(admin, checker, bankBizCode, contBizCode, addDays(M, 9), '1000.00');
    const before = (await messagesOf(mgrId)).length;
    await runDayEnd(addDays(M, 10));
    const open = await mgr.ok<CollectionCaseView>(api.records, undefined, { query: { contBizCode } });
    expect(open.records.map((r) => r.promiseState)).toEqual(['open', 'open']);
    await runDayEnd(addDays(M, 11));
    const judged = await mgr.ok<CollectionCaseView>(api.records, undefined, { query: { contBizCode } });
    expect(judged.records.map((r) => [r.promiseAmount, r.promiseState, r.promisePaid])).toEqual([
      ['5000.00', 'broken', '1000.00'],
      ['1000.00', 'kept', '1000.00'],
    ]);
    const added = (await messagesOf(mgrId)).slice(before);
    expect(added).toEqual([
      {
        kind: 'promiseBroken',
        detail: `承诺 ${addDays(M, 10)} 前还款 5000.00 元，实收 1000.00 元`,
      },
    ]);
    await runDayEnd(addDays(M, 11));
    expect((await messagesOf(mgrId)).length).toBe(before + 1);
    expect((await list(admin, { promise: 'broken' })).map((r) => r.contBizCode)).toEqual([contBizCode]);
  });
});

describe('参数设置 and the export', () => {
  it('takes a changed schedule at the next day-end', async () => {
    const sysApi = servedPaths(SYSPARAM_PATHS);
    const current = (await admin.ok<SysParamsView>(sysApi.get)).params;
    expect(current).toMatchObject({
      collectBeforeFirstDays: 7,
      collectBeforeLastDays: 1,
      collectAfterFirstDays: 1,
      collectAfterEveryDays: 7,
    });
    const bad = await admin.call(sysApi.save, { ...current, collectBeforeLastDays: 7 });
    expect([bad.status, bad.msg]).toEqual([400, '到期前首次提醒天数必须大于到期前末次提醒天数']);
    await admin.ok(sysApi.save, { ...current, collectAfterEveryDays: 2 });
    const before = (await messagesOf(mgrId)).length;
    // Every 2 days after T+1: T+12 is not a step (11 is odd), T+13 is.
    await runDayEnd(addDays(M, 12));
    expect((await messagesOf(mgrId)).length).toBe(before);
    await runDayEnd(addDays(M, 13));
    expect((await messagesOf(mgrId)).slice(before).map((m) => m.detail)).toEqual([
      expect.stringMatching(/已逾期13天/),
    ]);
    await admin.ok(sysApi.save, current);
  });

  it('writes the worklist to xlsx with a total row', async () => {
    const res = await admin.call(api.export, {});
    expect(res.httpStatus).toBe(200);
    expect(String(res.headers['content-disposition'])).toContain(encodeURIComponent('逾期催收.xlsx'));
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.raw as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect(String(ws.getRow(1).getCell(1).value)).toBe(`逾期催收  营业日：${addDays(M, 13)}`);
    expect(ws.getRow(2).getCell(7).value).toBe('逾期金额');
    expect(ws.getRow(3).getCell(1).value).toBe(contBizCode);
    expect(ws.getRow(4).getCell(1).value).toBe('合计');
    expect(ws.getRow(4).getCell(2).value).toBe('1笔');
  });

  it('prints the worklist as an HTML page without a script, to holders of print only', async () => {
    const res = await admin.call(api.print, { minOverdueDays: 1 });
    expect(res.httpStatus).toBe(200);
    expect(String(res.headers['content-type'])).toContain('text/html');
    const html = res.raw.toString('utf8');
    expect(html).toContain('逾期催收清单');
    expect(html).toContain(`营业日：${addDays(M, 13)}`);
    expect(html).toContain('共1笔');
    expect(html).not.toContain('<script');
    expect((await mgr.call(api.print, {})).httpStatus).toBe(401);
  });
});
