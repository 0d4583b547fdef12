import Decimal from 'decimal.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BAD_DEBT_PATHS, type BadDebtQuote, type BadDebtView } from '@portal/contract/baddebt';
import { CLASS_PATHS, type ClassRow } from '@portal/contract/classification';
import { DASHBOARD_PATHS, type TrendPoint } from '@portal/contract/dashboard';
import { LEDGER_PATHS, type LedgerPage, type Statement } from '@portal/contract/ledger';
import { button, menu } from '@portal/contract/menus';
import { queryRows } from '../../platform/db/client';
import { SYSTEM_ACTOR } from '../../platform/db/audit';
import {
  createDept,
  createTestPortal,
  createUserWithCodes,
  servedPaths,
  type TestClient,
  type TestPortal,
} from '../../testing/harness';
import { addChecker } from '../credit/testkit';
import { approvedContract, contractFixture, MONTHLY_RULE, type ContractFixture } from '../contract/testkit';
import { disburse } from '../loan/testkit';
import { approvedIncome, paidApi } from '../paid/testkit';
import { accrueMonthEnds, postEvent } from '../voucher';
import { serverRoot } from '../../server';

const api = servedPaths(BAD_DEBT_PATHS);
const ledgerApi = servedPaths(LEDGER_PATHS);
const classApi = servedPaths(CLASS_PATHS);
const dashboardApi = servedPaths(DASHBOARD_PATHS);
const bq = (badDebtBizCode: string) => ({ query: { badDebtBizCode } });
const ON = '2026-05-10';
const PW = 'BadDebt@12345678';

let t: TestPortal;
let maker: TestClient;
let checker: TestClient;
let f: ContractFixture;
const db = () => t.database.db;

/**
 * A 100,000.00 contract from 2026-01-15 (six monthly items), disbursed on its start date; nothing
 * paid, so by ON three items are overdue. Classified `cls` on ON (a day-end's row) unless null.
 */
async function overdueContract(
  cls: string | null = 'loss',
): Promise<{ code: string; no: string; id: number }> {
  t.portal.clock.set('2026-01-15');
  const { bizCode } = await approvedContract(t, maker, checker, { fixture: f });
  await disburse(maker, checker, bizCode);
  t.portal.clock.set(ON);
  const [c] = await queryRows<{ id: number; contract_no: string }>(
    db(),
    sql`select id::int as id, contract_no from contracts where biz_code = ${bizCode}`,
  );
  if (cls)
    await db()
      .execute(sql`insert into contract_classes (contract_id, business_date, overdue_days, proposed_class, asset_class)
      values (${c!.id}, ${ON}, 115, ${cls}, ${cls})`);
  return { code: bizCode, no: c!.contract_no, id: c!.id };
}

/** 坏账准备 posted to the contract by a provisioning run dated 2026-04-30. */
async function provide(contractNo: string, amount: string) {
  await db().transaction((tx) =>
    postEvent(
      tx,
      {
        kind: 'provision',
        period: '2026-04',
        date: '2026-04-30',
        contracts: [{ amount, aux: { contractNo } }],
      },
      SYSTEM_ACTOR,
    ),
  );
}

async function contractRow(code: string) {
  const [r] = await queryRows<{ status: string; principal_open: string; occupied: string }>(
    db(),
    sql`select status, principal_open::text, occupied_amount::text as occupied from contracts where biz_code = ${code}`,
  );
  return r!;
}

async function voucherLines(docType: string, docCode: string) {
  return queryRows<{ role: string; account: string; debit: string; credit: string; contract_no: string }>(
    db(),
    sql`select l.role, l.account_code as account, l.debit::text, l.credit::text, l.contract_no
          from voucher_lines l join vouchers v on v.id = l.voucher_id
         where v.doc_type = ${docType} and v.doc_code = ${docCode} order by l.id`,
  );
}

async function approved(contBizCode: string, writeOffDate = ON): Promise<string> {
  const s = await maker.ok<{ badDebtBizCode: string }>(api.saveBaseInfo, {
    contBizCode,
    writeOffDate,
    submit: true,
  });
  await checker.ok(api.audit, { comment: '同意' }, bq(s.badDebtBizCode));
  return s.badDebtBizCode;
}

const ledgerRow = async (contBizCode: string, asOf: string) =>
  (await maker.ok<LedgerPage>(ledgerApi.list, { pageNum: 1, pageSize: 100, asOf })).list.find(
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

const SLOW = { timeout: 300_000 };

describe('核销坏账', SLOW, () => {
  it('refuses a contract not classified 损失, an unclassified one, a closed month, with the reason', async () => {
    const doubtful = await overdueContract('doubtful');
    const r = await maker.call(api.saveBaseInfo, { contBizCode: doubtful.code, writeOffDate: ON });
    expect([r.status, r.msg]).toEqual([
      409,
      `合同 ${doubtful.no} 在 ${ON} 的五级分类为「可疑」，只有「损失」类合同可以核销坏账`,
    ]);
    const none = await overdueContract(null);
    const q = await maker.call(api.quote, undefined, { query: { contBizCode: none.code, writeOffDate: ON } });
    expect([q.status, q.msg]).toEqual([
      409,
      `合同 ${none.no} 在 ${ON} 的五级分类为「未分类」，只有「损失」类合同可以核销坏账`,
    ]);
    const loss = await overdueContract();
    const future = await maker.call(api.saveBaseInfo, { contBizCode: loss.code, writeOffDate: '2026-05-11' });
    expect([future.status, future.msg]).toEqual([400, `核销日期不能晚于营业日 ${ON}`]);
    // A closed month takes no write-off: refused at save, and at approval by the voucher's check.
    await db()
      .execute(sql`insert into contract_classes (contract_id, business_date, overdue_days, proposed_class, asset_class)
      values (${loss.id}, '2026-04-30', 105, 'loss', 'loss')`);
    await db().execute(sql`insert into book_months (period, closed) values ('2026-04', true)
      on conflict (period) do update set closed = true`);
    const closed = await maker.call(api.saveBaseInfo, { contBizCode: loss.code, writeOffDate: '2026-04-30' });
    expect([closed.status, closed.msg]).toEqual([
      409,
      '核销日期2026-04-30所在的会计期间2026-04已结账，不能核销坏账；请改到未结账的月份或先反结账',
    ]);
    await db().execute(sql`update book_months set closed = false where period = '2026-04'`);
    const s = await maker.ok<{ badDebtBizCode: string }>(api.saveBaseInfo, {
      contBizCode: loss.code,
      writeOffDate: '2026-04-30',
      submit: true,
    });
    await db().execute(sql`update book_months set closed = true where period = '2026-04'`);
    const a = await checker.call(api.audit, { comment: '同意' }, bq(s.badDebtBizCode));
    expect([a.status, a.msg]).toEqual([
      409,
      '核销日期2026-04-30所在的会计期间2026-04已结账，不能核销坏账；请改到未结账的月份或先反结账',
    ]);
    await db().execute(sql`update book_months set closed = false where period = '2026-04'`);
    expect((await contractRow(loss.code)).status).toBe('effective');
  });

  it('four eyes; approval closes the plan, posts 坏账准备 and 信用减值损失 against 应收保理款', async () => {
    const c = await overdueContract();
    await provide(c.no, '60000.00');
    // Not dated before the provisioning it would use: April's top-up (dated 04-30) would be left out
    // and charged to 信用减值损失 again.
    const early = await maker.call(api.saveBaseInfo, { contBizCode: c.code, writeOffDate: '2026-04-20' });
    expect([early.status, early.msg]).toEqual([
      400,
      '核销日期不能早于该合同最近一次计提坏账准备的日期 2026-04-30',
    ]);
    const q = await maker.ok<BadDebtQuote>(api.quote, undefined, {
      query: { contBizCode: c.code, writeOffDate: ON },
    });
    expect([q.principal, q.reserveHeld, q.reserveUsed, q.lossCharged]).toEqual([
      '100000.00',
      '60000.00',
      '60000.00',
      '40000.00',
    ]);
    expect(new Decimal(q.interest).gt(0)).toBe(true);
    expect(new Decimal(q.principal).plus(q.interest).plus(q.fee).plus(q.penalty).toFixed(2)).toBe(q.amount);
    expect(q.lines.reduce((s, l) => s.plus(l.amount), new Decimal(0)).toFixed(2)).toBe(q.amount);
    const occupiedBefore = (await contractRow(c.code)).occupied;
    expect(occupiedBefore).toBe('100000.00');

    const s = await maker.ok<{ badDebtBizCode: string }>(api.saveBaseInfo, {
      contBizCode: c.code,
      writeOffDate: ON,
      remark: '债务人破产清算',
      submit: true,
    });
    const code = s.badDebtBizCode;
    const again = await maker.call(api.saveBaseInfo, { contBizCode: c.code, writeOffDate: ON });
    expect([again.status, again.msg]).toEqual([409, `该合同已有核销坏账单 ${code}`]);
    // The maker may not approve their own document.
    expect((await maker.call(api.audit, { comment: '自审' }, bq(code))).status).toBe(409);
    expect((await contractRow(c.code)).status).toBe('effective');
    const trend = () => maker.ok<TrendPoint[]>(dashboardApi.trend, { months: 1 });
    const trendBefore = await trend();
    await checker.ok(api.audit, { comment: '同意' }, bq(code));
    // The dashboard's monthly 核销 counts money written off against incomings, not a bad debt.
    expect(await trend()).toEqual(trendBefore);
    // The statement: the write-off lowers the balance to nothing, received nothing.
    const st = await maker.ok<Statement>(ledgerApi.statement, {
      contBizCode: c.code,
      dateFrom: '2026-05-01',
      dateTo: ON,
    });
    expect(st.lines.map((l) => [l.kind, l.received, l.principal, l.balance])).toEqual([
      ['badDebt', '0.00', '100000.00', '0.00'],
    ]);
    expect([st.opening, st.closing, st.totals.received]).toEqual(['100000.00', '0.00', '0.00']);

    const v = await maker.ok<BadDebtView>(api.viewBaseInfo, undefined, bq(code));
    expect([v.state, v.amount, v.reserveHeld, v.reserveUsed, v.lossCharged, v.released]).toEqual([
      'approved',
      q.amount,
      '60000.00',
      '60000.00',
      '40000.00',
      '100000.00',
    ]);
    expect(v.paidBizCode).not.toBeNull();
    expect(v.lines).toEqual(q.lines);
    expect(await contractRow(c.code)).toEqual({
      status: 'writtenOff',
      principal_open: '0.00',
      occupied: '0.00',
    });
    expect(await voucherLines('badDebt', code)).toEqual([
      { role: 'badDebtReserve', account: '1231', debit: '60000.00', credit: '0.00', contract_no: c.no },
      { role: 'creditLoss', account: '6702', debit: '40000.00', credit: '0.00', contract_no: c.no },
      { role: 'factoring', account: '1135', debit: '0.00', credit: '100000.00', contract_no: c.no },
    ]);

    // The ledger: 已核销 from the date, nothing open or overdue; as it stood the day before.
    const row = await ledgerRow(c.code, ON);
    expect([row.ledgerState, row.principalOutstanding, row.overdueDays]).toEqual(['writtenOff', '0.00', 0]);
    const before = await ledgerRow(c.code, '2026-05-09');
    expect([before.ledgerState, before.principalOutstanding]).toEqual(['active', '100000.00']);
    // 五级分类: off the list of outstanding contracts; its provision used up.
    const classes = await maker.ok<{ list: ClassRow[] }>(classApi.list, { pageNum: 1, pageSize: 200 });
    expect(classes.list.find((r) => r.contBizCode === c.code)).toBeUndefined();
    const [held] = await queryRows<{ held: string }>(
      db(),
      sql`select coalesce(sum(l.credit - l.debit), 0)::text as held from voucher_lines l
           where l.role = 'badDebtReserve' and l.contract_no = ${c.no}`,
    );
    expect(new Decimal(held!.held).toFixed(2)).toBe('0.00');
    // A provisioning posted later on the write-off date (its release) leaves the held-before figure as
    // approval read it.
    await db().transaction((tx) =>
      postEvent(
        tx,
        {
          kind: 'provision',
          period: '2026-05',
          date: ON,
          contracts: [{ amount: '-1000.00', aux: { contractNo: c.no } }],
        },
        SYSTEM_ACTOR,
      ),
    );
    expect((await maker.ok<BadDebtView>(api.viewBaseInfo, undefined, bq(code))).reserveHeld).toBe('60000.00');
    // No more money documents on it; 反审核 of the approved document is refused (冲红 is the way back).
    const income = await approvedIncome(maker, checker, f.bankBizCode, '100.00', ON);
    const w = await maker.call(paidApi.getPaiPlanInfo, {
      fiidBizCode: income,
      contBizCode: c.code,
      paidDate: ON,
    });
    expect([w.status, w.msg]).toEqual([409, '合同已核销坏账，不能核销']);
    expect((await checker.call(api.unAudit, { comment: '撤销' }, bq(code))).status).toBe(409);
  });

  it('冲红 restores the plan, the contract, the credit and mirrors the voucher', async () => {
    const c = await overdueContract();
    const before = await contractRow(c.code);
    const items = () =>
      queryRows(
        db(),
        sql`select period, principal_paid::text, interest_paid::text, penalty_paid::text
              from contract_plan_items where contract_id = ${c.id} and superseded_by is null order by period`,
      );
    const plan = await items();
    // Written off on 05-05 (classified 损失 then), reversed on the business date 05-10.
    const D1 = '2026-05-05';
    await db()
      .execute(sql`insert into contract_classes (contract_id, business_date, overdue_days, proposed_class, asset_class)
      values (${c.id}, ${D1}, 110, 'loss', 'loss')`);
    const code = await approved(c.code, D1);
    // Without a provision the whole principal is charged to 信用减值损失.
    expect((await voucherLines('badDebt', code)).map((l) => [l.role, l.debit, l.credit])).toEqual([
      ['creditLoss', '100000.00', '0.00'],
      ['factoring', '0.00', '100000.00'],
    ]);
    expect((await maker.call(api.rushRed, { reason: '' }, bq(code))).status).toBe(400);
    await maker.ok(api.rushRed, { reason: '误核销' }, bq(code));
    expect(await contractRow(c.code)).toEqual(before);
    expect(await items()).toEqual(plan);
    const v = await maker.ok<BadDebtView>(api.viewBaseInfo, undefined, bq(code));
    expect([v.redState, v.redReason]).toEqual(['reversed', '误核销']);
    const red = await voucherLines('badDebtRed', code);
    expect(red.map((l) => [l.role, l.debit, l.credit])).toEqual([
      ['creditLoss', '-100000.00', '0.00'],
      ['factoring', '0.00', '-100000.00'],
    ]);
    const again = await maker.call(api.rushRed, { reason: '再冲' }, bq(code));
    expect([again.status, again.msg]).toEqual([409, '该核销坏账单已冲红']);
    expect((await ledgerRow(c.code, ON)).ledgerState).toBe('active');
    // As of a day between write-off and 冲红 the ledger reads it as it stood then: 已核销.
    const between = await ledgerRow(c.code, '2026-05-07');
    expect([between.ledgerState, between.principalOutstanding]).toEqual(['writtenOff', '0.00']);
    // The statement: the write-off and its 冲红 move the principal balance and receive nothing.
    const st = await maker.ok<Statement>(ledgerApi.statement, {
      contBizCode: c.code,
      dateFrom: '2026-05-01',
      dateTo: ON,
    });
    expect(st.lines.map((l) => [l.date, l.kind, l.received, l.principal, l.interest, l.balance])).toEqual([
      [D1, 'badDebt', '0.00', '100000.00', '0.00', '0.00'],
      [ON, 'badDebtRed', '0.00', '-100000.00', '0.00', '100000.00'],
    ]);
    expect([st.opening, st.closing, st.totals.received]).toEqual(['100000.00', '100000.00', '0.00']);
    expect(new Decimal(st.opening).plus(st.totals.disbursed).minus(st.totals.principal).toFixed(2)).toBe(
      st.closing,
    );
    const mid = await maker.ok<Statement>(ledgerApi.statement, {
      contBizCode: c.code,
      dateFrom: '2026-01-01',
      dateTo: '2026-05-07',
    });
    expect([mid.closing, mid.totals.received, mid.totals.principal]).toEqual(['0.00', '0.00', '100000.00']);
    expect(new Decimal(mid.opening).plus(mid.totals.disbursed).minus(mid.totals.principal).toFixed(2)).toBe(
      mid.closing,
    );
    // Back in force: a new write-off may be raised, but not dated before the 冲红 — as of the days
    // between, the reversed write-off and the new one would both read the principal paid.
    const backdated = await maker.call(api.saveBaseInfo, { contBizCode: c.code, writeOffDate: D1 });
    expect([backdated.status, backdated.msg]).toEqual([
      400,
      `核销日期不能早于该合同最近一次核销或冲红日期 ${ON}`,
    ]);
    const income = await approvedIncome(maker, checker, f.bankBizCode, '100.00', D1);
    const paid = await maker.call(paidApi.getPaiPlanInfo, {
      fiidBizCode: income,
      contBizCode: c.code,
      paidDate: D1,
    });
    expect([paid.status, paid.msg]).toEqual([400, `核销日期不能早于该合同最近一次核销或冲红日期 ${ON}`]);
    const next = await maker.ok<{ badDebtBizCode: string }>(api.saveBaseInfo, {
      contBizCode: c.code,
      writeOffDate: ON,
    });
    expect(next.badDebtBizCode).not.toBe(code);
  });

  it('row scope: a user of another organisation sees none of it; the screen and buttons are required', async () => {
    const c = await overdueContract();
    const code = await approved(c.code);
    const dept = await createDept(db(), '坏账测试部');
    await createUserWithCodes(
      db(),
      'bd-other',
      PW,
      [
        menu('ft-bad-debt'),
        button('ft-bad-debt', 'add'),
        button('ft-bad-debt', 'save'),
        button('ft-bad-debt', 'rushRed'),
      ],
      { deptId: dept.id, dataScope: 'dept' },
    );
    const other = await t.login('bd-other', PW);
    expect((await other.call(api.viewBaseInfo, undefined, bq(code))).status).toBe(404);
    expect((await other.call(api.rushRed, { reason: '越权' }, bq(code))).status).toBe(404);
    expect((await other.ok<{ total: number }>(api.list, { pageNum: 1, pageSize: 10 })).total).toBe(0);
    await createUserWithCodes(db(), 'bd-none', PW, []);
    const none = await t.login('bd-none', PW);
    expect((await none.call(api.list, { pageNum: 1, pageSize: 10 })).status).toBe(401);
    const page = await maker.ok<{ list: { badDebtBizCode: string }[] }>(api.list, {
      pageNum: 1,
      pageSize: 50,
      contBizCode: c.code,
    });
    expect(page.list.map((r) => r.badDebtBizCode)).toEqual([code]);
  });

  it('two write-offs of one contract at once: one stands; two approvals of it at once: one posts', async () => {
    const c = await overdueContract();
    const r = await Promise.all(
      [1, 2].map(() => maker.call(api.saveBaseInfo, { contBizCode: c.code, writeOffDate: ON, submit: true })),
    );
    expect(r.map((x) => x.status).sort()).toEqual([200, 409]);
    const [n] = await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from bad_debts where contract_id = ${c.id} and deleted_at is null`,
    );
    expect(n!.n).toBe(1);
    const code = (r.find((x) => x.status === 200)!.data as { badDebtBizCode: string }).badDebtBizCode;
    const other = await addChecker(t, 'checkerBd');
    const a = await Promise.all(
      [checker, other].map((k) => k.call(api.audit, { comment: '同意' }, bq(code))),
    );
    expect(a.map((x) => x.status).sort()).toEqual([200, 409]);
    const [p] = await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from paids where contract_id = ${c.id} and kind = 'badDebt'`,
    );
    expect(p!.n).toBe(1);
    expect((await voucherLines('badDebt', code)).length).toBe(2);
  });

  it('a written-off contract recognises what 预收利息 it still holds at the write-off month end', async () => {
    const c = await overdueContract();
    // 前置利息 1,800.00 received at the disbursement (an import's opening entry holds it deferred).
    await db().transaction((tx) =>
      postEvent(
        tx,
        {
          kind: 'opening',
          docCode: `OPEN${c.id}`,
          date: '2026-01-15',
          principal: '0.00',
          margin: '0.00',
          upfrontInterest: '1800.00',
          upfrontInterestEarned: '0.00',
          aux: { custCode: f.custCode, custName: '测试客户', contractNo: c.no },
        },
        SYSTEM_ACTOR,
      ),
    );
    await approved(c.code);
    await db().transaction((tx) => accrueMonthEnds(tx, '2026-05-31', SYSTEM_ACTOR));
    // Not 1,800.00 × 137 / 181 days: the contract earns nothing after it is written off.
    expect(
      (await voucherLines('deferral', '2026-05')).filter(
        (l) => l.contract_no === c.no && l.role === 'deferredInterest',
      ),
    ).toMatchObject([{ debit: '1800.00', credit: '0.00' }]);
  });

  it('migration 0061 grants the roles of an upgraded database what a fresh one seeds', async () => {
    const grants = () =>
      queryRows<{ role: string; code: string }>(
        db(),
        sql`select r.code as role, m.menu_code as code from role_menus m join roles r on r.id = m.role_id
             where m.menu_code like 'ft-bad-debt%' and r.deleted_at is null
               and r.code in ('biz-manager', 'risk', 'gm', 'finance', 'viewer') order by 1, 2`,
      );
    const seeded = await grants();
    expect(seeded.filter((g) => g.role === 'biz-manager').map((g) => g.code)).toContain('ft-bad-debt:add');
    await db().execute(sql`delete from role_menus m using roles r where r.id = m.role_id
      and r.code in ('biz-manager', 'risk', 'gm', 'finance', 'viewer') and m.menu_code like 'ft-bad-debt%'`);
    const migration = readFileSync(join(serverRoot(), 'migrations/0061_bad_debt.sql'), 'utf8');
    const statements = migration
      .split(';')
      .map((x) => x.replace(/^\s*--.*$/gm, '').trim())
      .filter((x) => x.startsWith('insert into role_menus'));
    expect(statements.length).toBe(2);
    for (const x of statements) await db().execute(sql.raw(x));
    expect(await grants()).toEqual(seeded);
  });
});
