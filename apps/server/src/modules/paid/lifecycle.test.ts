import Decimal from 'decimal.js';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IncomeImportPreview, PaidRedView, PaidView, ValidPlan } from '@portal/contract/accounts';
import type { Page } from '@portal/contract/api';
import type {
  BeforeAfter,
  ChangeInfoNames,
  ContractListRow,
  PlanItemView,
  SchemeView,
} from '@portal/contract/contract';
import { DASHBOARD_PATHS, type AgingRow, type PortfolioFigures } from '@portal/contract/dashboard';
import { PRINT_PATHS } from '@portal/contract/print';
import { queryRows } from '../../platform/db/client';
import { SYSTEM_ACTOR } from '../../platform/db/audit';
import { dayEndItemsOf, runDayEnd } from '../bizdate/service';
import { createTestPortal, type TestClient, type TestPortal } from '../../testing/harness';
import { uploadXlsx } from '../../testing/xlsx-upload';
import { addChecker } from '../credit/testkit';
import {
  approvedContract,
  contractFixture,
  contractApi,
  MONTHLY_RULE,
  type ContractFixture,
  type Saved,
} from '../contract/testkit';
import { disburse } from '../loan/testkit';
import { approvedIncome, incomeApi, paidApi, paidRedApi, submittedPaid } from './testkit';

/**
 * Golden cases of allocation, penalty and reversal, computed by hand below (docs/money-rules.md).
 *
 * Contract "two months": 100,000.00 from 2026-01-15 to 2026-03-15, 等额本金, 7.2 % a year on
 * ACT/360, penalty 1.5 × the rate, no grace days, no fee:
 *   item 1  01-15 → 02-15, 31 days: principal 50,000.00, interest 100,000 × 0.072 × 31 / 360 = 620.00
 *   item 2  02-15 → 03-15, 28 days: principal 50,000.00, interest  50,000 × 0.072 × 28 / 360 = 280.00
 * Penalty per day on 50,000.00 of overdue principal: 50,000 × 0.072 × 1.5 / 360 = 15.00.
 */

let t: TestPortal;
let maker: TestClient;
let checker: TestClient;
let f: ContractFixture;
const db = () => t.database.db;
const q = (bizCode: string) => ({ query: { bizCode } });
const cq = (contBizCode: string) => ({ query: { contBizCode } });
const pq = (paidBizCode: string) => ({ query: { paidBizCode } });
const rq = (paidRedBizCode: string) => ({ query: { paidRedBizCode } });

async function twoMonths(fixture = f): Promise<string> {
  t.portal.clock.set('2026-01-15');
  const { bizCode } = await approvedContract(t, maker, checker, {
    fixture,
    over: { financingAmount: '100000.00', maturityDate: '2026-03-15' },
  });
  // Only a disbursed contract runs (its value date: the start date, so the plan stays as it is).
  await disburse(maker, checker, bizCode);
  return bizCode;
}

async function plan(cont: string, asOf: string): Promise<PlanItemView[]> {
  t.portal.clock.set(asOf);
  return (await maker.ok<SchemeView>(contractApi.schemeView, undefined, cq(cont))).items;
}

/** Writes off the whole incoming on `date` as the rule allocates it, approved by the checker. */
async function writeOff(cont: string, amount: string, date: string, fixture = f) {
  t.portal.clock.set(date);
  const fiid = await approvedIncome(maker, checker, fixture.bankBizCode, amount, date);
  const w = await submittedPaid(maker, fiid, cont, date);
  await checker.ok(paidApi.audit, {}, pq(w.paidBizCode));
  return { fiid, ...w };
}

const figures = (i: PlanItemView) => ({
  status: i.status,
  penalty: i.penalty,
  penaltyPaid: i.penaltyPaid,
  outstanding: i.outstanding,
  overdueDays: i.overdueDays,
});

/** paid ≤ due on every component of every item. */
function paidWithinDue(items: readonly PlanItemView[]): void {
  for (const i of items) {
    for (const [paid, due] of [
      [i.principalPaid, i.principal],
      [i.interestPaid, i.interest],
      [i.feePaid, i.fee],
      [i.penaltyPaid, i.penalty],
    ] as const) {
      expect(new Decimal(paid).lte(due), `period ${i.period}: paid ${paid} > due ${due}`).toBe(true);
    }
  }
}

beforeAll(async () => {
  t = await createTestPortal();
  maker = await t.login();
  checker = await addChecker(t);
  f = await contractFixture(t, maker, checker, { limit: '5000000.00', rule: MONTHLY_RULE });
});
afterAll(() => t.close());

describe('figures as of a date (§2)', () => {
  it('an item paid late stays 已结清 on three later dates; the plan view, write-off screen and dashboard agree', async () => {
    const cont = await twoMonths();
    // Paid on 2026-02-25: penalty 02-16 .. 02-24 = 9 days × 15.00 = 135.00; with interest 620.00 and
    // principal 50,000.00 the item takes 50,755.00.
    const w = await writeOff(cont, '50755.00', '2026-02-25');
    expect(w.suggestion.lines.map((l) => [l.period, l.component, l.amount])).toEqual([
      [1, 'PENALTY', '135.00'],
      [1, 'INTEREST', '620.00'],
      [1, 'PRINCIPAL', '50000.00'],
    ]);
    // A cyclical line: the write-off released the principal it repaid.
    expect((await maker.ok<PaidView>(paidApi.viewBaseInfo, undefined, pq(w.paidBizCode))).released).toBe(
      '50000.00',
    );

    const settled = {
      status: '已结清',
      penalty: '135.00',
      penaltyPaid: '135.00',
      outstanding: '0.00',
      overdueDays: 0,
    };
    // The dashboard on the plan view's date (the only contract so far) counts the plan view's
    // overdue items, with their open principal + interest + fee, days and penalty (due − paid).
    const dashboardAgrees = async (items: readonly PlanItemView[]) => {
      const late = items.filter((i) => i.status === '逾期');
      const sum = (pick: (i: PlanItemView) => Decimal) =>
        late.reduce((s, i) => s.plus(pick(i)), new Decimal(0)).toFixed(2);
      const penaltyOpen = (i: PlanItemView) => new Decimal(i.penalty).minus(i.penaltyPaid);
      const d = await maker.ok<PortfolioFigures>(`/api${DASHBOARD_PATHS.portfolio}`, {});
      expect([d.overdueCount, d.overdueContracts, d.overdueAmount, d.overduePenalty]).toEqual([
        late.length,
        late.length ? 1 : 0,
        sum((i) => new Decimal(i.outstanding).minus(penaltyOpen(i))),
        sum(penaltyOpen),
      ]);
      const aging = await maker.ok<AgingRow[]>(`/api${DASHBOARD_PATHS.aging}`, {});
      expect(aging.reduce((n, r) => n + r.count, 0)).toBe(late.length);
      return d;
    };
    // 02-26: item 2 not due yet.
    let items = await plan(cont, '2026-02-26');
    expect(items.map(figures)).toEqual([
      settled,
      { status: '未到期', penalty: '0.00', penaltyPaid: '0.00', outstanding: '50280.00', overdueDays: 0 },
    ]);
    let d = await dashboardAgrees(items);
    expect([d.overdueCount, d.overdueAmount, d.overduePenalty]).toEqual([0, '0.00', '0.00']);
    // 03-16: item 2 one day overdue, 1 × 15.00 of penalty; item 1 still settled, no more penalty.
    items = await plan(cont, '2026-03-16');
    expect(items.map(figures)).toEqual([
      settled,
      { status: '逾期', penalty: '15.00', penaltyPaid: '0.00', outstanding: '50295.00', overdueDays: 1 },
    ]);
    d = await dashboardAgrees(items);
    expect([d.overdueCount, d.overdueAmount, d.overduePenalty]).toEqual([1, '50280.00', '15.00']);
    // 04-01: item 2 17 days overdue (03-16 .. 04-01): 17 × 15.00 = 255.00.
    items = await plan(cont, '2026-04-01');
    expect(items.map(figures)).toEqual([
      settled,
      { status: '逾期', penalty: '255.00', penaltyPaid: '0.00', outstanding: '50535.00', overdueDays: 17 },
    ]);
    paidWithinDue(items);
    d = await dashboardAgrees(items);
    expect([d.overdueCount, d.overdueContracts, d.overdueAmount, d.overduePenalty]).toEqual([
      1,
      1,
      '50280.00',
      '255.00',
    ]);

    // The write-off screen on 04-01: item 1 has nothing open; item 2's penalty payable runs to the
    // day before (03-16 .. 03-31 = 16 × 15.00 = 240.00).
    const open = await maker.ok<ValidPlan>(paidApi.getValidPlanPaid, undefined, {
      query: { contBizCode: cont, paidDate: '2026-04-01' },
    });
    expect(open.items.map((i) => [i.period, i.status, i.overdueDays, i.open.PENALTY])).toEqual([
      [2, '逾期', 17, '240.00'],
    ]);
  });

  it('penalty written off becomes the penalty due: paid ≤ due, a covered item owes 0.00', async () => {
    const cont = await twoMonths();
    // 02-25: 100.00 goes to item 1's penalty (135.00 payable, see above).
    await writeOff(cont, '100.00', '2026-02-25');
    let [first] = await plan(cont, '2026-02-25');
    // Due on 02-25 (end of day): 10 days × 15.00 = 150.00; owed 50,000 + 620 + 150 − 100 = 50,670.00.
    expect(figures(first!)).toEqual({
      status: '逾期',
      penalty: '150.00',
      penaltyPaid: '100.00',
      outstanding: '50670.00',
      overdueDays: 10,
    });
    // 03-01: payable 02-16 .. 02-28 = 13 × 15.00 = 195.00, less 100.00 paid = 95.00; + 620.00 + 50,000.00.
    const w = await writeOff(cont, '50715.00', '2026-03-01');
    expect(w.suggestion.lines.map((l) => [l.period, l.component, l.amount])).toEqual([
      [1, 'PENALTY', '95.00'],
      [1, 'INTEREST', '620.00'],
      [1, 'PRINCIPAL', '50000.00'],
    ]);
    const items = await plan(cont, '2026-03-01');
    [first] = items;
    expect(figures(first!)).toEqual({
      status: '已结清',
      penalty: '195.00',
      penaltyPaid: '195.00',
      outstanding: '0.00',
      overdueDays: 0,
    });
    paidWithinDue(items);
    // The stored penalty paid is the same 195.00.
    const [row] = await queryRows<{ penalty_paid: string }>(
      db(),
      sql`select i.penalty_paid::text from contract_plan_items i join contracts c on c.id = i.contract_id
           where c.biz_code = ${cont} and i.period = 1 and i.superseded_by is null`,
    );
    expect(row!.penalty_paid).toBe('195.00');
  });

  it('an item whose principal and interest are paid late but not its penalty stays 逾期, on the dashboard too', async () => {
    const cont = await twoMonths();
    const dashboard = () => maker.ok<PortfolioFigures>(`/api${DASHBOARD_PATHS.portfolio}`, {});
    t.portal.clock.set('2026-03-01');
    // Before: item 1 is 14 days overdue (02-16 .. 03-01): 50,620.00 open, 14 × 15.00 = 210.00 penalty.
    const [before] = await plan(cont, '2026-03-01');
    expect(figures(before!)).toMatchObject({ status: '逾期', penalty: '210.00', outstanding: '50830.00' });
    const was = await dashboard();
    // A write-off dated 02-25 pays principal and interest only (manual lines, no penalty).
    const fiid = await approvedIncome(maker, checker, f.bankBizCode, '50620.00', '2026-02-25');
    const open = await maker.ok<ValidPlan>(paidApi.getValidPlanPaid, undefined, {
      query: { contBizCode: cont, paidDate: '2026-02-25' },
    });
    const itemId = open.items[0]!.itemId;
    const saved = await maker.ok<{ paidBizCode: string }>(paidApi.savePlanPaidInfo, {
      fiidBizCode: fiid,
      contBizCode: cont,
      paidDate: '2026-02-25',
      kind: 'manual',
      lines: [
        { itemId, component: 'PRINCIPAL', amount: '50000.00' },
        { itemId, component: 'INTEREST', amount: '620.00' },
      ],
      submit: true,
    });
    await checker.ok(paidApi.audit, {}, pq(saved.paidBizCode));
    // The penalty stopped on 02-25 (02-16 .. 02-24 = 9 × 15.00 = 135.00) and is still owed.
    const [after] = await plan(cont, '2026-03-01');
    expect(figures(after!)).toEqual({
      status: '逾期',
      penalty: '135.00',
      penaltyPaid: '0.00',
      outstanding: '135.00',
      overdueDays: 14,
    });
    // The dashboard still counts the item: its open amount fell by 50,620.00, its penalty by 75.00.
    const now = await dashboard();
    expect([
      now.overdueCount - was.overdueCount,
      new Decimal(now.overdueAmount).minus(was.overdueAmount).toFixed(2),
      new Decimal(now.overduePenalty).minus(was.overduePenalty).toFixed(2),
    ]).toEqual([0, '-50620.00', '-75.00']);
    // The contract list's 逾期 filter (the dashboard's click-through) finds the same contracts: this
    // one, whose only overdue amount is the penalty, among them.
    const late = await maker.ok<Page<ContractListRow>>(contractApi.list, { overdue: true, pageSize: 100 });
    expect(late.list.map((r) => r.bizCode)).toContain(cont);
    expect(late.total).toBe(now.overdueContracts);
    // The day-end of 03-01 marks it too: no principal overdue, 135.00 accrued, nothing accrued
    // that day (the principal is paid).
    const run = await runDayEnd(db(), '2026-03-01', 'manual', SYSTEM_ACTOR);
    expect(run.state).toBe('done');
    const marks = (await dayEndItemsOf(db(), '2026-03-01')).filter((m) => m.contBizCode === cont);
    expect(
      marks.map((m) => [
        m.period,
        m.overdueDays,
        m.principalOverdue,
        m.interestOverdue,
        m.feeOverdue,
        m.penaltyAccrued,
        m.penaltyOwed,
        m.penaltyOfDay,
      ]),
    ).toEqual([[1, 14, '0.00', '0.00', '0.00', '135.00', '135.00', '0.00']]);
  });

  it('one-off line: 释放额度 is what the ledger released (0.00); 冲红 asks a reason, posts negatives and prints 已冲红', async () => {
    const g = await contractFixture(t, maker, checker, {
      limit: '5000000.00',
      cycle: 'oneOff',
      rule: MONTHLY_RULE,
    });
    const cont = await twoMonths(g);
    const lineOccupied = async () =>
      (
        await queryRows<{ occupied: string }>(
          db(),
          sql`select occupied_amount::text as occupied from credit_lines where biz_code = ${g.lineCode}`,
        )
      )[0]!.occupied;
    expect(await lineOccupied()).toBe('100000.00');
    const w = await writeOff(cont, '50755.00', '2026-02-25', g);
    const v = await maker.ok<PaidView>(paidApi.viewBaseInfo, undefined, pq(w.paidBizCode));
    expect([v.principal, v.released]).toEqual(['50000.00', '0.00']);
    expect(await lineOccupied()).toBe('100000.00');
    const [ledger] = await queryRows<{ amount: string }>(
      db(),
      sql`select l.amount::text from credit_ledger l join credit_lines c on c.id = l.line_id
           where c.biz_code = ${g.lineCode} and l.doc_code = ${w.paidBizCode}`,
    );
    expect(ledger!.amount).toBe('0.00');

    // 冲红 without a reason is refused; with one, the entry and its lines are negative.
    const none = await maker.call(paidApi.rushRed, {}, pq(w.paidBizCode));
    expect([none.status, none.msg]).toEqual([400, '冲红原因不能为空']);
    const { paidRedBizCode } = await maker.ok<{ paidRedBizCode: string }>(
      paidApi.rushRed,
      { reason: '付款人错误' },
      pq(w.paidBizCode),
    );
    const red = await maker.ok<PaidRedView>(paidRedApi.initList, undefined, rq(paidRedBizCode));
    expect(red.amount).toBe('-50755.00');
    expect(red.lines.map((l) => l.amount)).toEqual(['-135.00', '-620.00', '-50000.00']);
    const list = await maker.ok<{ list: { paidRedBizCode: string; reason: string; amount: string }[] }>(
      paidRedApi.list,
      { paidBizCode: w.paidBizCode },
    );
    expect(list.list.map((r) => [r.reason, r.amount])).toEqual([['付款人错误', '-50755.00']]);
    await checker.ok(paidRedApi.audit, {}, rq(paidRedBizCode));
    expect(await lineOccupied()).toBe('100000.00');

    // The printed write-off carries the 已冲红 stamp whatever the template says (here the
    // standard one, which every database has).
    const printed = await maker.call(`/api${PRINT_PATHS.perViewHtml}`, {
      bizType: 'writeOff',
      docCode: w.paidBizCode,
    });
    const html = printed.raw.toString('utf8');
    expect(html).toContain('class="doc-mark"');
    expect(html).toMatch(/<div class="doc-mark"[^>]*>已冲红<\/div>/);
    // A write-off that stands prints without it.
    const live = await writeOff(cont, '50755.00', '2026-02-26', g);
    const plain = await maker.call(`/api${PRINT_PATHS.perViewHtml}`, {
      bizType: 'writeOff',
      docCode: live.paidBizCode,
    });
    expect(plain.raw.toString('utf8')).not.toContain('<div class="doc-mark"');
  });
});

describe('contract change preview (§3)', () => {
  it('the checker sees the plan the approval writes, numbered on from the kept items, with names', async () => {
    // 100,000.00 over six months from 2026-01-15: 16,666.67 × 5 and 16,666.65.
    t.portal.clock.set('2026-01-15');
    const { bizCode } = await approvedContract(t, maker, checker, { fixture: f });
    await disburse(maker, checker, bizCode);
    t.portal.clock.set('2026-04-01');
    const c = await maker.ok<Saved>(contractApi.changeSave, {
      contBizCode: bizCode,
      reason: '展期至十月',
      info: { maturityDate: '2026-10-15' },
      submit: true,
    });
    const preview = await maker.ok<BeforeAfter<PlanItemView[]>>(
      contractApi.chgSchemeView,
      undefined,
      q(c.bizCode),
    );
    // Kept: items due before 04-01 (02-15, 03-15). The rest, 100,000 − 2 × 16,666.67 = 66,666.66, is
    // re-planned from 04-01 to 10-15: 05-01, 06-01, 07-01, 08-01, 09-01, 10-01, 10-15 (7 items);
    // 66,666.66 / 7 = 9,523.808… → 9,523.81 × 6 and 66,666.66 − 57,142.86 = 9,523.80 last.
    // Item 3 (04-01 → 05-01, 30 days): 66,666.66 × 0.072 × 30 / 360 = 399.99996 → 400.00.
    // Item 9 (10-01 → 10-15, 14 days): 9,523.80 × 0.072 × 14 / 360 = 26.66664 → 26.67.
    expect(preview.changed).toEqual(['*']);
    const after = preview.after;
    expect(after.map((i) => i.period)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(after.map((i) => i.dueDate)).toEqual([
      '2026-02-15',
      '2026-03-15',
      '2026-05-01',
      '2026-06-01',
      '2026-07-01',
      '2026-08-01',
      '2026-09-01',
      '2026-10-01',
      '2026-10-15',
    ]);
    expect([after[2]!.startDate, after[2]!.principal, after[2]!.interest]).toEqual([
      '2026-04-01',
      '9523.81',
      '400.00',
    ]);
    expect([after[8]!.days, after[8]!.principal, after[8]!.interest]).toEqual([14, '9523.80', '26.67']);
    expect(after.slice(2).reduce((s, i) => s + Math.round(Number(i.principal) * 100), 0)).toBe(6_666_666);

    const info = await maker.ok<BeforeAfter<Record<string, unknown> & ChangeInfoNames>>(
      contractApi.chgInfoView,
      undefined,
      q(c.bizCode),
    );
    expect(info.changed).toEqual(['maturityDate']);
    expect(info.before.ruleName).toMatch(/^测试规则/);
    expect(info.before.bankName).toContain('测试保理有限公司');
    expect(info.before.lineName).toMatch(/^平台额度 /);

    await checker.ok(contractApi.changeAudit, { comment: '同意' }, q(c.bizCode));
    const approved = await maker.ok<BeforeAfter<PlanItemView[]>>(
      contractApi.chgSchemeView,
      undefined,
      q(c.bizCode),
    );
    const shown = (i: PlanItemView) => {
      const { id: _id, ...rest } = i;
      return rest;
    };
    expect(approved.after.map(shown)).toEqual(after.map(shown));
    const live = await maker.ok<SchemeView>(contractApi.schemeView, undefined, cq(bizCode));
    expect(live.items.map(shown)).toEqual(after.map(shown));
  });
});

describe('smaller money defects (§5)', () => {
  it('a serial typed full-width, with a zero-width space or in lower case is the same serial', async () => {
    t.portal.clock.set('2026-04-01');
    const body = {
      bankBizCode: f.bankBizCode,
      payerName: '核心买方有限公司',
      amount: '100.00',
      valueDate: '2026-03-20',
    };
    const s = await maker.ok<{ fiidBizCode: string }>(incomeApi.saveBaseInfo, {
      ...body,
      serialNo: 'bs-2026a01',
    });
    const v = await maker.ok<{ serialNo: string }>(incomeApi.viewBaseInfo, undefined, {
      query: { fiidBizCode: s.fiidBizCode },
    });
    expect(v.serialNo).toBe('BS-2026A01');
    for (const typed of ['ＢＳ－２０２６Ａ０１', '\u200Bbs-2026a01 ', 'Bs-2026\u202Aa01']) {
      const dup = await maker.call(incomeApi.saveBaseInfo, { ...body, serialNo: typed });
      expect([dup.status, dup.msg]).toEqual([
        409,
        `银行流水号 BS-2026A01 在该收款账户已登记（来款 ${s.fiidBizCode}）`,
      ]);
    }
    // A bank statement import compares the same way: against what is registered and within the file.
    const { accountNo } = await maker.ok<{ accountNo: string }>(
      '/api/ft/api/bank/view',
      undefined,
      q(f.bankBizCode),
    );
    const header = ['收款账号', '银行流水号', '付款人名称', '金额', '交易日期'];
    const res = await uploadXlsx(maker, incomeApi.resolveIncomeExcel, [
      header,
      [accountNo, 'ｂｓ－２０２６ａ０１', '核心买方有限公司', '10.00', '2026-03-20'],
      [accountNo, 'bs-2026b02', '核心买方有限公司', '10.00', '2026-03-20'],
      [accountNo, 'BS-2026B02\u200B', '核心买方有限公司', '10.00', '2026-03-20'],
    ]);
    const preview = res.data as IncomeImportPreview;
    expect(preview.rows.map((r) => [r.row, r.errors, r.duplicate])).toEqual([
      [2, [`银行流水号已登记（来款 ${s.fiidBizCode}）`], true],
      [3, [], false],
      [4, ['银行流水号与第3行重复'], true],
    ]);
    expect(preview.valid.map((v) => v.serialNo)).toEqual(['BS-2026B02']);
  });

  it('amount inputs refuse surrounding whitespace, as the published pattern says', async () => {
    for (const amount of [' 100.00', '100.00 ', '\t100.00']) {
      const r = await maker.call(incomeApi.saveBaseInfo, {
        bankBizCode: f.bankBizCode,
        payerName: '核心买方有限公司',
        amount,
        valueDate: '2026-03-20',
        serialNo: 'WS-0001',
      });
      expect([r.status, r.msg]).toEqual([400, '来款金额必须是最多两位小数的金额']);
    }
  });

  it('approving a write-off whose item another write-off settled since it was saved: 409 naming it', async () => {
    const cont = await twoMonths();
    t.portal.clock.set('2026-02-25');
    const a = await approvedIncome(maker, checker, f.bankBizCode, '50755.00', '2026-02-25');
    const first = await submittedPaid(maker, a, cont, '2026-02-25');
    await writeOff(cont, '50755.00', '2026-02-25');
    const r = await checker.call(paidApi.audit, {}, pq(first.paidBizCode));
    expect([r.status, r.msg]).toEqual([409, '核销保存后还款计划已变更：第1期已结清，请重新生成核销明细']);
    // Nothing posted: the first write-off is still pending and its incoming untouched.
    expect((await maker.ok<PaidView>(paidApi.viewBaseInfo, undefined, pq(first.paidBizCode))).state).toBe(
      'pending',
    );
  });

  it('approving a write-off on an item a contract change re-planned since: 409 naming the change', async () => {
    t.portal.clock.set('2026-01-15');
    const { bizCode: cont } = await approvedContract(t, maker, checker, { fixture: f });
    await disburse(maker, checker, cont);
    t.portal.clock.set('2026-04-01');
    const open = await maker.ok<ValidPlan>(paidApi.getValidPlanPaid, undefined, {
      query: { contBizCode: cont, paidDate: '2026-04-01' },
    });
    const dueNow = open.items.filter((i) => i.dueDate < '2026-04-01');
    const amount = (dueNow.reduce((s, i) => s + Math.round(Number(i.openTotal) * 100), 0) + 100_000) / 100;
    const fiid = await approvedIncome(maker, checker, f.bankBizCode, amount.toFixed(2), '2026-04-01');
    const w = await submittedPaid(maker, fiid, cont, '2026-04-01');
    // Items 1 and 2 in full, then 1,000.00 of item 3's principal (in advance, principal first).
    expect(w.suggestion.lines.at(-1)).toMatchObject({ period: 3, component: 'PRINCIPAL', amount: '1000.00' });
    const c = await maker.ok<Saved>(contractApi.changeSave, {
      contBizCode: cont,
      reason: '展期',
      info: { maturityDate: '2026-10-15' },
      submit: true,
    });
    await checker.ok(contractApi.changeAudit, { comment: '同意' }, q(c.bizCode));
    const r = await checker.call(paidApi.audit, {}, pq(w.paidBizCode));
    expect([r.status, r.msg]).toEqual([
      409,
      `核销保存后还款计划已变更：第3期已被合同变更 ${c.bizCode} 重新计划，请重新生成核销明细`,
    ]);
  });
});
