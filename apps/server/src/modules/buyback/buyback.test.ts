import Decimal from 'decimal.js';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaidSuggestion, Reconciliation } from '@portal/contract/accounts';
import {
  BUYBACK_PATHS,
  type BuybackQuote,
  type BuybackSettleView,
  type BuybackView,
} from '@portal/contract/buyback';
import { DASHBOARD_PATHS, type PortfolioFigures } from '@portal/contract/dashboard';
import { LEDGER_PATHS, type LedgerPage } from '@portal/contract/ledger';
import { button, menu } from '@portal/contract/menus';
import { queryRows } from '../../platform/db/client';
import {
  createDept,
  createTestPortal,
  createUserWithCodes,
  onPostgres,
  servedPaths,
  type TestClient,
  type TestPortal,
} from '../../testing/harness';
import { addChecker } from '../credit/testkit';
import { approvedContract, contractFixture, MONTHLY_RULE, type ContractFixture } from '../contract/testkit';
import { disburse } from '../loan/testkit';
import { approvedIncome, incomeApi, paidApi, paidRedApi } from '../paid/testkit';

const api = servedPaths(BUYBACK_PATHS);
const ledgerApi = servedPaths(LEDGER_PATHS);
const dashboardApi = servedPaths(DASHBOARD_PATHS);
const bq = (buybackBizCode: string) => ({ query: { buybackBizCode } });
const sq = (settleBizCode: string) => ({ query: { settleBizCode } });
const ON = '2026-05-10';
const PW = 'Buyback@12345678';

let t: TestPortal;
let maker: TestClient;
let checker: TestClient;
let f: ContractFixture;
const db = () => t.database.db;

/**
 * A 100,000.00 contract from 2026-01-15 (six monthly items, 7.2 %, penalty 1.5×), disbursed on its
 * start date; nothing paid, so by ON three items are overdue.
 */
async function overdueContract(recourse: 'with' | 'without' = 'with'): Promise<string> {
  t.portal.clock.set('2026-01-15');
  const { bizCode } = await approvedContract(t, maker, checker, { fixture: f, over: { recourse } });
  await disburse(maker, checker, bizCode);
  t.portal.clock.set(ON);
  return bizCode;
}

async function contractRow(code: string) {
  const [r] = await queryRows<{
    status: string;
    principal_open: string;
    interest_open: string;
    occupied: string;
  }>(
    db(),
    sql`select status, principal_open::text, interest_open::text, occupied_amount::text as occupied
          from contracts where biz_code = ${code}`,
  );
  return r!;
}

async function lineOccupied(): Promise<string> {
  const [r] = await queryRows<{ occupied: string }>(
    db(),
    sql`select occupied_amount::text as occupied from credit_lines where biz_code = ${f.lineCode}`,
  );
  return r!.occupied;
}

async function voucherLines(docType: string, docCode: string) {
  return queryRows<{ role: string; debit: string; credit: string }>(
    db(),
    sql`select l.role, l.debit::text, l.credit::text from voucher_lines l join vouchers v on v.id = l.voucher_id
         where v.doc_type = ${docType} and v.doc_code = ${docCode} order by l.id`,
  );
}

/** A 回购单 saved and submitted by the maker, approved by the checker. */
async function approvedBuyback(contBizCode: string, buybackDate = ON): Promise<string> {
  const s = await maker.ok<{ buybackBizCode: string }>(api.saveBaseInfo, {
    contBizCode,
    buybackDate,
    submit: true,
  });
  await checker.ok(api.audit, { comment: '同意' }, bq(s.buybackBizCode));
  return s.buybackBizCode;
}

const ledgerRow = async (contBizCode: string, asOf: string) =>
  (await maker.ok<LedgerPage>(ledgerApi.list, { pageNum: 1, pageSize: 50, asOf })).list.find(
    (r) => r.contBizCode === contBizCode,
  )!;

beforeAll(async () => {
  t = await createTestPortal();
  maker = await t.login();
  checker = await addChecker(t);
  f = await contractFixture(t, maker, checker, { limit: '5000000.00', rule: MONTHLY_RULE });
  t.portal.clock.set(ON);
}, 300_000);
afterAll(() => t.close());

// Each case makes, approves and disburses its own contracts through the API: slow on a busy machine.
const SLOW = { timeout: 300_000 };

describe('回购单', SLOW, () => {
  it('refuses a without-recourse contract, an undisbursed one, a future date', async () => {
    const without = await overdueContract('without');
    const r = await maker.call(api.saveBaseInfo, { contBizCode: without, buybackDate: ON });
    expect([r.status, r.msg]).toEqual([409, '无追索合同不能回购']);
    t.portal.clock.set('2026-01-15');
    const { bizCode: undisbursed } = await approvedContract(t, maker, checker, { fixture: f });
    t.portal.clock.set(ON);
    const u = await maker.call(api.quote, undefined, {
      query: { contBizCode: undisbursed, buybackDate: ON },
    });
    expect([u.status, u.msg]).toEqual([409, '合同未放款，不能回购']);
    const c = await overdueContract();
    const future = await maker.call(api.saveBaseInfo, { contBizCode: c, buybackDate: '2026-05-11' });
    expect([future.status, future.msg]).toEqual([400, `回购日期不能晚于营业日 ${ON}`]);
    const bad = await maker.call(api.saveBaseInfo, { contBizCode: c, buybackDate: '2026-02-30' });
    expect([bad.status, bad.msg]).toEqual([400, '回购日期必须是有效日期（YYYY-MM-DD）']);
  });

  it('fixes the amount as the early-settlement quote of the plan, each part shown', async () => {
    const c = await overdueContract();
    const q = await maker.ok<BuybackQuote>(api.quote, undefined, {
      query: { contBizCode: c, buybackDate: ON },
    });
    expect(q.principal).toBe('100000.00');
    expect(new Decimal(q.penalty).gt(0)).toBe(true);
    expect(new Decimal(q.principal).plus(q.interest).plus(q.fee).plus(q.penalty).toFixed(2)).toBe(q.amount);
    expect(q.lines.reduce((s, l) => s.plus(l.amount), new Decimal(0)).toFixed(2)).toBe(q.amount);
    // The very figure a settlement write-off of the same date would take (one formula).
    const income = await approvedIncome(maker, checker, f.bankBizCode, '500000.00', ON);
    const s = await maker.ok<PaidSuggestion>(paidApi.getSpecialPlanInfo, {
      fiidBizCode: income,
      contBizCode: c,
      paidDate: ON,
      mode: 'settlement',
    });
    expect(s.settlement!.total).toBe(q.amount);
    expect(s.settlement!.interestWaived).toBe(q.interestWaived);
  });

  it('four eyes; approval closes the plan into the buy-back receivable, posts its voucher', async () => {
    const c = await overdueContract();
    const before = await maker.ok<PortfolioFigures>(dashboardApi.portfolio, {});
    const beforeRow = await ledgerRow(c, ON);
    expect(beforeRow.overdueDays).toBeGreaterThan(0);
    const s = await maker.ok<{ buybackBizCode: string }>(api.saveBaseInfo, {
      contBizCode: c,
      buybackDate: ON,
      submit: true,
    });
    const code = s.buybackBizCode;
    // A second 回购单 of the same contract is refused while this one stands.
    const again = await maker.call(api.saveBaseInfo, { contBizCode: c, buybackDate: ON });
    expect([again.status, again.msg]).toEqual([409, `该合同已有回购单 ${code}`]);
    // The maker may not approve their own document.
    expect((await maker.call(api.audit, { comment: '自审' }, bq(code))).status).toBe(409);
    await checker.ok(api.audit, { comment: '同意' }, bq(code));
    const v = await maker.ok<BuybackView>(api.viewBaseInfo, undefined, bq(code));
    expect(v.state).toBe('approved');
    expect(v.open).toBe(v.amount);
    expect(v.paidBizCode).not.toBeNull();
    expect(v.lines.reduce((x, l) => x.plus(l.amount), new Decimal(0)).toFixed(2)).toBe(v.amount);

    // The contract stops: settled, nothing open, nothing overdue; no write-off any more.
    expect(await contractRow(c)).toMatchObject({
      status: 'settled',
      principal_open: '0.00',
      interest_open: '0.00',
    });
    const after = await maker.ok<PortfolioFigures>(dashboardApi.portfolio, {});
    expect(new Decimal(before.outstandingPrincipal).minus(after.outstandingPrincipal).toFixed(2)).toBe(
      v.principal,
    );
    expect(after.overdueContracts).toBe(before.overdueContracts - 1);
    const row = await ledgerRow(c, ON);
    expect([row.principalOutstanding, row.overdueAmount, row.overdueDays]).toEqual(['0.00', '0.00', 0]);
    // As of the day before, the ledger reads the contract as it stood then.
    expect((await ledgerRow(c, '2026-05-09')).principalOutstanding).toBe('100000.00');
    const income = await approvedIncome(maker, checker, f.bankBizCode, '100.00', ON);
    const w = await maker.call(paidApi.getPaiPlanInfo, { fiidBizCode: income, contBizCode: c, paidDate: ON });
    expect([w.status, w.msg]).toEqual([409, '合同已结清，不能核销']);

    expect(await voucherLines('buyback', code)).toEqual(
      [
        { role: 'buyback', debit: v.amount, credit: '0.00' },
        { role: 'factoring', debit: '0.00', credit: v.principal },
        { role: 'interestIncome', debit: '0.00', credit: v.interest },
        { role: 'penaltyIncome', debit: '0.00', credit: v.penalty },
      ].filter((l) => l.debit !== '0.00' || l.credit !== '0.00'),
    );
    // 反审核 of an approved 回购单 is refused: 冲红 is the way back.
    expect((await checker.call(api.unAudit, { comment: '撤销' }, bq(code))).status).toBe(409);
    const rec = await maker.ok<Reconciliation>('/api/ft/api/accounts/reconcile', {
      dateFrom: '2026-01-01',
      dateTo: '2026-12-31',
    });
    expect(rec.itemDifferences).toEqual([]);
  });

  it('is settled by incomings, never above its amount; principal releases the credit; then no 冲红', async () => {
    const c = await overdueContract();
    const code = await approvedBuyback(c);
    const v = await maker.ok<BuybackView>(api.viewBaseInfo, undefined, bq(code));
    const occupied = await lineOccupied();
    const income = await approvedIncome(maker, checker, f.bankBizCode, '200000.00', ON, '卖方有限公司');
    const over = await maker.call(api.settleSave, {
      buybackBizCode: code,
      fiidBizCode: income,
      settleDate: ON,
      amount: new Decimal(v.amount).plus('0.01').toFixed(2),
    });
    expect(over.status).toBe(409);
    expect(over.msg).toMatch(/^核销金额 .* 超过回购款未收金额 /);
    // Interest and penalty first, then 10,000.00 of principal.
    const first = new Decimal(v.interest).plus(v.fee).plus(v.penalty).plus('10000.00').toFixed(2);
    const s = await maker.ok<{ settleBizCode: string }>(api.settleSave, {
      buybackBizCode: code,
      fiidBizCode: income,
      settleDate: ON,
      amount: first,
      submit: true,
    });
    expect((await maker.call(api.settleAudit, {}, sq(s.settleBizCode))).status).toBe(409);
    await checker.ok(api.settleAudit, {}, sq(s.settleBizCode));
    const sv = await maker.ok<BuybackSettleView>(api.settleView, undefined, sq(s.settleBizCode));
    expect([sv.state, sv.principal, sv.released]).toEqual(['approved', '10000.00', '10000.00']);
    expect(new Decimal(occupied).minus(await lineOccupied()).toFixed(2)).toBe('10000.00');
    const after = await maker.ok<BuybackView>(api.viewBaseInfo, undefined, bq(code));
    expect([after.settled, after.open]).toEqual([first, '90000.00']);
    expect(await voucherLines('buybackSettle', s.settleBizCode)).toEqual([
      { role: 'advance', debit: first, credit: '0.00' },
      { role: 'buyback', debit: '0.00', credit: first },
    ]);
    const red = await maker.call(api.rushRed, { reason: '误录' }, bq(code));
    expect([red.status, red.msg]).toEqual([409, `回购单已有回购款核销 ${s.settleBizCode}，不能冲红`]);
    // The incoming a settlement spent can no longer be revoked.
    const rev = await checker.call(
      incomeApi.unAudit,
      { comment: '撤销' },
      { query: { fiidBizCode: income } },
    );
    expect(rev.status).toBe(409);
    // The incoming's allocated figure counts the settlement as a document that moved it.
    const rec = await maker.ok<Reconciliation>('/api/ft/api/accounts/reconcile', {
      dateFrom: '2026-01-01',
      dateTo: '2026-12-31',
    });
    expect([rec.itemDifferences, rec.incomeDifferences, rec.balanced]).toEqual([[], [], true]);
  });

  it('冲红 while nothing was paid restores the plan, the contract and mirrors the voucher', async () => {
    const c = await overdueContract();
    const before = await contractRow(c);
    const items = () =>
      queryRows(
        db(),
        sql`select period, interest::text, principal_paid::text, interest_paid::text, penalty_paid::text
              from contract_plan_items i join contracts k on k.id = i.contract_id
             where k.biz_code = ${c} and i.superseded_by is null order by period`,
      );
    const plan = await items();
    const code = await approvedBuyback(c);
    expect((await contractRow(c)).status).toBe('settled');
    const noReason = await maker.call(api.rushRed, { reason: '' }, bq(code));
    expect(noReason.status).toBe(400);
    await maker.ok(api.rushRed, { reason: '债务人已付款' }, bq(code));
    expect(await contractRow(c)).toEqual(before);
    expect(await items()).toEqual(plan);
    const v = await maker.ok<BuybackView>(api.viewBaseInfo, undefined, bq(code));
    expect([v.redState, v.redReason]).toEqual(['reversed', '债务人已付款']);
    const [sum] = await queryRows<{ d: string; c: string }>(
      db(),
      sql`select sum(l.debit)::text as d, sum(l.credit)::text as c from voucher_lines l
            join vouchers v on v.id = l.voucher_id
           where v.doc_code = ${code} and v.doc_type in ('buyback', 'buybackRed') and l.role = 'buyback'`,
    );
    expect(new Decimal(sum!.d).toFixed(2)).toBe('0.00');
    const again = await maker.call(api.rushRed, { reason: '再冲' }, bq(code));
    expect([again.status, again.msg]).toEqual([409, '该回购单已冲红']);
    // The contract is back in force: a new 回购单 may be raised.
    const next = await maker.ok<{ buybackBizCode: string }>(api.saveBaseInfo, {
      contBizCode: c,
      buybackDate: ON,
    });
    expect(next.buybackBizCode).not.toBe(code);
    // The closure's reversal is no 来款核销冲红 of the list.
    const reds = await maker.ok<{ list: unknown[] }>(paidRedApi.list, { pageNum: 1, pageSize: 50 });
    expect(reds.list).toEqual([]);
  });

  it('row scope: a user of another organisation sees none of it; the screen and buttons are required', async () => {
    const c = await overdueContract();
    const code = await approvedBuyback(c);
    const dept = await createDept(db(), '回购测试部');
    await createUserWithCodes(
      db(),
      'bb-other',
      PW,
      [
        menu('ft-buyback'),
        button('ft-buyback', 'add'),
        button('ft-buyback', 'save'),
        button('ft-buyback', 'rushRed'),
      ],
      { deptId: dept.id, dataScope: 'dept' },
    );
    const other = await t.login('bb-other', PW);
    expect((await other.call(api.viewBaseInfo, undefined, bq(code))).status).toBe(404);
    expect((await other.call(api.rushRed, { reason: '越权' }, bq(code))).status).toBe(404);
    const list = await other.ok<{ total: number }>(api.list, { pageNum: 1, pageSize: 10 });
    expect(list.total).toBe(0);
    await createUserWithCodes(db(), 'bb-none', PW, []);
    const none = await t.login('bb-none', PW);
    expect((await none.call(api.list, { pageNum: 1, pageSize: 10 })).status).toBe(401);
    const page = await maker.ok<{ list: { buybackBizCode: string }[] }>(api.list, {
      pageNum: 1,
      pageSize: 50,
      contBizCode: c,
    });
    expect(page.list.map((r) => r.buybackBizCode)).toEqual([code]);
  });
});

describe.runIf(onPostgres)('concurrency (PostgreSQL)', SLOW, () => {
  it('two 回购单 of one contract at once: one stands', async () => {
    const c = await overdueContract();
    const r = await Promise.all(
      [1, 2].map(() => maker.call(api.saveBaseInfo, { contBizCode: c, buybackDate: ON, submit: true })),
    );
    expect(r.map((x) => x.status).sort()).toEqual([200, 409]);
    const [n] = await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from buybacks b join contracts k on k.id = b.contract_id
           where k.biz_code = ${c} and b.deleted_at is null`,
    );
    expect(n!.n).toBe(1);
  });

  it('two settlements of the whole amount approved at once: one takes it, the other is refused', async () => {
    const c = await overdueContract();
    const code = await approvedBuyback(c);
    const v = await maker.ok<BuybackView>(api.viewBaseInfo, undefined, bq(code));
    const codes: string[] = [];
    for (let i = 0; i < 2; i++) {
      const income = await approvedIncome(maker, checker, f.bankBizCode, v.amount, ON, '卖方有限公司');
      const s = await maker.ok<{ settleBizCode: string }>(api.settleSave, {
        buybackBizCode: code,
        fiidBizCode: income,
        settleDate: ON,
        amount: v.amount,
        submit: true,
      });
      codes.push(s.settleBizCode);
    }
    const other = await addChecker(t, 'checkerBb');
    const r = await Promise.all(codes.map((s, i) => [checker, other][i]!.call(api.settleAudit, {}, sq(s))));
    expect(r.map((x) => x.status).sort()).toEqual([200, 409]);
    const after = await maker.ok<BuybackView>(api.viewBaseInfo, undefined, bq(code));
    expect([after.settled, after.open]).toEqual([v.amount, '0.00']);
    // 冲红 and a settlement at once: never both.
    const c2 = await overdueContract();
    const code2 = await approvedBuyback(c2);
    const v2 = await maker.ok<BuybackView>(api.viewBaseInfo, undefined, bq(code2));
    const income = await approvedIncome(maker, checker, f.bankBizCode, v2.amount, ON, '卖方有限公司');
    const s2 = await maker.ok<{ settleBizCode: string }>(api.settleSave, {
      buybackBizCode: code2,
      fiidBizCode: income,
      settleDate: ON,
      amount: '100.00',
    });
    const both = await Promise.all([
      maker.call(api.rushRed, { reason: '并发' }, bq(code2)),
      maker.call(api.settleSave, {
        settleBizCode: s2.settleBizCode,
        version: 0,
        buybackBizCode: code2,
        fiidBizCode: income,
        settleDate: ON,
        amount: '100.00',
        submit: true,
      }),
    ]);
    const final = await maker.ok<BuybackView>(api.viewBaseInfo, undefined, bq(code2));
    if (final.redState === 'reversed') {
      expect(final.settled).toBe('0.00');
      expect((await checker.call(api.settleAudit, {}, sq(s2.settleBizCode))).status).toBe(409);
    } else {
      expect(both[0]!.status).toBe(409);
    }
  });
});
