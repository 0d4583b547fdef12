import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@portal/contract/api';
import type { PaidSuggestion } from '@portal/contract/accounts';
import { BIZDATE_PATHS, type DayEndItem } from '@portal/contract/bizdate';
import { BUYBACK_PATHS, type BuybackQuote, type BuybackRow } from '@portal/contract/buyback';
import { CLASS_PATHS, type ClassDistribution, type ClassRow } from '@portal/contract/classification';
import { COLLECTION_PATHS, type CollectionRow } from '@portal/contract/collections';
import type { ContractListRow, DueView, SchemeView } from '@portal/contract/contract';
import { CREDIT_PATHS, type UtilisationRow } from '@portal/contract/credit';
import { DASHBOARD_PATHS, type PortfolioFigures } from '@portal/contract/dashboard';
import { LEDGER_PATHS, type LedgerPage, type LedgerRow, type Statement } from '@portal/contract/ledger';
import type { LoanView } from '@portal/contract/loan';
import { addDays } from '@portal/contract/plan/dates';
import { DEBTOR_PATHS, type DebtorLineRow } from '@portal/contract/debtor';
import { PRINT_PATHS } from '@portal/contract/print';
import { formatMoney } from '@portal/contract/format';
import { PA_PATHS, type PaInit, type PaRow } from '@portal/contract/prepayment';
import { VOUCHER_PATHS, type TrialBalance } from '@portal/contract/voucher';
import { createTestPortal, servedPaths, type TestClient, type TestPortal } from '../src/testing/harness';
import { addChecker, addCustomer } from '../src/modules/credit/testkit';
import {
  approvedFor,
  BULLET_RULE,
  contractApi,
  contractFixture,
  loanOf,
  MONTHLY_RULE,
  openingImport,
  planFigures,
  type ContractFixture,
} from '../src/modules/contract/testkit';
import { disburse, loanApi, lq, reverseLoan } from '../src/modules/loan/testkit';
import {
  approvedIncome,
  paidApi,
  principalWriteOff,
  reverseWriteOff,
  ruleWriteOff as paidByRule,
} from '../src/modules/paid/testkit';

/**
 * Figures between documents (docs/money-lifecycle.md "One figure between documents"): a portfolio
 * built through the API and, on several business dates, every place that shows a per-contract or
 * portfolio figure compared with the others to the cent — the contract's plan view, the ledger rows
 * and totals, the dashboard, 五级分类 (list and distribution), the statement, the 催收 worklist,
 * the buy-back quote and the settlement quote, the credit lines' occupation, and the trial
 * balance's 应收保理款 and 回购款. And each up-front item collected exactly once across
 * prepayment → 放款 → write-off.
 *
 * Customer 1 (cyclical, BULLET 7.20 % ACT/360, penalty 1.5×): A 100,000.00 01-15 → 04-15 never
 * paid; B 200,000.00 03-01 → 08-28, 50,000.00 principal paid 04-10 (partial 核销), 10,000.00 paid
 * 05-10 and reversed 05-20; F 80,000.00 02-01 → 05-02 paid in full on 05-02 (full 核销); R
 * 100,000.00 01-15 → 04-15 bought back on 05-31 (回购); C 50,000.00 approved, never disbursed.
 * Customer 2 (cyclical, 9 % 前置利息, 1 % 前置手续费): U 300,000.00 05-01 → 07-30, 500.00 of its 750.00 fee
 * prepaid, disbursed 05-03 (the rest of the fee and the whole 前置利息 deducted); V 200,000.00
 * 05-01 → 07-30, both items prepaid in full, disbursed 05-03, that 放款单 reversed, disbursed again
 * 05-04 (the 前置利息 prepaid above the 87 days' figure paid back). Customer 3
 * (cyclical, 等额本金): O brought in by 期初导入 on 05-31, periods 1–2 repaid before. Before 06-20,
 * A (overdue, bearing penalty) gets a write-off on 06-05 reversed on 06-10, and one on 06-12; B,
 * its interest accrued at the May month end, is bought back on 06-25.
 */
const D0 = '2026-05-31';
const DATES = [D0, '2026-06-20', '2026-06-30', '2026-07-31'];
const ledgerApi = servedPaths(LEDGER_PATHS);
const dashboardApi = servedPaths(DASHBOARD_PATHS);
const bizdateApi = servedPaths(BIZDATE_PATHS);
const paApi = servedPaths(PA_PATHS);
const classApi = servedPaths(CLASS_PATHS);
const collectionApi = servedPaths(COLLECTION_PATHS);
const buybackApi = servedPaths(BUYBACK_PATHS);
const creditApi = servedPaths(CREDIT_PATHS);
const voucherApi = servedPaths(VOUCHER_PATHS);
const printApi = servedPaths(PRINT_PATHS);
const debtorApi = servedPaths(DEBTOR_PATHS);
/** The debtor of every receivable the contract testkit makes (a buyer customer, so it is linked). */
const DEBTOR = '核心买方有限公司';
let debtorCode = '';

let t: TestPortal;
let admin: TestClient;
let checker: TestClient;
let f1: ContractFixture;
let f2: ContractFixture;
let f3: ContractFixture;
const code = { A: '', B: '', C: '', F: '', R: '', U: '', V: '', O: '' };

const dec = (v: Decimal.Value) => new Decimal(v);
const sum = <T>(rows: readonly T[], pick: (r: T) => Decimal.Value) =>
  rows.reduce((s, r) => s.plus(pick(r)), new Decimal(0)).toFixed(2);

const make = (f: ContractFixture, amount: string, startDate: string, maturityDate: string) =>
  approvedFor(t, admin, checker, f, amount, startDate, maturityDate);
const ruleWriteOff = (c: string, bank: string, date: string, amount: string) =>
  paidByRule(admin, checker, bank, c, date, amount);

beforeAll(async () => {
  t = await createTestPortal({ BUSINESS_DATE: D0 });
  admin = await t.login();
  checker = await addChecker(t);
  // The debtor, a buyer customer with a line (债务人额度): the contracts' receivables occupy it.
  debtorCode = await addCustomer(t.database.db, DEBTOR, { roles: ['buyer'] });
  const line = await admin.ok<{ bizCode: string; version: number }>(debtorApi.saveLine, {
    debtorCode,
    limitAmount: '90000000.00',
  });
  await checker.ok(debtorApi.passLine, { version: line.version }, { query: { bizCode: line.bizCode } });
  f1 = await contractFixture(t, admin, checker, { rule: BULLET_RULE, limit: '5000000.00' });
  f2 = await contractFixture(t, admin, checker, {
    rule: {
      ...BULLET_RULE,
      annualRate: '0.0900',
      interestCollection: 'FRONT',
      feeRate: '0.01',
      feeCollection: 'FRONT',
    },
  });
  f3 = await contractFixture(t, admin, checker, { rule: MONTHLY_RULE });

  code.A = await make(f1, '100000.00', '2026-01-15', '2026-04-15');
  code.B = await make(f1, '200000.00', '2026-03-01', '2026-08-28');
  code.C = await make(f1, '50000.00', '2026-05-01', '2026-07-30');
  code.F = await make(f1, '80000.00', '2026-02-01', '2026-05-02');
  code.R = await make(f1, '100000.00', '2026-01-15', '2026-04-15');
  code.U = await make(f2, '300000.00', '2026-05-01', '2026-07-30');

  // U: part of its 前置手续费 prepaid in cash before financing.
  const init = await admin.ok<PaInit>(paApi.initBase, undefined, { query: { contBizCode: code.U } });
  const fee = init.dues.find((d) => d.kind === 'upfrontFee')!;
  const pa = await admin.ok<{ preamtBizCode: string }>(paApi.saveBaseInfo, {
    contBizCode: code.U,
    method: 'transfer',
    bankBizCode: f2.bankBizCode,
    receiveDate: '2026-05-01',
    lines: [{ dueId: fee.dueId, amount: '500.00' }],
    submit: true,
  });
  await checker.ok(paApi.audit, {}, { query: { preamtBizCode: pa.preamtBizCode } });

  // V: both up-front items prepaid in full at the signed figures.
  code.V = await make(f2, '200000.00', '2026-05-01', '2026-07-30');
  const vInit = await admin.ok<PaInit>(paApi.initBase, undefined, { query: { contBizCode: code.V } });
  const vPa = await admin.ok<{ preamtBizCode: string }>(paApi.saveBaseInfo, {
    contBizCode: code.V,
    method: 'transfer',
    bankBizCode: f2.bankBizCode,
    receiveDate: '2026-05-01',
    lines: vInit.dues.map((d) => ({ dueId: d.dueId, amount: d.openAmount })),
    submit: true,
  });
  await checker.ok(paApi.audit, {}, { query: { preamtBizCode: vPa.preamtBizCode } });

  for (const c of [code.A, code.B, code.F, code.R]) await disburse(admin, checker, c);
  await disburse(admin, checker, code.U, { valueDate: '2026-05-03' });
  // V: disbursed on 05-03 (88 days of 前置利息: the prepaid surplus paid back), reversed, then
  // disbursed again on 05-04 (87 days).
  await reverseLoan(admin, checker, await disburse(admin, checker, code.V, { valueDate: '2026-05-03' }));
  await disburse(admin, checker, code.V, { valueDate: '2026-05-04' });

  await principalWriteOff(admin, checker, f1.bankBizCode, code.B, '2026-04-10', '50000.00');
  await ruleWriteOff(code.F, f1.bankBizCode, '2026-05-02', '81440.00');
  const reversed = await principalWriteOff(admin, checker, f1.bankBizCode, code.B, '2026-05-10', '10000.00');
  t.portal.clock.set('2026-05-20');
  await reverseWriteOff(admin, checker, reversed);
  t.portal.clock.set(D0);

  code.O = await openingImport(admin, f3, 'QC-CONSIST-1', '30000001');

  await buyBack(code.R, D0);
}, 300_000);

/** An approved 回购单 of the contract dated `date`. */
async function buyBack(c: string, date: string): Promise<void> {
  const bb = await admin.ok<{ buybackBizCode: string }>(buybackApi.saveBaseInfo, {
    contBizCode: c,
    buybackDate: date,
    submit: true,
  });
  await checker.ok(buybackApi.audit, { comment: '同意' }, { query: { buybackBizCode: bb.buybackBizCode } });
}
afterAll(() => t.close());

const LIVE = () => [code.A, code.B, code.F, code.R, code.U, code.V, code.O];
const ledgerOn = (asOf: string) =>
  admin.ok<LedgerPage>(ledgerApi.list, { pageNum: 1, pageSize: 100, asOf, dateFrom: '2026-01-01' });
const rowOf = (page: LedgerPage, c: string): LedgerRow => page.list.find((r) => r.contBizCode === c)!;
/**
 * The approved 来款 of a bank dated `date` that the settlement quotes of that date read: a quote
 * is a proposal and allocates nothing, so one such payment serves every contract of the date
 * (one each was 12 more payments saved and approved; bench/README.md "Eleventh pass").
 */
const incomes = new Map<string, Promise<string>>();
/** The settlement quote (a 提前结清 write-off's proposal) of a contract for a payment dated `date`. */
async function settlementOn(bank: string, c: string, date: string): Promise<PaidSuggestion> {
  const key = `${bank} ${date}`;
  if (!incomes.has(key)) incomes.set(key, approvedIncome(admin, checker, bank, '900000.00', date));
  const fiid = await incomes.get(key)!;
  return admin.ok<PaidSuggestion>(paidApi.getSpecialPlanInfo, {
    fiidBizCode: fiid,
    contBizCode: c,
    paidDate: date,
    mode: 'settlement',
  });
}

async function everyPlaceAgrees(D: string): Promise<void> {
  t.portal.clock.set(D);
  await admin.ok(bizdateApi.runDayEnd, {});
  const ledger = await ledgerOn(D);
  expect.soft(ledger.asOf).toBe(D);

  // 1. Contract view (plan) ↔ ledger row.
  const schemes = new Map<string, SchemeView>();
  for (const c of LIVE()) {
    const s = await admin.ok<SchemeView>(contractApi.schemeView, undefined, { query: { contBizCode: c } });
    schemes.set(c, s);
    expect.soft(s.asOf, `${c} scheme asOf`).toBe(D);
    const row = rowOf(ledger, c);
    const p = planFigures(s.items);
    expect
      .soft(
        [row.principalOutstanding, row.overdueDays, row.overdueAmount, row.overduePenalty],
        `${c} plan ↔ ledger on ${D}`,
      )
      .toEqual([p.principal, p.overdueDays, p.overdue, p.penalty]);
  }
  expect.soft(rowOf(ledger, code.C).ledgerState).toBe('unloaned');

  // 2. Ledger totals ↔ its rows ↔ dashboard.
  expect
    .soft([ledger.totals.principalOutstanding, ledger.totals.overdueAmount, ledger.totals.overduePenalty])
    .toEqual([
      sum(ledger.list, (r) => r.principalOutstanding),
      sum(ledger.list, (r) => r.overdueAmount),
      sum(ledger.list, (r) => r.overduePenalty),
    ]);
  const tiles = await admin.ok<PortfolioFigures>(dashboardApi.portfolio, {});
  expect.soft(tiles.asOf).toBe(D);
  expect
    .soft(
      [tiles.outstandingPrincipal, tiles.overdueAmount, tiles.overduePenalty, tiles.overdueContracts],
      `dashboard on ${D}`,
    )
    .toEqual([
      ledger.totals.principalOutstanding,
      ledger.totals.overdueAmount,
      ledger.totals.overduePenalty,
      ledger.list.filter((r) => r.overdueDays > 0).length,
    ]);
  expect
    .soft([tiles.interestReceivable, tiles.feeReceivable], `dashboard interest on ${D}`)
    .toEqual([ledger.totals.interestOutstanding, ledger.totals.feeOutstanding]);
  expect
    .soft([tiles.interestNotDue, tiles.interestOffBalance], `dashboard interest split on ${D}`)
    .toEqual([ledger.totals.interestNotDue, ledger.totals.interestOffBalance]);

  // The contract list's 在贷本金 is the ledger's.
  const contracts = await admin.ok<Page<ContractListRow>>(contractApi.list, { pageNum: 1, pageSize: 100 });
  for (const c of [...LIVE(), code.C])
    expect
      .soft(contracts.list.find((r) => r.bizCode === c)?.principalOutstanding, `${c} 合同列表 on ${D}`)
      .toBe(rowOf(ledger, c).principalOutstanding);

  // 3. 五级分类: list and distribution carry the ledger's principal and overdue days.
  const classes = await admin.ok<Page<ClassRow>>(classApi.list, { pageNum: 1, pageSize: 100 });
  for (const c of LIVE()) {
    const cr = classes.list.find((r) => r.contBizCode === c);
    const row = rowOf(ledger, c);
    if (row.ledgerState !== 'active') continue;
    expect.soft(cr, `${c} in 五级分类 on ${D}`).toBeDefined();
    if (cr)
      expect
        .soft([cr.principalOutstanding, cr.overdueDays], `${c} 五级分类 on ${D}`)
        .toEqual([row.principalOutstanding, row.overdueDays]);
    if (cr) expect.soft(cr.provision, `${c} 坏账准备 on ${D}`).toBe(row.provision);
  }
  const dist = await admin.ok<ClassDistribution>(classApi.distribution, { asOf: D });
  expect
    .soft(dist.totals.principalOutstanding, `五级分类分布 on ${D}`)
    .toBe(ledger.totals.principalOutstanding);

  // The dashboard counts the ledger's 履约中 contracts.
  expect
    .soft(tiles.contractCount, `contract count on ${D}`)
    .toBe(ledger.list.filter((r) => r.ledgerState === 'active').length);

  // 4. Statement closing per customer = the ledger's principal of that customer.
  for (const f of [f1, f2, f3]) {
    const st = await admin.ok<Statement>(ledgerApi.statement, {
      custCode: f.custCode,
      dateFrom: '2026-01-01',
      dateTo: D,
    });
    expect.soft(st.closing, `statement ${f.custCode} on ${D}`).toBe(
      sum(
        ledger.list.filter((r) => r.custCode === f.custCode),
        (r) => r.principalOutstanding,
      ),
    );
    // Its movements add up: opening + Σ lent − Σ principal received = closing, and the last
    // running balance is the closing one.
    expect
      .soft(
        dec(st.opening).plus(st.totals.disbursed).minus(st.totals.principal).toFixed(2),
        `statement ${f.custCode} movements on ${D}`,
      )
      .toBe(st.closing);
    if (st.lines.length)
      expect.soft(st.lines.at(-1)!.balance, `statement ${f.custCode} last balance on ${D}`).toBe(st.closing);
    // What it lists as received is the ledger's 本期回款 less 本期冲红 over the same period, and
    // each 放款 line carries the ledger's 放款日 and 实际放款.
    const mine = ledger.list.filter((r) => r.custCode === f.custCode);
    expect
      .soft(st.totals.received, `statement ${f.custCode} received on ${D}`)
      .toBe(sum(mine, (r) => dec(r.periodReceived).minus(r.periodReversed)));
    for (const l of st.lines.filter((x) => x.kind === 'loan')) {
      const r = rowOf(ledger, l.contBizCode);
      expect
        .soft([l.date, l.netPaid], `statement 放款 ${l.contBizCode}`)
        .toEqual([r.loanDate, r.loanNetAmount]);
    }
    // Each day's last running balance is the ledger's principal of that day (on the last date).
    if (D === DATES.at(-1))
      for (const day of new Set(st.lines.map((l) => l.date))) {
        const onDay = await ledgerOn(day);
        expect
          .soft(st.lines.filter((l) => l.date === day).at(-1)!.balance, `statement ${f.custCode} ${day}`)
          .toBe(
            sum(
              onDay.list.filter((r) => r.custCode === f.custCode),
              (r) => r.principalOutstanding,
            ),
          );
      }
    // The print source (对账单 print) reads the same statement.
    const printed = await admin.call(printApi.perViewHtml, {
      bizType: 'statement',
      docCode: f.custCode,
      dateFrom: '2026-01-01',
      dateTo: D,
    });
    expect.soft(printed.httpStatus).toBe(200);
    expect
      .soft(printed.raw.toString('utf8'), `statement print ${f.custCode} on ${D}`)
      .toContain(formatMoney(st.closing));
  }

  // 4b. 营业日管理's 逾期明细 of D (the day-end's marks, just run): per contract, its overdue items'
  // principal, interest and fee add up to the ledger's 逾期金额, their 未付罚息 to its 逾期罚息 (累计罚息
  // is accrued, paid or not), and its longest overdue days are the ledger's.
  const marks = await admin.ok<DayEndItem[]>(bizdateApi.dayEndItems, undefined, {
    query: { businessDate: D },
  });
  expect.soft([...new Set(marks.map((m) => m.contBizCode))].sort(), `逾期明细 contracts on ${D}`).toEqual(
    ledger.list
      .filter((r) => r.overdueDays > 0)
      .map((r) => r.contBizCode)
      .sort(),
  );
  for (const c of new Set(marks.map((m) => m.contBizCode))) {
    const mine = marks.filter((m) => m.contBizCode === c);
    const row = rowOf(ledger, c);
    expect
      .soft(
        [
          sum(mine, (m) =>
            new Decimal(m.principalOverdue).plus(m.interestOverdue ?? NaN).plus(m.feeOverdue ?? NaN),
          ),
          Math.max(...mine.map((m) => m.overdueDays)),
          sum(mine, (m) => m.penaltyOwed ?? NaN),
        ],
        `${c} 逾期明细 ↔ ledger on ${D}`,
      )
      .toEqual([row.overdueAmount, row.overdueDays, row.overduePenalty]);
  }

  // 5. 催收 worklist: exactly the ledger's overdue contracts, with their figures.
  const work = await admin.ok<Page<CollectionRow>>(collectionApi.list, { pageNum: 1, pageSize: 100 });
  expect.soft(work.list.map((r) => r.contBizCode).sort(), `催收 on ${D}`).toEqual(
    ledger.list
      .filter((r) => r.overdueDays > 0)
      .map((r) => r.contBizCode)
      .sort(),
  );
  for (const w of work.list) {
    const row = rowOf(ledger, w.contBizCode);
    expect.soft(w.asOf).toBe(D);
    expect
      .soft([w.overdueDays, w.overdueAmount, w.penaltyAmount], `${w.contBizCode} 催收 on ${D}`)
      .toEqual([row.overdueDays, row.overdueAmount, row.overduePenalty]);
  }

  // 6. Buy-back quote ↔ settlement quote ↔ ledger (principal on D, penalty through D − 1).
  const before = await ledgerOn(addDays(D, -1));
  for (const c of [code.A, code.B, code.O, code.U].filter((x) => rowOf(ledger, x).ledgerState === 'active')) {
    const q = await admin.ok<BuybackQuote>(buybackApi.quote, undefined, {
      query: { contBizCode: c, buybackDate: D },
    });
    const row = rowOf(ledger, c);
    expect
      .soft([q.principal, q.penalty], `${c} 回购报价 on ${D}`)
      .toEqual([row.principalOutstanding, rowOf(before, c).overduePenalty]);
    // Interest to the buy-back date, which a payment dated D does not bear (as the penalty): the
    // interest earned through D − 1 and not received, on the books or off them (应收利息 + 表外利息
    // of the ledger of D − 1). B is left out: its principal was prepaid inside the period, so the
    // quote charges the days on the lower balance while the plan keeps its scheduled interest
    // (docs/money-lifecycle.md "One figure between documents").
    if (c !== code.B)
      expect
        .soft(q.interest, `${c} 回购报价利息 on ${D}`)
        .toBe(dec(rowOf(before, c).interestOutstanding).plus(rowOf(before, c).interestOffBalance).toFixed(2));
    const s = await settlementOn(f1.bankBizCode, c, D);
    expect.soft(s.settlement!.total, `${c} 结清报价 on ${D}`).toBe(q.amount);
    expect
      .soft(
        sum(
          s.lines.filter((l) => l.component === 'PRINCIPAL'),
          (l) => l.amount,
        ),
      )
      .toBe(row.principalOutstanding);
  }

  // 7. Credit lines (all cyclical): occupied = approved, not disbursed financing + disbursed
  // principal outstanding + principal of the buy-back not yet paid back.
  const bb = await admin.ok<Page<BuybackRow>>(buybackApi.list, { pageNum: 1, pageSize: 50 });
  const bbs = bb.list.filter((r) => r.state === 'approved' && r.redState === 'none');
  const util = await admin.ok<UtilisationRow[] | Page<UtilisationRow>>(creditApi.utilisation, {});
  const utilRows = Array.isArray(util) ? util : util.list;
  const occupied = (f: ContractFixture) => utilRows.find((u) => u.custCode === f.custCode)?.occupiedAmount;
  const principalOf = (f: ContractFixture) =>
    dec(
      sum(
        ledger.list.filter((r) => r.custCode === f.custCode),
        (r) => r.principalOutstanding,
      ),
    );
  expect.soft(occupied(f1), `授信占用 ${f1.custCode} on ${D}`).toBe(
    principalOf(f1)
      .plus('50000.00')
      .plus(sum(bbs, (r) => r.principal))
      .toFixed(2),
  );
  expect.soft(occupied(f2), `授信占用 ${f2.custCode} on ${D}`).toBe(principalOf(f2).toFixed(2));
  expect.soft(occupied(f3), `授信占用 ${f3.custCode} on ${D}`).toBe(principalOf(f3).toFixed(2));

  // The debtor's line: the receivables (1.5 × financing here) of the effective contracts on it —
  // not those settled (F) nor bought back (R).
  const dl = (await admin.ok<DebtorLineRow[]>(debtorApi.lines)).find((l) => l.debtorCode === debtorCode)!;
  const onDebtor = contracts.list.filter(
    (r) =>
      r.status === 'effective' &&
      [code.A, code.B, code.C, code.F, code.R, code.U, code.V].includes(r.bizCode),
  );
  expect
    .soft(dl.occupiedAmount, `债务人额度占用 on ${D}`)
    .toBe(sum(onDebtor, (r) => dec(r.financingAmount).times(1.5)));
  expect
    .soft(onDebtor.map((r) => r.bizCode).sort())
    .toEqual([code.A, code.C, code.U, code.V, ...(D < '2026-06-25' ? [code.B] : [])].sort());

  // 8. Trial balance of D's month: 应收保理款 (1135) = the ledger's principal on D (D is the last
  // day with vouchers), 其他应收款-回购款 (1221) = the buy-back still open.
  const tb = await admin.ok<TrialBalance>(voucherApi.trial, { period: D.slice(0, 7) });
  const bal = (acct: string) => {
    const r = tb.rows.find((x) => x.accountCode === acct);
    return r ? dec(r.closingDebit).minus(r.closingCredit).toFixed(2) : '0.00';
  };
  expect.soft(tb.balanced).toBe(true);
  expect.soft(bal('1135'), `1135 on ${D}`).toBe(ledger.totals.principalOutstanding);
  expect.soft(bal('1221'), `1221 on ${D}`).toBe(sum(bbs, (r) => r.open));
  expect
    .soft(dec(0).minus(bal('1231')).toFixed(2), `1231 on ${D}`)
    .toBe(sum(ledger.list, (r) => r.provision));
  // On a month end, after the day-end's accrual: 应收利息 (1132) = the ledger's 应收利息.
  if (addDays(D, 1).endsWith('-01'))
    expect.soft(bal('1132'), `1132 on ${D}`).toBe(ledger.totals.interestOutstanding);
}

describe('one figure between documents', () => {
  it('collects each up-front item exactly once across prepayment → 放款 (and its 冲红) → write-off', async () => {
    const inForce = new Map<string, Decimal>();
    const add = (k: string, v: Decimal.Value) => inForce.set(k, (inForce.get(k) ?? dec(0)).plus(v));
    for (const c of [code.U, code.V]) {
      const loanCode = (await loanOf(admin, c))!;
      const loan = await admin.ok<LoanView>(loanApi.viewBaseInfo, undefined, lq(loanCode));
      const dues = await admin.ok<DueView[]>(contractApi.dueView, undefined, { query: { contBizCode: c } });
      const pas = await admin.ok<Page<PaRow>>(paApi.list, { pageNum: 1, pageSize: 50, contBizCode: c });
      for (const kind of ['upfrontInterest', 'upfrontFee'] as const) {
        const l = loan.lines.find((x) => x.kind === kind)!;
        const d = dues.find((x) => x.kind === kind)!;
        // The 放款单 in force: prepaid + deducted − returned = its figure = the due, received once.
        expect(dec(l.prepaid).plus(l.deducted).minus(l.returned).toFixed(2), `${c} ${kind}`).toBe(l.amount);
        expect([d.amount, d.receivedAmount], `${c} ${kind}`).toEqual([l.amount, l.amount]);
        add(kind, d.amount);
      }
      // What the prepayments received is what the 放款单 in force counts as prepaid.
      expect(
        sum(pas.list, (p) => p.amount),
        c,
      ).toBe(loan.prepaidTotal);
      expect(loan.netAmount).toBe(
        dec(loan.financingAmount).minus(loan.deductedTotal).plus(loan.returnedTotal).toFixed(2),
      );
      // A write-off never takes an up-front item again: the settlement quote holds the principal only.
      const s = await settlementOn(f2.bankBizCode, c, D0);
      expect(s.settlement!.total, c).toBe(loan.financingAmount);
    }
    expect(
      (
        await admin.ok<LoanView>(loanApi.viewBaseInfo, undefined, lq((await loanOf(admin, code.V))!))
      ).lines.find((l) => l.kind === 'upfrontInterest')!.returned,
    ).toBe('150.00');
    // The books take each once: in May, 手续费收入 (6021) and 递延收益 (2401, the 前置利息 received
    // in advance) net of what was paid back and reversed = the figures in force (U and V are the
    // only contracts with up-front items; no month-end has run yet).
    const tb = await admin.ok<TrialBalance>(voucherApi.trial, { period: '2026-05' });
    const net = (acct: string) => {
      const r = tb.rows.find((x) => x.accountCode === acct);
      return r ? dec(r.credit).minus(r.debit).toFixed(2) : '0.00';
    };
    expect([net('6021'), net('2401')]).toEqual([
      inForce.get('upfrontFee')!.toFixed(2),
      inForce.get('upfrontInterest')!.toFixed(2),
    ]);
  });

  /** Before a date's check: what happens in the days leading to it. */
  const before: Record<string, () => Promise<void>> = {
    // A, overdue with penalty: a rule write-off on 06-05 (penalty, interest, then principal),
    // reversed on 06-10; another on 06-12 that stands.
    '2026-06-20': async () => {
      t.portal.clock.set('2026-06-05');
      const w = await ruleWriteOff(code.A, f1.bankBizCode, '2026-06-05', '30000.00');
      t.portal.clock.set('2026-06-10');
      await reverseWriteOff(admin, checker, w);
      t.portal.clock.set('2026-06-12');
      await ruleWriteOff(code.A, f1.bankBizCode, '2026-06-12', '20000.00');
    },
  };
  // B, its May interest accrued by the month end, bought back on 06-25.
  before['2026-06-30'] = async () => {
    t.portal.clock.set('2026-06-25');
    await buyBack(code.B, '2026-06-25');
  };
  for (const D of DATES)
    it(`agrees to the cent on ${D}`, async () => {
      await before[D]?.();
      await everyPlaceAgrees(D);
    }, 180_000);
});
