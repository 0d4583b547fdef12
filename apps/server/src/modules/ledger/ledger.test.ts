import Decimal from 'decimal.js';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPdf } from '../../testing/pdf-read';
import type { PortfolioFigures } from '@portal/contract/dashboard';
import { RECONCILE_PATHS, type Reconciliation } from '@portal/contract/accounts';
import {
  LEDGER_PATHS,
  type LedgerPage,
  type LedgerRow,
  type Statement,
  type StatementInput,
} from '@portal/contract/ledger';
import { createTestPortal, type TestClient, type TestPortal, servedPaths } from '../../testing/harness';
import { addChecker } from '../credit/testkit';
import { approvedContract, BULLET_RULE, contractFixture, receivable } from '../contract/testkit';
import { disburse } from '../loan/testkit';
import { approvedIncome, paidApi, principalWriteOff, reverseWriteOff, submittedPaid } from '../paid/testkit';
import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../platform/db/client';
import { overdueItems } from '../contract';
import { overdueByContract } from './as-of';
import { ledgerBatches } from './service';

/**
 * A hand-built portfolio (docs/ledger.md "Worked example"), every rule ACT/360 7.20 % bullet,
 * penalty 1.5 × the rate, no grace days:
 * - A 100,000.00 01-15 → 04-15 (90 days, interest 1,800.00), disbursed, nothing paid;
 * - B 200,000.00 03-01 → 08-28 (180 days, interest 7,200.00), disbursed; 50,000.00 principal paid
 *   on 04-10; 10,000.00 principal paid on 05-10 and reversed on 05-20;
 * - C 50,000.00 (反向保理), approved, not disbursed;
 * - D 80,000.00 02-01 → 05-02 (90 days, interest 1,440.00), another customer, paid in full on 05-02.
 */
const TODAY = '2026-05-31';
const ledgerApi = servedPaths(LEDGER_PATHS);

let t: TestPortal;
let admin: TestClient;
let checker: TestClient;
const code: Record<'A' | 'B' | 'C' | 'D', string> = { A: '', B: '', C: '', D: '' };
let cust1 = '';

const writeOff = (contBizCode: string, bank: string, date: string, principal: string) =>
  principalWriteOff(admin, checker, bank, contBizCode, date, principal);

beforeAll(async () => {
  t = await createTestPortal({ BUSINESS_DATE: TODAY });
  admin = await t.login();
  checker = await addChecker(t);
  const f1 = await contractFixture(t, admin, checker, { rule: BULLET_RULE });
  const f2 = await contractFixture(t, admin, checker, { rule: BULLET_RULE });
  cust1 = f1.custCode;
  const make = async (
    fixture: typeof f1,
    amount: string,
    receivables: string,
    startDate: string,
    maturityDate: string,
    product: 'factoring' | 'reverseFactoring' = 'factoring',
  ) =>
    (
      await approvedContract(t, admin, checker, {
        fixture,
        over: {
          financingAmount: amount,
          startDate,
          maturityDate,
          product,
          receivables: [receivable(receivables, maturityDate)],
        },
      })
    ).bizCode;
  code.A = await make(f1, '100000.00', '150000.00', '2026-01-15', '2026-04-15');
  code.B = await make(f1, '200000.00', '300000.00', '2026-03-01', '2026-08-28');
  code.C = await make(f1, '50000.00', '80000.00', '2026-05-01', '2026-07-30', 'reverseFactoring');
  code.D = await make(f2, '80000.00', '100000.00', '2026-02-01', '2026-05-02');
  for (const c of [code.A, code.B, code.D]) await disburse(admin, checker, c);

  await writeOff(code.B, f1.bankBizCode, '2026-04-10', '50000.00');
  const fiid = await approvedIncome(admin, checker, f2.bankBizCode, '81440.00', '2026-05-02');
  const full = await submittedPaid(admin, fiid, code.D, '2026-05-02');
  expect(full.suggestion.amount).toBe('81440.00');
  await checker.ok(paidApi.audit, {}, { query: { paidBizCode: full.paidBizCode } });
  const reversed = await writeOff(code.B, f1.bankBizCode, '2026-05-10', '10000.00');
  // The reversal is dated on the business date it is made: move the date to 05-20 for it.
  t.portal.clock.set('2026-05-20');
  await reverseWriteOff(admin, checker, reversed);
  t.portal.clock.set(TODAY);
}, 120_000);
afterAll(() => t.close());

const ledger = (body: Record<string, unknown> = {}) =>
  admin.ok<LedgerPage>(ledgerApi.list, { pageNum: 1, pageSize: 50, ...body });
const rowOf = (page: LedgerPage, c: string) => page.list.find((r) => r.contBizCode === c)!;
const pick = (r: LedgerRow) => ({
  state: r.ledgerState,
  loanDate: r.loanDate,
  loanNet: r.loanNetAmount,
  principal: r.principalOutstanding,
  interest: r.interestOutstanding,
  overdueDays: r.overdueDays,
  overdue: r.overdueAmount,
  penalty: r.overduePenalty,
  nextDue: r.nextDueDate,
  nextAmount: r.nextDueAmount,
  received: r.periodReceived,
  reversed: r.periodReversed,
});

describe('the ledger on a hand-built portfolio', () => {
  it('gives each contract its figures as of the business date', async () => {
    const page = await ledger();
    expect(page.asOf).toBe(TODAY);
    expect(page.dateFrom).toBe('2026-05-01');
    expect(page.total).toBe(4);
    expect(pick(rowOf(page, code.A))).toEqual({
      state: 'active',
      loanDate: '2026-01-15',
      loanNet: '100000.00',
      principal: '100000.00',
      interest: '1800.00',
      // Due 04-15: 46 days late on 05-31; penalty 100,000 × 7.2 % × 1.5 / 360 = 30.00 a day.
      overdueDays: 46,
      overdue: '101800.00',
      penalty: '1380.00',
      nextDue: null,
      nextAmount: null,
      received: '0.00',
      reversed: '0.00',
    });
    expect(pick(rowOf(page, code.B))).toEqual({
      state: 'active',
      loanDate: '2026-03-01',
      loanNet: '200000.00',
      principal: '150000.00',
      // 应收利息: 92 of its 180 days earned by 05-31, 7,200.00 × 92 / 180; the rest is 未到期.
      interest: '3680.00',
      overdueDays: 0,
      overdue: '0.00',
      penalty: '0.00',
      nextDue: '2026-08-28',
      nextAmount: '157200.00',
      received: '10000.00',
      reversed: '10000.00',
    });
    expect(pick(rowOf(page, code.C))).toEqual({
      state: 'unloaned',
      loanDate: null,
      loanNet: null,
      principal: '0.00',
      interest: '0.00',
      overdueDays: 0,
      overdue: '0.00',
      penalty: '0.00',
      nextDue: null,
      nextAmount: null,
      received: '0.00',
      reversed: '0.00',
    });
    expect(pick(rowOf(page, code.D))).toEqual({
      state: 'settled',
      loanDate: '2026-02-01',
      loanNet: '80000.00',
      principal: '0.00',
      interest: '0.00',
      overdueDays: 0,
      overdue: '0.00',
      penalty: '0.00',
      nextDue: null,
      nextAmount: null,
      received: '81440.00',
      reversed: '0.00',
    });
    expect([rowOf(page, code.B).interestNotDue, rowOf(page, code.B).interestOffBalance]).toEqual([
      '3520.00',
      '0.00',
    ]);
    expect(rowOf(page, code.A)).toMatchObject({
      custCode: cust1,
      debtorName: '核心买方有限公司',
      product: 'factoring',
      receivablesAmount: '150000.00',
      financingAmount: '100000.00',
      annualRate: '0.0720',
      method: 'BULLET',
      classification: null,
    });
    expect(page.totals).toEqual({
      contracts: 4,
      receivablesAmount: '630000.00',
      financingAmount: '430000.00',
      loanNetAmount: '380000.00',
      principalOutstanding: '250000.00',
      interestOutstanding: '5480.00',
      interestNotDue: '3520.00',
      interestOffBalance: '0.00',
      feeOutstanding: '0.00',
      overdueAmount: '101800.00',
      overduePenalty: '1380.00',
      overdueContracts: 1,
      periodReceived: '91440.00',
      periodReversed: '10000.00',
    });
  });

  it('reads an earlier date as it was posted then', async () => {
    // 05-15: B's 05-10 payment stands (its reversal is dated 05-20); D is settled; A 30 days late.
    const page = await ledger({ asOf: '2026-05-15' });
    expect(rowOf(page, code.B).principalOutstanding).toBe('140000.00');
    expect(rowOf(page, code.A)).toMatchObject({ overdueDays: 30, overduePenalty: '900.00' });
    // 03-15: D not yet due, B disbursed, C not started.
    const march = await ledger({ asOf: '2026-03-15', dateFrom: '2026-03-01' });
    expect(march.list.map((r) => r.contBizCode).sort()).toEqual([code.A, code.B, code.D].sort());
    expect(march.totals).toMatchObject({
      principalOutstanding: '380000.00',
      overdueContracts: 0,
      periodReceived: '0.00',
    });
    // Before B's disbursement it owes nothing.
    const feb = await ledger({ asOf: '2026-02-28', dateFrom: '2026-02-01' });
    expect(feb.totals.principalOutstanding).toBe('180000.00');
  });

  it('filters by customer, product, state, overdue bucket and 放款日', async () => {
    const codes = async (body: Record<string, unknown>) =>
      (await ledger(body)).list.map((r) => r.contBizCode).sort();
    expect(await codes({ custCode: cust1 })).toEqual([code.A, code.B, code.C].sort());
    expect(await codes({ product: 'reverseFactoring' })).toEqual([code.C]);
    expect(await codes({ ledgerState: 'settled' })).toEqual([code.D]);
    expect(await codes({ ledgerState: 'active' })).toEqual([code.A, code.B].sort());
    expect(await codes({ overdueBucket: '31-60' })).toEqual([code.A]);
    expect(await codes({ overdueBucket: '1-30' })).toEqual([]);
    expect(await codes({ overdueBucket: '0' })).toEqual([code.B, code.C, code.D].sort());
    expect(await codes({ loanDateStart: '2026-02-01', loanDateEnd: '2026-03-01' })).toEqual(
      [code.B, code.D].sort(),
    );
    const paged = await ledger({ pageSize: 1, pageNum: 2, orderBy: 'principalOutstanding', order: 'desc' });
    expect(paged.list.map((r) => r.contBizCode)).toEqual([code.A]);
    expect(paged.total).toBe(4);
    expect(paged.totals.principalOutstanding).toBe('250000.00');
  });

  it('refuses bad input naming the field', async () => {
    const bad = await admin.call(ledgerApi.list, { asOf: '2026-02-30' });
    expect([bad.status, bad.msg]).toEqual([400, '台账日期必须是有效日期（YYYY-MM-DD）']);
    const late = await admin.call(ledgerApi.list, { asOf: '2026-05-01', dateFrom: '2026-05-02' });
    expect([late.status, late.msg]).toEqual([400, '期间开始日期不能晚于台账日期']);
  });

  it('agrees with the dashboard and the reconciliation screen on the same date', async () => {
    const page = await ledger();
    const active = await ledger({ ledgerState: 'active' });
    const dash = await admin.ok<PortfolioFigures>('/api/ft/api/dashboard/portfolio');
    expect(dash.asOf).toBe(page.asOf);
    expect({
      contractCount: active.total,
      outstandingPrincipal: page.totals.principalOutstanding,
      interestReceivable: page.totals.interestOutstanding,
      feeReceivable: page.totals.feeOutstanding,
      overdueAmount: page.totals.overdueAmount,
      overduePenalty: page.totals.overduePenalty,
      overdueContracts: page.totals.overdueContracts,
    }).toEqual({
      contractCount: dash.contractCount,
      outstandingPrincipal: dash.outstandingPrincipal,
      interestReceivable: dash.interestReceivable,
      feeReceivable: dash.feeReceivable,
      overdueAmount: dash.overdueAmount,
      overduePenalty: dash.overduePenalty,
      overdueContracts: dash.overdueContracts,
    });
    for (const [dateFrom, dateTo] of [
      ['2026-05-01', TODAY],
      ['2026-04-01', '2026-05-15'],
      ['2026-01-01', TODAY],
    ] as const) {
      const rec = await admin.ok<Reconciliation>(`/api${RECONCILE_PATHS.reconcile}`, { dateFrom, dateTo });
      const l = await ledger({ asOf: dateTo, dateFrom });
      expect([l.totals.periodReceived, l.totals.periodReversed], `${dateFrom}…${dateTo}`).toEqual([
        rec.writtenOff,
        rec.reversed,
      ]);
      expect(rec.balanced).toBe(true);
    }
  });

  it('walks the export in batches that together are the list', async () => {
    const all = { dataScope: 'all' as const, deptId: null, userId: 0 };
    const walk = await ledgerBatches(t.database.db, all, {}, TODAY, 1);
    const seen: LedgerRow[] = [];
    let batch = await walk.next(null);
    for (;;) {
      expect(batch.rows.length).toBeLessThanOrEqual(1);
      seen.push(...batch.rows);
      if (batch.lastId === null) break;
      batch = await walk.next(batch.lastId);
    }
    const page = await ledger();
    expect(seen.map((r) => r.contBizCode).sort()).toEqual(page.list.map((r) => r.contBizCode).sort());
    expect(seen.find((r) => r.contBizCode === code.A)).toEqual(rowOf(page, code.A));
    expect(walk.totals()).toEqual(page.totals);
    // A filter after the figures (overdue bucket) leaves slices empty without ending the walk early.
    const late = await ledgerBatches(t.database.db, all, { overdueBucket: '31-60' }, TODAY, 1);
    const found: string[] = [];
    for (let b = await late.next(null); ; b = await late.next(b.lastId)) {
      found.push(...b.rows.map((r) => r.contBizCode));
      if (b.lastId === null) break;
    }
    expect(found).toEqual([code.A]);
  });

  it('exports the same rows and totals as xlsx, money as 2-decimal numbers', async () => {
    const res = await admin.call(ledgerApi.export, {});
    expect(res.httpStatus).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.raw as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect(String(ws.getRow(1).getCell(1).value)).toContain(`台账日期：${TODAY}`);
    const head = (ws.getRow(2).values as unknown[]).slice(1);
    expect(head).toContain('本金余额');
    const col = (h: string) => head.indexOf(h) + 1;
    expect(ws.rowCount).toBe(2 + 4 + 1);
    const a = [3, 4, 5, 6].map((r) => ws.getRow(r)).find((r) => r.getCell(1).value === code.A)!;
    expect(a.getCell(col('本金余额')).value).toBe(100000);
    expect(a.getCell(col('应收罚息')).value).toBe(1380);
    expect(a.getCell(col('本金余额')).numFmt).toBe('#,##0.00');
    const total = ws.getRow(7);
    expect(total.getCell(1).value).toBe('合计');
    expect(total.getCell(2).value).toBe('4笔');
    expect(total.getCell(col('本金余额')).value).toBe(250000);
    expect(total.getCell(col('本期回款')).value).toBe(91440);
    expect(total.getCell(col('五级分类')).value).toBe(null);
  });
});

describe('the late-principal mark the overdue candidates are found by (migration 0038)', () => {
  /** Lines whose mark is not what the write-off's date and the item's due date say. */
  const wrong = async (ex: Executor) =>
    (
      await queryRows<{ n: number }>(
        ex,
        sql`select count(*)::int as n from paid_lines l join paids p on p.id = l.paid_id
              join contract_plan_items i on i.id = l.plan_item_id
             where l.principal_late <> (l.component = 'PRINCIPAL' and p.paid_date > i.due_date)`,
      )
    )[0]!.n;
  const lateOf = async (ex: Executor, contBizCode: string) =>
    (
      await queryRows<{ n: number }>(
        ex,
        sql`select count(*)::int as n from paid_lines l join paids p on p.id = l.paid_id
              join contracts c on c.id = p.contract_id where c.biz_code = ${contBizCode} and l.principal_late`,
      )
    )[0]!.n;

  it('marks exactly the principal lines posted after their item’s due date, as either date moves', async () => {
    const db = t.database.db;
    expect(await wrong(db)).toBe(0);
    expect(await lateOf(db, code.B)).toBe(0);
    const rollback = new Error('rolled back');
    await expect(
      db.transaction(async (tx) => {
        // B's item re-dated before both its write-offs (04-10 and 05-10): both principal lines are late.
        await tx.execute(sql`update contract_plan_items set due_date = '2026-04-01'
                              where contract_id = (select id from contracts where biz_code = ${code.B})`);
        expect(await lateOf(tx, code.B)).toBe(2);
        // D's write-off re-dated after its item's due date (05-02): its principal line is late, its
        // interest line is not.
        await tx.execute(sql`update paids set paid_date = '2026-05-09'
                              where contract_id = (select id from contracts where biz_code = ${code.D})`);
        expect(await lateOf(tx, code.D)).toBe(1);
        // Paid in full but 7 days late: overdue for its penalty alone, found through the mark, with
        // the figures of the dashboard's own scan.
        const loaned = sql`(select * from contracts where loan_state = 'loaned')`;
        const [d] = await queryRows<{ id: number }>(
          tx,
          sql`select id::int as id from contracts where biz_code = ${code.D}`,
        );
        const ledgerOd = (await overdueByContract(tx, loaned, TODAY)).get(d!.id);
        const dashboardOd = (await overdueItems(tx, loaned, TODAY)).filter((o) => o.contractId === d!.id);
        expect(dashboardOd).toHaveLength(1);
        expect(ledgerOd).toMatchObject({ open: '0.00', penalty: dashboardOd[0]!.penalty });
        expect(new Decimal(ledgerOd!.penalty).gt(0)).toBe(true);
        // A line written now is marked as it is inserted: D's principal line taken out and put back.
        const [line] = await queryRows<{ id: number; paid_id: number; plan_item_id: number; amount: string }>(
          tx,
          sql`select l.id::int as id, l.paid_id::int as paid_id, l.plan_item_id::int as plan_item_id,
                     l.amount::text as amount
                from paid_lines l join paids p on p.id = l.paid_id join contracts c on c.id = p.contract_id
               where c.biz_code = ${code.D} and l.component = 'PRINCIPAL'`,
        );
        await tx.execute(sql`delete from paid_lines where id = ${line!.id}`);
        expect(await lateOf(tx, code.D)).toBe(0);
        await tx.execute(sql`insert into paid_lines (paid_id, plan_item_id, component, amount)
                             values (${line!.paid_id}, ${line!.plan_item_id}, 'PRINCIPAL', ${line!.amount})`);
        expect(await lateOf(tx, code.D)).toBe(1);
        // And back on time.
        await tx.execute(sql`update paids set paid_date = '2026-05-02'
                              where contract_id = (select id from contracts where biz_code = ${code.D})`);
        expect(await lateOf(tx, code.D)).toBe(0);
        expect(await wrong(tx)).toBe(0);
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    expect(await wrong(db)).toBe(0);
  });
});

describe('the customer statement', () => {
  const view = (body: StatementInput) => admin.ok<Statement>(ledgerApi.statement, body);

  it('lists disbursements, receipts and reversals between opening and closing balances', async () => {
    const s = await view({ custCode: cust1, dateFrom: '2026-04-01', dateTo: TODAY });
    expect(s.opening).toBe('300000.00');
    expect(s.lines.map((l) => [l.date, l.kind, l.contBizCode, l.received, l.principal, l.balance])).toEqual([
      ['2026-04-10', 'receipt', code.B, '50000.00', '50000.00', '250000.00'],
      ['2026-05-10', 'receipt', code.B, '10000.00', '10000.00', '240000.00'],
      ['2026-05-20', 'reversal', code.B, '-10000.00', '-10000.00', '250000.00'],
    ]);
    expect(s.lines[2]!.remark).toBe('串户');
    expect(s.closing).toBe('250000.00');
    expect(s.closingCapitals).toBe('贰拾伍万元整');
    expect(s.totals).toMatchObject({ received: '50000.00', principal: '50000.00', disbursed: '0.00' });

    const d = await view({ contBizCode: code.D, dateFrom: '2026-01-01', dateTo: TODAY });
    expect(d.opening).toBe('0.00');
    expect(d.lines.map((l) => [l.kind, l.disbursed, l.netPaid, l.principal, l.interest, l.balance])).toEqual([
      ['loan', '80000.00', '80000.00', '0.00', '0.00', '80000.00'],
      ['receipt', '0.00', '0.00', '80000.00', '1440.00', '0.00'],
    ]);
    expect(d.closing).toBe('0.00');
    expect(d.closingCapitals).toBe('零元整');
  });

  it('closes on the ledger’s principal for the same date', async () => {
    for (const asOf of ['2026-03-31', '2026-05-15', TODAY]) {
      const s = await view({ custCode: cust1, dateFrom: '2026-01-01', dateTo: asOf });
      const l = await ledger({ asOf, custCode: cust1 });
      expect(s.closing, asOf).toBe(l.totals.principalOutstanding);
    }
  });

  it('refuses a statement without customer or contract, or with the dates crossed', async () => {
    const none = await admin.call(ledgerApi.statement, { dateFrom: '2026-01-01', dateTo: TODAY });
    expect([none.status, none.msg]).toEqual([400, '请选择客户或合同']);
    const crossed = await admin.call(ledgerApi.statement, {
      custCode: cust1,
      dateFrom: TODAY,
      dateTo: '2026-01-01',
    });
    expect([crossed.status, crossed.msg]).toEqual([400, '开始日期不能晚于结束日期']);
  });

  it('prints through the standard 对账单 template with 大写金额', async () => {
    const res = await admin.call('/api/ft/api/print/perViewHtml', {
      bizType: 'statement',
      docCode: cust1,
      dateFrom: '2026-04-01',
      dateTo: TODAY,
    });
    expect(res.httpStatus).toBe(200);
    const html = res.raw.toString('utf8');
    expect(html).toContain('<h1>客户对账单</h1>');
    expect(html).toContain('对账期间：2026-04-01 至 2026-05-31');
    expect(html).toContain('期初本金余额人民币300,000.00元');
    expect(html).toContain('期末本金余额人民币250,000.00元（大写：贰拾伍万元整）');
    expect(html).toMatch(/<td[^>]*>核销冲红<\/td>/);
    expect(html).toContain('-10,000.00');
    // One contract of the customer, named beside it.
    const one = await admin.call('/api/ft/api/print/perViewHtml', {
      bizType: 'statement',
      docCode: cust1,
      contBizCode: code.A,
      dateFrom: '2026-01-01',
      dateTo: TODAY,
    });
    expect(one.raw.toString('utf8')).toContain('期末本金余额人民币100,000.00元（大写：壹拾万元整）');
  });

  it(
    'prints the statement as a PDF whose text holds the balances and 大写金额',
    { timeout: 120_000 },
    async () => {
      const res = await admin.call('/api/ft/api/print/perViewPdf', {
        bizType: 'statement',
        docCode: cust1,
        dateFrom: '2026-04-01',
        dateTo: TODAY,
        disposition: 'attachment',
      });
      expect(res.httpStatus).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      const pdf = await readPdf(res.raw);
      // A4 across: the twelve columns fit, and no date, code or amount breaks inside its cell
      // (issue: the date column used to wrap one character per line).
      expect(pdf.size.map(Math.round)).toEqual([843, 596]);
      const text = pdf.text.join('\n');
      expect(text).toContain('客户对账单');
      const rows = text.split('\n').filter((l) => /^\d{4}-/.test(l));
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect(row).toMatch(/^\d{4}-\d{2}-\d{2} \S+ \d{12} \S+( -?[\d,]+\.\d{2}){7}/);
      expect(text).toContain('300,000.00');
      expect(text).toContain('250,000.00');
      expect(text).toContain('贰拾伍万元整');
    },
  );

  it('exports the statement as xlsx with the balances and 大写金额', async () => {
    const res = await admin.call(ledgerApi.statementExport, {
      custCode: cust1,
      dateFrom: '2026-04-01',
      dateTo: TODAY,
    });
    expect(res.httpStatus).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.raw as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    const rows: unknown[][] = [];
    ws.eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
    const head = rows[2]!;
    const balance = head.indexOf('本金余额');
    expect(rows[3]![0]).toBe('期初余额');
    expect(rows[3]![balance]).toBe(300000);
    const closing = rows.find((r) => r[0] === '期末余额')!;
    expect(closing[balance]).toBe(250000);
    expect(rows[rows.length - 1]![0]).toBe('期末余额（大写）：贰拾伍万元整');
    const sum = new Decimal(String(rows.find((r) => r[0] === '本期合计')![head.indexOf('回款金额')]));
    expect(sum.toFixed(2)).toBe('50000.00');
  });
});
