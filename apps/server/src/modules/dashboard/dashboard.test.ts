import Decimal from 'decimal.js';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DASHBOARD_PATHS,
  type AgingRow,
  type PortfolioFigures,
  type TrendPoint,
} from '@portal/contract/dashboard';
import type { SchemeView } from '@portal/contract/contract';
import type { ValidPlan } from '@portal/contract/accounts';
import { addDays, daysBetween } from '@portal/contract/plan/dates';
import {
  createTestPortal,
  createUserWithCodes,
  type TestClient,
  type TestPortal,
  servedPaths,
} from '../../testing/harness';
import { addChecker } from '../credit/testkit';
import { approvedIncome, paidApi } from '../paid/testkit';
import { disburse } from '../loan/testkit';
import {
  approvedContract,
  BULLET_RULE,
  contractFixture,
  contractApi,
  MONTHLY_RULE,
  receivable,
} from '../contract/testkit';

/** A generated portfolio on a month-end business date, with items on and around every boundary. */
const TODAY = '2026-05-31';
const dashboardApi = servedPaths(DASHBOARD_PATHS);

let t: TestPortal;
let admin: TestClient;
const items: {
  status: string;
  penaltyOpen: Decimal;
  dueDate: string;
  open: Decimal;
  principalOpen: Decimal;
  interestOpen: Decimal;
  /** Earned through TODAY and not received (应收利息); off the books past 90 days past due (表外). */
  interestAccrued: Decimal;
  interestOff: Decimal;
  feeOpen: Decimal;
  grace: number;
  code: string;
}[] = [];
const contracts: { code: string; amount: string; startDate: string }[] = [];
/** Incoming and written off in the months before April (YYYY-MM → amount). */
const earlier: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestPortal({ BUSINESS_DATE: TODAY });
  admin = await t.login();
  const checker = await addChecker(t);
  const monthly = await contractFixture(t, admin, checker, { limit: '5000000.00', rule: MONTHLY_RULE });
  const graced = await contractFixture(t, admin, checker, { rule: { ...MONTHLY_RULE, graceDays: 5 } });
  const bullet = await contractFixture(t, admin, checker, { rule: BULLET_RULE });
  const plans: [typeof monthly, string, string, string][] = [
    [monthly, '600000.00', '2026-01-31', '2026-07-31'], // due 02-28 … 07-31: 92, 61, 31 days late, due today
    [monthly, '200000.00', '2026-04-30', '2026-06-30'], // due 05-30: one day late
    [graced, '300000.00', '2026-04-28', '2026-06-28'], // due 05-28: within 5 grace days
    [bullet, '100000.00', '2026-05-01', '2026-06-07'], // due today + 7
    [bullet, '150000.00', '2026-05-01', '2026-07-01'], // due today + 31: not in the 30-day window
  ];
  for (const [fx, amount, startDate, maturityDate] of plans) {
    const { bizCode } = await approvedContract(t, admin, checker, {
      fixture: fx,
      over: {
        financingAmount: amount,
        startDate,
        maturityDate,
        receivables: [receivable('2000000.00', maturityDate)],
      },
    });
    // Paid out on its start date (the portfolio counts disbursed contracts only).
    await disburse(admin, checker, bizCode);
    contracts.push({ code: bizCode, amount, startDate });
  }
  // Money: two incomings (April, May), one written off in part against the bullet due 06-07.
  const bank = (await contractFixture(t, admin, checker)).bankBizCode;
  await approvedIncome(admin, checker, bank, '5000.00', '2026-04-15');
  const may = await approvedIncome(admin, checker, bank, '12000.00', '2026-05-20');
  const target = contracts[3]!.code;
  const plan = await admin.ok<ValidPlan>(paidApi.getValidPlanPaid, undefined, {
    query: { contBizCode: target, paidDate: '2026-05-20' },
  });
  const paid = await admin.ok<{ paidBizCode: string }>(paidApi.savePlanPaidInfo, {
    fiidBizCode: may,
    contBizCode: target,
    paidDate: '2026-05-20',
    kind: 'manual',
    lines: [{ itemId: plan.items[0]!.itemId, component: 'PRINCIPAL', amount: '10000.00' }],
    submit: true,
  });
  await checker.ok(paidApi.audit, {}, { query: { paidBizCode: paid.paidBizCode } });
  // Payments, written off on their due dates (no penalty): the first item of the first contract
  // settled, half the principal of its second item paid.
  const first = contracts[0]!.code;
  const payOn = async (date: string, lines: (item: ValidPlan['items'][number]) => [string, string][]) => {
    const open = await admin.ok<ValidPlan>(paidApi.getValidPlanPaid, undefined, {
      query: { contBizCode: first, paidDate: date },
    });
    const item = open.items.find((i) => i.dueDate === date)!;
    const picked = lines(item).map(([component, amount]) => ({ itemId: item.itemId, component, amount }));
    const amount = picked.reduce((sum, l) => sum.plus(l.amount), new Decimal(0)).toFixed(2);
    const fiid = await approvedIncome(admin, checker, bank, amount, date);
    const w = await admin.ok<{ paidBizCode: string }>(paidApi.savePlanPaidInfo, {
      fiidBizCode: fiid,
      contBizCode: first,
      paidDate: date,
      kind: 'manual',
      lines: picked,
      submit: true,
    });
    await checker.ok(paidApi.audit, {}, { query: { paidBizCode: w.paidBizCode } });
    earlier[date.slice(0, 7)] = amount;
  };
  await payOn('2026-02-28', (i) => [
    ['PRINCIPAL', i.open.PRINCIPAL],
    ['INTEREST', i.open.INTEREST],
  ]);
  await payOn('2026-03-31', (i) => [['PRINCIPAL', new Decimal(i.principal).div(2).toFixed(2)]]);
  for (const c of contracts) {
    const plan = await admin.ok<SchemeView>(contractApi.schemeView, undefined, {
      query: { contBizCode: c.code },
    });
    for (const i of plan.items) {
      const principalOpen = new Decimal(i.principal).minus(i.principalPaid);
      const interestOpen = new Decimal(i.interest).minus(i.interestPaid);
      const feeOpen = new Decimal(i.fee).minus(i.feePaid);
      const earned =
        i.dueDate <= TODAY
          ? new Decimal(i.interest)
          : i.startDate > TODAY
            ? new Decimal(0)
            : new Decimal(i.interest)
                .times(daysBetween(i.startDate, addDays(TODAY, 1)))
                .div(daysBetween(i.startDate, i.dueDate))
                .toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
      const off = daysBetween(i.dueDate, TODAY) > 90;
      items.push({
        interestAccrued: off ? new Decimal(0) : Decimal.max(0, earned.minus(i.interestPaid)),
        interestOff: off ? interestOpen : new Decimal(0),
        status: i.status,
        penaltyOpen: new Decimal(i.penalty).minus(i.penaltyPaid),
        dueDate: i.dueDate,
        principalOpen,
        interestOpen,
        feeOpen,
        open: principalOpen.plus(interestOpen).plus(feeOpen),
        grace: plan.rule!.graceDays,
        code: c.code,
      });
    }
  }
});
afterAll(() => t.close());

const total = (rows: typeof items, pick: (r: (typeof items)[number]) => Decimal) =>
  rows.reduce((s, r) => s.plus(pick(r)), new Decimal(0)).toFixed(2);
const overdue = (r: (typeof items)[number]) => addDays(r.dueDate, r.grace) < TODAY && r.open.gt(0);
const within = (days: number) => (r: (typeof items)[number]) =>
  r.dueDate >= TODAY && r.dueDate <= addDays(TODAY, days);

describe('dashboard figures equal the sums over the plan items', () => {
  it('portfolio', async () => {
    const p = await admin.ok<PortfolioFigures>(dashboardApi.portfolio);
    const due7 = items.filter(within(7));
    const due30 = items.filter(within(30));
    expect(p).toEqual({
      asOf: TODAY,
      contractCount: 5,
      outstandingPrincipal: total(items, (r) => r.principalOpen),
      interestReceivable: total(items, (r) => r.interestAccrued),
      interestNotDue: total(items, (r) => r.interestOpen.minus(r.interestAccrued).minus(r.interestOff)),
      interestOffBalance: total(items, (r) => r.interestOff),
      feeReceivable: total(items, (r) => r.feeOpen),
      due7: total(due7, (r) => r.open),
      due7Count: due7.filter((r) => r.open.gt(0)).length,
      due30: total(due30, (r) => r.open),
      due30Count: due30.filter((r) => r.open.gt(0)).length,
      overdueAmount: total(items.filter(overdue), (r) => r.open),
      overduePenalty: total(items.filter(overdue), (r) => r.penaltyOpen),
      overdueCount: items.filter(overdue).length,
      overdueContracts: new Set(items.filter(overdue).map((r) => r.code)).size,
    });
    // The boundaries themselves: due today is due, not overdue; the graced item is not overdue yet;
    // the settled first item is neither.
    expect(items.some((r) => r.dueDate === TODAY)).toBe(true);
    // 03-31 (half paid), 04-30 and 05-30 are late; 02-28 is settled.
    expect(p.overdueCount).toBe(3);
    // Each is 逾期 in the plan view, and the penalty is the plan view's: due − paid.
    expect(items.filter(overdue).map((r) => r.status)).toEqual(['逾期', '逾期', '逾期']);
    expect(new Decimal(p.overduePenalty).gt(0)).toBe(true);
    expect(items.find((r) => r.dueDate === '2026-06-07')).toBeTruthy();
  });

  it('aging buckets by days past the due date, across month ends', async () => {
    const rows = await admin.ok<AgingRow[]>(dashboardApi.aging);
    const bucket = (r: (typeof items)[number]) => {
      const days = daysBetween(r.dueDate, TODAY);
      return days <= 30 ? '1-30' : days <= 60 ? '31-60' : days <= 90 ? '61-90' : '90+';
    };
    const late = items.filter(overdue);
    expect(rows).toEqual(
      (['1-30', '31-60', '61-90', '90+'] as const).map((b) => ({
        bucket: b,
        amount: total(
          late.filter((r) => bucket(r) === b),
          (r) => r.open,
        ),
        count: late.filter((r) => bucket(r) === b).length,
      })),
    );
    // 05-30 → 1 day (1-30), 04-30 → 31 (31-60), 03-31 → 61 (61-90); 02-28 (92 days) is settled.
    expect(rows.map((r) => r.count)).toEqual([1, 1, 1, 0]);
  });

  it('trend: incoming, written off, financing and contracts by month', async () => {
    const points = await admin.ok<TrendPoint[]>(dashboardApi.trend, { months: 6 });
    expect(points.map((x) => x.month)).toEqual([
      '2025-12',
      '2026-01',
      '2026-02',
      '2026-03',
      '2026-04',
      '2026-05',
    ]);
    for (const p of points) {
      const started = contracts.filter((c) => c.startDate.startsWith(p.month));
      expect(p).toEqual({
        month: p.month,
        incoming: { ...earlier, '2026-04': '5000.00', '2026-05': '12000.00' }[p.month] ?? '0.00',
        writtenOff: { ...earlier, '2026-05': '10000.00' }[p.month] ?? '0.00',
        financed: started.reduce((s, c) => s.plus(c.amount), new Decimal(0)).toFixed(2),
        contracts: started.length,
      });
    }
  });

  it('each figure clicks through to the contract list filtered the same way', async () => {
    const p = await admin.ok<PortfolioFigures>(dashboardApi.portfolio);
    const late = await admin.ok<{ total: number }>(contractApi.list, { overdue: true });
    expect(late.total).toBe(p.overdueContracts);
    const soon = await admin.ok<{ total: number }>(contractApi.list, {
      itemDueFrom: TODAY,
      itemDueTo: addDays(TODAY, 7),
    });
    expect(soon.total).toBe(
      new Set(
        items
          .filter(within(7))
          .filter((r) => r.open.gt(0))
          .map((r) => r.code),
      ).size,
    );
  });

  it('follows data scope and permission', async () => {
    const { roleId } = await createUserWithCodes(t.database.db, 'own1', 'Own@1234567890', [
      'ft-contract-info',
    ]);
    await t.database.db.execute(sql`update roles set data_scope = 'self' where id = ${roleId}`);
    const own = await t.login('own1', 'Own@1234567890');
    const p = await own.ok<PortfolioFigures>(dashboardApi.portfolio);
    expect(p).toMatchObject({ contractCount: 0, outstandingPrincipal: '0.00', overdueCount: 0 });
    await createUserWithCodes(t.database.db, 'none1', 'None@1234567890', ['ft-bank']);
    const none = await t.login('none1', 'None@1234567890');
    expect((await none.call(dashboardApi.aging)).status).toBe(401);
    expect(daysBetween('2026-02-28', TODAY)).toBe(92);
  });
});

describe('cached figures', () => {
  it('are recomputed as soon as a write-off changes the portfolio', async () => {
    const before = await admin.ok<PortfolioFigures>(dashboardApi.portfolio);
    expect(await admin.ok<PortfolioFigures>(dashboardApi.portfolio)).toEqual(before);
    const checker = await addChecker(t, 'checker2');
    const bank = (await contractFixture(t, admin, checker)).bankBizCode;
    const fiid = await approvedIncome(admin, checker, bank, '100.00', TODAY);
    const target = contracts[4]!.code;
    const plan = await admin.ok<ValidPlan>(paidApi.getValidPlanPaid, undefined, {
      query: { contBizCode: target, paidDate: TODAY },
    });
    const paid = await admin.ok<{ paidBizCode: string }>(paidApi.savePlanPaidInfo, {
      fiidBizCode: fiid,
      contBizCode: target,
      paidDate: TODAY,
      kind: 'manual',
      lines: [{ itemId: plan.items[0]!.itemId, component: 'PRINCIPAL', amount: '100.00' }],
      submit: true,
    });
    await checker.ok(paidApi.audit, {}, { query: { paidBizCode: paid.paidBizCode } });
    const after = await admin.ok<PortfolioFigures>(dashboardApi.portfolio);
    expect(after.outstandingPrincipal).toBe(
      new Decimal(before.outstandingPrincipal).minus('100.00').toFixed(2),
    );
  });
});
