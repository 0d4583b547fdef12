import Decimal from 'decimal.js';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  IncomeView,
  PaidSuggestion,
  PaidView,
  PaidRedView,
  Reconciliation,
  ValidPlan,
} from '@portal/contract/accounts';
import { queryRows } from '../../platform/db/client';
import { createTestPortal, onPostgres, type TestClient, type TestPortal } from '../../testing/harness';
import { addChecker } from '../credit/testkit';
import { approvedContract, contractFixture, MONTHLY_RULE, type ContractFixture } from '../contract/testkit';
import { approvedIncome, incomeApi, moneySnapshot, paidApi, paidRedApi, submittedPaid } from './testkit';
import { disburse } from '../loan/testkit';

let t: TestPortal;
let maker: TestClient;
let checker: TestClient;
let f: ContractFixture;
const db = () => t.database.db;
const pq = (paidBizCode: string) => ({ query: { paidBizCode } });
const rq = (paidRedBizCode: string) => ({ query: { paidRedBizCode } });
const fq = (fiidBizCode: string) => ({ query: { fiidBizCode } });
const ON = '2026-04-01';

/**
 * A 100,000.00 contract from 2026-01-15, six monthly items (等额本金, 7.2 %, penalty 1.5×, no grace),
 * disbursed on its start date (only disbursed contracts are written off).
 */
async function monthlyContract(fixture = f) {
  t.portal.clock.set('2026-01-15');
  const { bizCode } = await approvedContract(t, maker, checker, { fixture });
  await disburse(maker, checker, bizCode);
  t.portal.clock.set(ON);
  return bizCode;
}

async function reconciled(): Promise<Reconciliation> {
  return maker.ok<Reconciliation>('/api/ft/api/accounts/reconcile', {
    dateFrom: '2026-01-01',
    dateTo: '2026-12-31',
  });
}

beforeAll(async () => {
  t = await createTestPortal();
  maker = await t.login();
  checker = await addChecker(t);
  f = await contractFixture(t, maker, checker, { limit: '5000000.00', rule: MONTHLY_RULE });
  t.portal.clock.set(ON);
});
afterAll(() => t.close());

describe('incoming payments (来款)', () => {
  it('saves, refuses a duplicate serial number on the account and a future date, approves', async () => {
    const body = {
      bankBizCode: f.bankBizCode,
      payerName: '核心买方有限公司',
      amount: '1,000.00',
      valueDate: '2026-03-20',
      serialNo: 'DUP-0001',
    };
    expect((await maker.call(incomeApi.saveBaseInfo, body)).msg).toBe('来款金额必须是最多两位小数的金额');
    expect((await maker.call(incomeApi.saveBaseInfo, { ...body, amount: '0' })).msg).toBe(
      '来款金额必须大于0',
    );
    const s = await maker.ok<{ fiidBizCode: string; version: number }>(incomeApi.saveBaseInfo, {
      ...body,
      amount: '1000.00',
    });
    const dup = await maker.call(incomeApi.saveBaseInfo, { ...body, amount: '5.00' });
    expect(dup.status).toBe(409);
    expect(dup.msg).toBe(`银行流水号 DUP-0001 在该收款账户已登记（来款 ${s.fiidBizCode}）`);
    const future = await maker.call(incomeApi.saveBaseInfo, {
      ...body,
      amount: '1.00',
      serialNo: 'X-2',
      valueDate: '2026-04-02',
    });
    expect(future.msg).toBe(`来款日期不能晚于营业日 ${ON}`);
    await maker.ok(incomeApi.saveBaseInfo, {
      ...body,
      amount: '1200.00',
      fiidBizCode: s.fiidBizCode,
      version: s.version,
      submit: true,
    });
    await checker.ok(incomeApi.audit, {}, fq(s.fiidBizCode));
    const v = await maker.ok<IncomeView>(incomeApi.viewBaseInfo, undefined, fq(s.fiidBizCode));
    expect(v).toMatchObject({ amount: '1200.00', allocated: '0.00', balance: '1200.00', state: 'approved' });
    const init = await maker.ok<{ list: { fiidBizCode: string }[] }>(incomeApi.initList, {});
    expect(init.list.some((r) => r.fiidBizCode === s.fiidBizCode)).toBe(true);
  });
});

describe('write-off (来款核销)', () => {
  it('shows open items with penalty accrued to the date and allocates by the rule across items', async () => {
    const cont = await monthlyContract();
    const plan = await maker.ok<ValidPlan>(paidApi.getValidPlanPaid, undefined, {
      query: { contBizCode: cont, paidDate: ON },
    });
    expect(plan.items.map((i) => [i.period, i.status])).toEqual([
      [1, '逾期'],
      [2, '逾期'],
      [3, '未到期'],
      [4, '未到期'],
      [5, '未到期'],
      [6, '未到期'],
    ]);
    // Penalty on item 1: principal × days (2026-02-16 .. 2026-03-31, 44 days) × 7.2 % × 1.5 / 360.
    const first = plan.items[0]!;
    const daily = new Decimal('0.072').times('1.5').div(360);
    expect(first.open.PENALTY).toBe(new Decimal(first.principal).times(44).times(daily).toFixed(2));
    const second = plan.items[1]!;
    expect(second.open.PENALTY).toBe(new Decimal(second.principal).times(16).times(daily).toFixed(2));

    const fiid = await approvedIncome(maker, checker, f.bankBizCode, '40000.00', '2026-03-31');
    const s = await maker.ok<PaidSuggestion>(paidApi.getPaiPlanInfo, {
      fiidBizCode: fiid,
      contBizCode: cont,
      paidDate: ON,
    });
    expect(s.lines.map((l) => [l.period, l.component])).toEqual([
      [1, 'PENALTY'],
      [1, 'INTEREST'],
      [1, 'PRINCIPAL'],
      [2, 'PENALTY'],
      [2, 'INTEREST'],
      [2, 'PRINCIPAL'],
      [3, 'PRINCIPAL'],
    ]);
    expect(s.allocated).toBe('40000.00');
    const item3 = s.lines.at(-1)!;
    const firstTwo = plan.items.slice(0, 2).reduce((sum, i) => sum.plus(i.openTotal), new Decimal(0));
    expect(item3.amount).toBe(new Decimal('40000').minus(firstTwo).toFixed(2));
  });

  it('posts on approval: incoming, plan, credit line and reconciliation move together; overpayment stays unallocated', async () => {
    const cont = await monthlyContract();
    const fiid = await approvedIncome(maker, checker, f.bankBizCode, '500000.00', '2026-03-31');
    const before = await moneySnapshot(db(), cont, fiid, f.lineCode);
    const plan = await maker.ok<ValidPlan>(paidApi.getValidPlanPaid, undefined, {
      query: { contBizCode: cont, paidDate: ON },
    });
    const { paidBizCode, suggestion } = await submittedPaid(maker, fiid, cont, ON, '30000.00');
    expect(suggestion.unallocated).toBe('0.00');
    // Nothing moves before approval.
    expect(await moneySnapshot(db(), cont, fiid, f.lineCode)).toEqual(before);
    await checker.ok(paidApi.audit, {}, pq(paidBizCode));
    const after = await moneySnapshot(db(), cont, fiid, f.lineCode);
    expect(after.income).toEqual({ amount: '500000.00', allocated: '30000.00' });
    const principal = suggestion.lines
      .filter((l) => l.component === 'PRINCIPAL')
      .reduce((s, l) => s.plus(l.amount), new Decimal(0));
    expect(new Decimal(before.line!.occupied).minus(after.line!.occupied).toFixed(2)).toBe(
      principal.toFixed(2),
    );
    expect(new Decimal(before.contract!.occupied).minus(after.contract!.occupied).toFixed(2)).toBe(
      principal.toFixed(2),
    );
    const view = await maker.ok<PaidView>(paidApi.viewBaseInfo, undefined, pq(paidBizCode));
    expect(view).toMatchObject({
      state: 'approved',
      amount: '30000.00',
      released: principal.toFixed(2),
      red: false,
    });
    // Items 1 and 2 are settled, item 3 partly paid.
    const now = await maker.ok<ValidPlan>(paidApi.getValidPlanPaid, undefined, {
      query: { contBizCode: cont, paidDate: ON },
    });
    expect(now.items[0]!.period).toBe(2);
    expect(new Decimal(now.openTotal).toFixed(2)).toBe(new Decimal(plan.openTotal).minus('30000').toFixed(2));

    // An overpayment: the rest of the balance covers the whole plan, and what is left stays on the incoming.
    const rest = await maker.ok<PaidSuggestion>(paidApi.getPaiPlanInfo, {
      fiidBizCode: fiid,
      contBizCode: cont,
      paidDate: ON,
    });
    expect(rest.allocated).toBe(now.openTotal);
    expect(new Decimal(rest.unallocated).toFixed(2)).toBe(
      new Decimal('470000').minus(now.openTotal).toFixed(2),
    );
    expect((await reconciled()).balanced).toBe(true);
  });

  it('refuses lines beyond the outstanding, out of the rule order, beyond the balance; and a second approval', async () => {
    const cont = await monthlyContract();
    const fiid = await approvedIncome(maker, checker, f.bankBizCode, '1000.00', '2026-03-31');
    const plan = await maker.ok<ValidPlan>(paidApi.getValidPlanPaid, undefined, {
      query: { contBizCode: cont, paidDate: ON },
    });
    const item = plan.items[0]!;
    const base = { fiidBizCode: fiid, contBizCode: cont, paidDate: ON };
    const over = await maker.call(paidApi.savePlanPaidInfo, {
      ...base,
      kind: 'manual',
      lines: [
        {
          itemId: item.itemId,
          component: 'INTEREST',
          amount: new Decimal(item.open.INTEREST).plus('0.01').toFixed(2),
        },
      ],
    });
    expect(over.status).toBe(409);
    expect(over.msg).toMatch(/^第1期利息核销金额 .* 超过待还金额 /);
    const order = await maker.call(paidApi.savePlanPaidInfo, {
      ...base,
      kind: 'normal',
      lines: [{ itemId: item.itemId, component: 'PRINCIPAL', amount: '100.00' }],
    });
    expect(order.msg).toBe('正常核销须按计息规则的还款顺序分配，如需调整请选择手工分配');
    const tooMuch = await maker.call(paidApi.savePlanPaidInfo, {
      ...base,
      kind: 'manual',
      lines: [{ itemId: item.itemId, component: 'PRINCIPAL', amount: '1000.01' }],
    });
    expect(tooMuch.msg).toBe('核销金额 1,000.01元 超过来款可核销余额 1,000.00元');
    const early = await maker.call(paidApi.savePlanPaidInfo, {
      ...base,
      paidDate: '2026-03-30',
      kind: 'manual',
      lines: [],
    });
    expect(early.msg).toBe('请填写核销明细');

    const { paidBizCode } = await submittedPaid(maker, fiid, cont, ON);
    await checker.ok(paidApi.audit, {}, pq(paidBizCode));
    const again = await checker.call(paidApi.audit, {}, pq(paidBizCode));
    expect(again.status).toBe(409);
    // The incoming is used: it can no longer be rejected.
    const reject = await checker.call(incomeApi.unAudit, { comment: '撤回' }, fq(fiid));
    expect(reject.status).toBe(409);
    expect(reject.msg).toBe(`该来款已有核销记录（${paidBizCode}），不能驳回`);
  });

  it('a manual allocation may pay principal first; two write-offs on one day share the penalty correctly', async () => {
    const cont = await monthlyContract();
    const fiid = await approvedIncome(maker, checker, f.bankBizCode, '100000.00', '2026-03-31');
    const plan = await maker.ok<ValidPlan>(paidApi.getValidPlanPaid, undefined, {
      query: { contBizCode: cont, paidDate: ON },
    });
    const item = plan.items[0]!;
    const m = await maker.ok<{ paidBizCode: string }>(paidApi.savePlanPaidInfo, {
      fiidBizCode: fiid,
      contBizCode: cont,
      paidDate: ON,
      kind: 'manual',
      lines: [{ itemId: item.itemId, component: 'PRINCIPAL', amount: item.open.PRINCIPAL }],
      submit: true,
    });
    await checker.ok(paidApi.audit, {}, pq(m.paidBizCode));
    const now = await maker.ok<ValidPlan>(paidApi.getValidPlanPaid, undefined, {
      query: { contBizCode: cont, paidDate: ON },
    });
    // Item 1's penalty accrued to the day before is still owed, in full, not doubled.
    expect(now.items[0]!.open).toMatchObject({ PRINCIPAL: '0.00', PENALTY: item.open.PENALTY });
  });
});

describe('red reversal (冲红)', () => {
  it('restores every figure exactly; a later write-off on the same items reconciles; reversal is once only', async () => {
    const cont = await monthlyContract();
    const fiid = await approvedIncome(maker, checker, f.bankBizCode, '50000.00', '2026-03-31');
    const before = await moneySnapshot(db(), cont, fiid, f.lineCode);
    const { paidBizCode } = await submittedPaid(maker, fiid, cont, ON, '20000.00');
    await checker.ok(paidApi.audit, {}, pq(paidBizCode));
    const { paidRedBizCode } = await maker.ok<{ paidRedBizCode: string }>(
      paidApi.rushRed,
      { reason: '串户' },
      pq(paidBizCode),
    );
    const twice = await maker.call(paidApi.rushRed, { reason: '测试冲红' }, pq(paidBizCode));
    expect(twice.msg).toBe(`该核销已有冲红单据 ${paidRedBizCode}`);
    const red = await maker.ok<PaidRedView>(paidRedApi.initList, undefined, rq(paidRedBizCode));
    expect(red).toMatchObject({ paidBizCode, amount: '-20000.00', state: 'pending', reason: '串户' });
    expect(red.lines.every((l) => l.amount.startsWith('-'))).toBe(true);
    await checker.ok(paidRedApi.audit, {}, rq(paidRedBizCode));
    expect(await moneySnapshot(db(), cont, fiid, f.lineCode)).toEqual(before);
    expect((await maker.ok<PaidView>(paidApi.viewBaseInfo, undefined, pq(paidBizCode))).red).toBe(true);
    const third = await maker.call(paidApi.rushRed, { reason: '测试冲红' }, pq(paidBizCode));
    expect(third.msg).toBe('该核销已冲红');
    expect((await checker.call(paidRedApi.audit, {}, rq(paidRedBizCode))).status).toBe(409);

    // The same items written off again, then reconciled.
    const again = await submittedPaid(maker, fiid, cont, ON, '20000.00');
    await checker.ok(paidApi.audit, {}, pq(again.paidBizCode));
    const r = await reconciled();
    expect(r.incomeDifferences).toEqual([]);
    expect(r.itemDifferences).toEqual([]);
    expect(r.balanced).toBe(true);
  });

  it('refuses to reverse a write-off that a later one on the same contract followed', async () => {
    const cont = await monthlyContract();
    const fiid = await approvedIncome(maker, checker, f.bankBizCode, '30000.00', '2026-03-31');
    const a = await submittedPaid(maker, fiid, cont, ON, '10000.00');
    await checker.ok(paidApi.audit, {}, pq(a.paidBizCode));
    const b = await submittedPaid(maker, fiid, cont, ON, '10000.00');
    await checker.ok(paidApi.audit, {}, pq(b.paidBizCode));
    const refused = await maker.call(paidApi.rushRed, { reason: '测试冲红' }, pq(a.paidBizCode));
    expect(refused.status).toBe(409);
    expect(refused.msg).toBe(`该合同在此核销之后还有已审核的核销 ${b.paidBizCode}，请先冲红最近的核销`);
    const latest = await maker.ok<{ paidRedBizCode: string }>(
      paidApi.rushRed,
      { reason: '测试冲红' },
      pq(b.paidBizCode),
    );
    await checker.ok(paidRedApi.audit, {}, rq(latest.paidRedBizCode));
    const first = await maker.ok<{ paidRedBizCode: string }>(
      paidApi.rushRed,
      { reason: '测试冲红' },
      pq(a.paidBizCode),
    );
    await checker.ok(paidRedApi.audit, {}, rq(first.paidRedBizCode));
    const income = await maker.ok<IncomeView>(incomeApi.viewBaseInfo, undefined, fq(fiid));
    expect(income.allocated).toBe('0.00');
    // A rejected entry can be deleted, with the list's confirmation on the screen.
    const c = await submittedPaid(maker, fiid, cont, ON, '100.00');
    await checker.ok(paidApi.audit, {}, pq(c.paidBizCode));
    const entry = await maker.ok<{ paidRedBizCode: string }>(
      paidApi.rushRed,
      { reason: '测试冲红' },
      pq(c.paidBizCode),
    );
    await checker.ok(paidRedApi.unAudit, { comment: '不冲了' }, rq(entry.paidRedBizCode));
    await maker.ok(paidRedApi.deleteInfo, undefined, rq(entry.paidRedBizCode));
    expect((await maker.call(paidRedApi.initList, undefined, rq(entry.paidRedBizCode))).status).toBe(404);
  });

  it('an early settlement settles the contract and releases its line; its reversal puts both back', async () => {
    const g = await contractFixture(t, maker, checker, { limit: '100000.00', rule: MONTHLY_RULE });
    const cont = await monthlyContract(g);
    const fiid = await approvedIncome(maker, checker, g.bankBizCode, '200000.00', '2026-03-31');
    const before = await moneySnapshot(db(), cont, fiid, g.lineCode);
    expect(before.line!.occupied).toBe('100000.00');
    const quote = await maker.ok<PaidSuggestion>(paidApi.getSpecialPlanInfo, {
      fiidBizCode: fiid,
      contBizCode: cont,
      paidDate: ON,
      mode: 'settlement',
    });
    expect(quote.kind).toBe('settlement');
    expect(new Decimal(quote.settlement!.interestWaived).gt(0)).toBe(true);
    const s = await maker.ok<{ paidBizCode: string; amount: string }>(paidApi.savePlanPaidInfo, {
      fiidBizCode: fiid,
      contBizCode: cont,
      paidDate: ON,
      kind: 'settlement',
      lines: quote.lines.map((l) => ({ itemId: l.itemId, component: l.component, amount: l.amount })),
      submit: true,
    });
    expect(s.amount).toBe(quote.amount);
    await checker.ok(paidApi.audit, {}, pq(s.paidBizCode));
    const settled = await moneySnapshot(db(), cont, fiid, g.lineCode);
    expect(settled.contract).toMatchObject({ status: 'settled', occupied: '0.00', principalOpen: '0.00' });
    expect(settled.line!.occupied).toBe('0.00');
    const { paidRedBizCode } = await maker.ok<{ paidRedBizCode: string }>(
      paidApi.rushRed,
      { reason: '测试冲红' },
      pq(s.paidBizCode),
    );
    await checker.ok(paidRedApi.audit, {}, rq(paidRedBizCode));
    expect(await moneySnapshot(db(), cont, fiid, g.lineCode)).toEqual(before);
    expect((await reconciled()).balanced).toBe(true);
  });
});

describe('reconciliation (对账)', () => {
  it('lists a difference when a stored figure drifts from the documents', async () => {
    const cont = await monthlyContract();
    const fiid = await approvedIncome(maker, checker, f.bankBizCode, '3000.00', '2026-03-31');
    const { paidBizCode } = await submittedPaid(maker, fiid, cont, ON);
    await checker.ok(paidApi.audit, {}, pq(paidBizCode));
    expect((await reconciled()).balanced).toBe(true);
    // Tamper behind the application's back (what the check exists to catch), then put it back.
    await queryRows(db(), sql`update incomes set allocated = allocated - 1 where biz_code = ${fiid}`);
    const r = await reconciled();
    expect(r.balanced).toBe(false);
    expect(r.incomeDifferences).toEqual([
      expect.objectContaining({ fiidBizCode: fiid, difference: '-1.00' }),
    ]);
    await queryRows(db(), sql`update incomes set allocated = allocated + 1 where biz_code = ${fiid}`);
    expect((await reconciled()).balanced).toBe(true);
  });
});

describe.runIf(onPostgres)('concurrency (PostgreSQL)', () => {
  it('50 write-offs approved concurrently against one incoming never allocate more than it holds', async () => {
    const g = await contractFixture(t, maker, checker, { limit: '5000000.00', rule: MONTHLY_RULE });
    const conts: string[] = [];
    for (let i = 0; i < 5; i++) conts.push(await monthlyContract(g));
    const fiid = await approvedIncome(maker, checker, g.bankBizCode, '10000.00', '2026-03-31');
    const codes: string[] = [];
    for (let i = 0; i < 50; i++) {
      const item = (
        await maker.ok<ValidPlan>(paidApi.getValidPlanPaid, undefined, {
          query: { contBizCode: conts[i % 5]!, paidDate: ON },
        })
      ).items.at(-1)!;
      const s = await maker.ok<{ paidBizCode: string }>(paidApi.savePlanPaidInfo, {
        fiidBizCode: fiid,
        contBizCode: conts[i % 5],
        paidDate: ON,
        kind: 'manual',
        lines: [{ itemId: item.itemId, component: 'PRINCIPAL', amount: '500.00' }],
        submit: true,
      });
      codes.push(s.paidBizCode);
    }
    const results = await Promise.all(codes.map((c) => checker.call(paidApi.audit, {}, pq(c))));
    const ok = results.filter((r) => r.status === 200).length;
    console.info(`write-offs: ${results.length} concurrent against one incoming, ${ok} approved`);
    expect(ok).toBe(20);
    expect(results.filter((r) => r.status !== 200).every((r) => r.msg === '来款可核销余额不足')).toBe(true);
    const v = await maker.ok<IncomeView>(incomeApi.viewBaseInfo, undefined, fq(fiid));
    expect(v).toMatchObject({ allocated: '10000.00', balance: '0.00' });
    expect((await reconciled()).balanced).toBe(true);
  });

  it('50 write-offs approved concurrently against one plan item never pay it beyond its outstanding', async () => {
    const cont = await monthlyContract();
    const item = (
      await maker.ok<ValidPlan>(paidApi.getValidPlanPaid, undefined, {
        query: { contBizCode: cont, paidDate: ON },
      })
    ).items.at(-1)!;
    const codes: string[] = [];
    const step = new Decimal(item.open.PRINCIPAL).div(10).toDecimalPlaces(2, Decimal.ROUND_UP).toFixed(2);
    for (let i = 0; i < 50; i++) {
      const fiid = await approvedIncome(maker, checker, f.bankBizCode, step, '2026-03-31');
      const s = await maker.ok<{ paidBizCode: string }>(paidApi.savePlanPaidInfo, {
        fiidBizCode: fiid,
        contBizCode: cont,
        paidDate: ON,
        kind: 'manual',
        lines: [{ itemId: item.itemId, component: 'PRINCIPAL', amount: step }],
        submit: true,
      });
      codes.push(s.paidBizCode);
    }
    const results = await Promise.all(codes.map((c) => checker.call(paidApi.audit, {}, pq(c))));
    const ok = results.filter((r) => r.status === 200).length;
    console.info(`write-offs: ${results.length} concurrent against one plan item, ${ok} approved`);
    const [row] = await queryRows<{ paid: string; due: string }>(
      db(),
      sql`select principal_paid::text as paid, principal::text as due from contract_plan_items where id = ${item.itemId}`,
    );
    expect(new Decimal(row!.paid).lte(row!.due)).toBe(true);
    expect(new Decimal(row!.paid).eq(new Decimal(step).times(ok))).toBe(true);
    expect(ok).toBe(new Decimal(item.open.PRINCIPAL).div(step).floor().toNumber());
    expect((await reconciled()).balanced).toBe(true);
  });
});
