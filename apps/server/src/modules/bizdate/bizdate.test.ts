import Decimal from 'decimal.js';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@portal/contract/api';
import {
  BIZDATE_PATHS,
  MAX_FORWARD_DAYS,
  type BizDateView,
  type DayEndItem,
  type DayEndRun,
  type ReminderItem,
} from '@portal/contract/bizdate';
import type { ValidPlan } from '@portal/contract/accounts';
import { addDays } from '@portal/contract/plan/dates';
import { queryRows } from '../../platform/db/client';
import { SYSTEM_ACTOR } from '../../platform/db/audit';
import { catchUpDayEnds } from './service';
import {
  createTestPortal,
  createUserWithCodes,
  onPostgres,
  type TestClient,
  type TestPortal,
  servedPaths,
} from '../../testing/harness';
import { addChecker } from '../credit/testkit';
import { approvedContract, contractFixture, MONTHLY_RULE, type ContractFixture } from '../contract/testkit';
import { disburse } from '../loan/testkit';
import { approvedIncome, paidApi } from '../paid/testkit';

let t: TestPortal;
let admin: TestClient;
let checker: TestClient;
let f: ContractFixture;
const bizdateApi = servedPaths(BIZDATE_PATHS);
const db = () => t.database.db;
const setDate = (c: TestClient, businessDate: string) =>
  c.call<{ from: string; to: string; run: DayEndRun }>(bizdateApi.save, { businessDate });

/** Item 2's open principal + interest + fee on the write-off screen. */
const item2Open = (plan: ValidPlan) => {
  const i = plan.items.find((x) => x.period === 2)!;
  return new Decimal(i.open.PRINCIPAL).plus(i.open.INTEREST).plus(i.open.FEE).toFixed(2);
};

/** Every figure a day-end may touch, to compare two runs. */
async function snapshot() {
  const q = (s: ReturnType<typeof sql>) => queryRows(db(), s);
  return {
    items: await q(sql`select business_date::text, plan_item_id, contract_id, overdue_days,
      principal_overdue::text, penalty_of_day::text, penalty_accrued::text from day_end_items
      order by business_date, plan_item_id`),
    reminders: await q(
      sql`select id, user_id, plan_item_id, kind, business_date::text from reminders order by id`,
    ),
    plan: await q(sql`select id, principal_paid::text, interest_paid::text, penalty_paid::text, superseded_by
      from contract_plan_items order by id`),
    contracts: await q(
      sql`select id, status, loan_state, version, principal_open::text from contracts order by id`,
    ),
  };
}

beforeAll(async () => {
  t = await createTestPortal();
  admin = await t.login();
  checker = await addChecker(t);
  f = await contractFixture(t, admin, checker, { limit: '5000000.00', rule: MONTHLY_RULE });
});
afterAll(() => t.close());

describe('营业日 (business date)', () => {
  it('is shown to everyone, set only with ft-bizdate:save, with an audit row', async () => {
    await createUserWithCodes(db(), 'plain', 'Plain@123456789', []);
    const plain = await t.login('plain', 'Plain@123456789');
    expect(await plain.ok<BizDateView>(bizdateApi.view)).toMatchObject({
      businessDate: '2026-01-15',
      source: 'setting',
    });
    const refused = await setDate(plain, '2026-01-16');
    expect(refused.status).toBe(401);
    const moved = await setDate(admin, '2026-01-16');
    expect(moved.status).toBe(200);
    expect(moved.data).toMatchObject({ from: '2026-01-15', to: '2026-01-16' });
    expect(moved.data!.run).toMatchObject({
      businessDate: '2026-01-16',
      trigger: 'dateChange',
      state: 'done',
    });
    expect(await plain.ok<BizDateView>(bizdateApi.view)).toMatchObject({
      businessDate: '2026-01-16',
      source: 'stored',
    });
    expect(t.portal.clock.today()).toBe('2026-01-16');
    const [audit] = await queryRows<{ detail: unknown }>(
      db(),
      sql`select detail from audit_log where entity = 'system' and action = 'setBusinessDate' order by id desc limit 1`,
    );
    expect(audit!.detail).toEqual({ from: '2026-01-15', to: '2026-01-16' });
    const bad = await setDate(admin, '2026-02-30');
    expect(bad.status).toBe(400);
    expect(bad.msg).toContain('营业日');
  });

  it('never moves back past a date that has postings', async () => {
    expect((await setDate(admin, '2026-01-25')).status).toBe(200);
    const { bizCode } = await approvedContract(t, admin, checker, {
      fixture: f,
      // Signed to start on the value date: the plan keeps the signed due dates (the 20th).
      over: { startDate: '2026-01-20', maturityDate: '2026-07-20' },
    });
    const loan = await disburse(admin, checker, bizCode, { valueDate: '2026-01-20' });
    const back = await setDate(admin, '2026-01-18');
    expect(back.status).toBe(409);
    expect(back.msg).toBe(`营业日不能回退到 2026-01-18：2026-01-20 已有记账（放款单 ${loan}）`);
    expect((await admin.ok<BizDateView>(bizdateApi.view)).businessDate).toBe('2026-01-25');
    // Back, but not past the posting: allowed.
    expect((await setDate(admin, '2026-01-20')).status).toBe(200);
    expect((await admin.ok<BizDateView>(bizdateApi.view)).lastPostingDate).toBe('2026-01-20');
  });

  it('moves forward at most a year at once (each day passed over runs its day-end), changing nothing', async () => {
    const from = (await admin.ok<BizDateView>(bizdateApi.view)).businessDate;
    const runsBefore = await queryRows(db(), sql`select id from day_end_runs order by id`);
    const far = await setDate(admin, addDays(from, MAX_FORWARD_DAYS + 1));
    expect([far.status, far.msg]).toEqual([
      400,
      `营业日一次最多前移${MAX_FORWARD_DAYS}天（当前营业日 ${from}），请分次前移`,
    ]);
    expect((await admin.ok<BizDateView>(bizdateApi.view)).businessDate).toBe(from);
    expect(await queryRows(db(), sql`select id from day_end_runs order by id`)).toEqual(runsBefore);
  });
});

describe('日终 (day-end)', () => {
  it('marks overdue items with the day’s penalty, reminds the owners, and is idempotent', async () => {
    // Disbursed 2026-01-20 (previous test): monthly items due 02-20, 03-20, … On 2026-03-01 the
    // first is overdue 9 days (penalty 1.5 × 7.2 % a year on 16,666.67 principal = 0.50 a day:
    // 16666.67 × 0.108 / 360 = 4.99999…, rounded per item) and none other is due within 7 days.
    expect((await setDate(admin, '2026-03-01')).status).toBe(200);
    const first = await admin.ok<DayEndRun>(bizdateApi.runDayEnd);
    expect(first).toMatchObject({
      businessDate: '2026-03-01',
      trigger: 'manual',
      state: 'done',
      overdueItems: 1,
    });
    const marked = await admin.ok<DayEndItem[]>(bizdateApi.dayEndItems, undefined, {
      query: { businessDate: '2026-03-01' },
    });
    expect(marked).toHaveLength(1);
    expect(marked[0]).toMatchObject({
      period: 1,
      dueDate: '2026-02-20',
      overdueDays: 9,
      principalOverdue: '16666.67',
      // The period's interest, 100,000 × 7.2 % × 31 days (01-20 → 02-20) / 360, unpaid too.
      interestOverdue: '620.00',
      feeOverdue: '0.00',
    });
    // 16666.67 × 7.2 % × 1.5 / 360 = 5.00 a day (ACT/360), for the 9 days 02-21 … 03-01 = 45.00.
    expect(marked[0]!.penaltyOfDay).toBe('5.00');
    expect(marked[0]!.penaltyAccrued).toBe('45.00');
    expect(marked[0]!.penaltyOwed).toBe('45.00');
    expect(first.penaltyOfDay).toBe('5.00');
    const before = await snapshot();
    const second = await admin.ok<DayEndRun>(bizdateApi.runDayEnd);
    expect(second).toMatchObject({ state: 'done', overdueItems: 1, remindersAdded: 0, penaltyOfDay: '5.00' });
    expect(await snapshot()).toEqual(before);
    // The maker (the contract's owner) has the overdue reminder in 待办, and the due-soon one the
    // day-end of 02-13 gave on the way (the move from 01-20 ran every day's day-end).
    const mine = await admin.ok<Page<ReminderItem>>(bizdateApi.reminders, {});
    expect(mine.list.map((r) => [r.kind, r.period, r.dueDate])).toEqual([
      ['dueSoon', 1, '2026-02-20'],
      ['overdue', 1, '2026-02-20'],
    ]);
    // 2026-03-15: item 2 (due 03-20) came within 7 days on 03-13, whose day-end the move ran.
    const moved = await setDate(admin, '2026-03-15');
    expect(moved.data).toMatchObject({ days: 14, run: { businessDate: '2026-03-15', remindersAdded: 0 } });
    const [given] = await queryRows<{ d: string }>(
      db(),
      sql`select business_date::text as d from reminders where kind = 'dueSoon' order by id desc limit 1`,
    );
    expect(given!.d).toBe('2026-03-13');
    const later = await admin.ok<Page<ReminderItem>>(bizdateApi.reminders, {});
    expect(later.list.map((r) => [r.kind, r.period])).toEqual([
      ['dueSoon', 1],
      ['overdue', 1],
      ['dueSoon', 2],
    ]);
    const log = await admin.ok<Page<DayEndRun>>(bizdateApi.dayEndList, {});
    expect(log.list[0]).toMatchObject({ businessDate: '2026-03-15', state: 'done' });
    expect(log.total).toBeGreaterThanOrEqual(5);
  });

  it('keeps an overdue reminder whose item owes only its penalty, with that penalty', async () => {
    // Business date 2026-03-15 (previous test): item 1 (due 02-20) is 23 days overdue. A write-off
    // dated 03-15 pays its principal and interest only: the penalty of 02-21 .. 03-14 (22 days ×
    // 5.00 = 110.00) stays owed, so the item is still 逾期 and its reminder stays in 待办.
    const before = await admin.ok<Page<ReminderItem>>(bizdateApi.reminders, {});
    const overdue = before.list.find((r) => r.kind === 'overdue')!;
    expect(overdue).toMatchObject({ period: 1, dueDate: '2026-02-20', penaltyAmount: '115.00' });
    const cont = overdue.contBizCode;
    const open = await admin.ok<ValidPlan>(paidApi.getValidPlanPaid, undefined, {
      query: { contBizCode: cont, paidDate: '2026-03-15' },
    });
    const item = open.items.find((i) => i.period === 1)!;
    const amount = new Decimal(item.open.PRINCIPAL).plus(item.open.INTEREST).toFixed(2);
    const fiid = await approvedIncome(admin, checker, f.bankBizCode, amount, '2026-03-15');
    const saved = await admin.ok<{ paidBizCode: string }>(paidApi.savePlanPaidInfo, {
      fiidBizCode: fiid,
      contBizCode: cont,
      paidDate: '2026-03-15',
      kind: 'manual',
      lines: [
        { itemId: item.itemId, component: 'PRINCIPAL', amount: item.open.PRINCIPAL },
        { itemId: item.itemId, component: 'INTEREST', amount: item.open.INTEREST },
      ],
      submit: true,
    });
    await checker.ok(paidApi.audit, {}, { query: { paidBizCode: saved.paidBizCode } });
    const shown = (page: Page<ReminderItem>) =>
      page.list.map((r) => [r.kind, r.period, r.openAmount, r.penaltyAmount]);
    expect(shown(await admin.ok<Page<ReminderItem>>(bizdateApi.reminders, {}))).toEqual([
      ['overdue', 1, '0.00', '110.00'],
      ['dueSoon', 2, item2Open(open), '0.00'],
    ]);
    // The next day: the principal is paid, no more penalty accrues; the reminder stays.
    expect((await setDate(admin, '2026-03-16')).status).toBe(200);
    expect(shown(await admin.ok<Page<ReminderItem>>(bizdateApi.reminders, {}))[0]).toEqual([
      'overdue',
      1,
      '0.00',
      '110.00',
    ]);
  });

  it('runs every day’s day-end in order when the date moves forward, each once', async () => {
    // Business date 2026-03-16 (previous test). Days a run completed are not run again: 03-17 now.
    expect((await admin.ok<DayEndRun>(bizdateApi.runDayEnd)).state).toBe('done');
    const runsOf = async (from: string) =>
      queryRows<{ d: string; trigger: string; state: string }>(
        db(),
        sql`select business_date::text as d, trigger, state from day_end_runs
             where business_date > ${from}::date order by id`,
      );
    await setDate(admin, '2026-03-17');
    expect((await setDate(admin, '2026-03-16')).status).toBe(200);
    const moved = await setDate(admin, '2026-03-20');
    expect(moved.data).toMatchObject({ from: '2026-03-16', to: '2026-03-20', days: 3 });
    expect((await runsOf('2026-03-16')).map((r) => `${r.d} ${r.trigger} ${r.state}`)).toEqual([
      '2026-03-17 dateChange done',
      '2026-03-18 catchUp done',
      '2026-03-19 catchUp done',
      '2026-03-20 dateChange done',
    ]);
    // Nothing runs now: the progress the screen polls while a move catches up says so.
    expect(await admin.ok(bizdateApi.progress)).toEqual({ running: null });
  });

  it('leaves contracts not yet disbursed alone', async () => {
    const { bizCode } = await approvedContract(t, admin, checker, {
      fixture: f,
      over: { startDate: '2026-01-15', maturityDate: '2026-04-15' },
    });
    await admin.ok(bizdateApi.runDayEnd);
    const [n] = await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from day_end_items d join contracts c on c.id = d.contract_id where c.biz_code = ${bizCode}`,
    );
    expect(n!.n).toBe(0);
  });
});

describe.runIf(onPostgres)('day-end on PostgreSQL', () => {
  it('catches up on two servers at once without running a day twice', async () => {
    const from = '2026-04-01';
    await Promise.all([1, 2].map(() => catchUpDayEnds(db(), from, '2026-04-06', SYSTEM_ACTOR)));
    const [r] = await queryRows<{ passed: number; target: number }>(
      db(),
      sql`select count(*) filter (where trigger = 'catchUp')::int as passed,
                 count(*) filter (where trigger = 'dateChange')::int as target
            from day_end_runs where business_date > ${from}::date and state = 'done'`,
    );
    // 04-02 … 04-05 once each; the move's own day (04-06) by each mover, idempotent.
    expect(r).toEqual({ passed: 4, target: 2 });
  });

  it('runs queue on the lock: concurrent runs of one date give one set of marks and reminders', async () => {
    await queryRows(db(), sql`delete from reminders`);
    const runs = await Promise.all([1, 2, 3].map(() => admin.ok<DayEndRun>(bizdateApi.runDayEnd)));
    expect(runs.every((r) => r.state === 'done')).toBe(true);
    expect(runs.reduce((s, r) => s + r.remindersAdded, 0)).toBe(2);
    const [n] = await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from reminders`);
    expect(n!.n).toBe(2);
  });
});
