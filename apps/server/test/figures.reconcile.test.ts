import Decimal from 'decimal.js';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@portal/contract/api';
import type { PaidSuggestion, ValidPlan } from '@portal/contract/accounts';
import { BIZDATE_PATHS, type ReminderItem } from '@portal/contract/bizdate';
import type { DueView, PlanItemView, SchemeView } from '@portal/contract/contract';
import { UPFRONT_LABELS, type LoanView } from '@portal/contract/loan';
import { CREDIT_PATHS } from '@portal/contract/credit';
import { DASHBOARD_PATHS, type PortfolioFigures, type TrendPoint } from '@portal/contract/dashboard';
import { formatMoney } from '@portal/contract/format';
import { addDays } from '@portal/contract/plan/dates';
import { LEDGER_PATHS, type LedgerPage, type LedgerRow, type Statement } from '@portal/contract/ledger';
import { PA_PATHS, type PaInit } from '@portal/contract/prepayment';
import { PRINT_PATHS } from '@portal/contract/print';
import { createTestPortal, servedPaths, type TestClient, type TestPortal } from '../src/testing/harness';
import { addChecker } from '../src/modules/credit/testkit';
import {
  approvedFor,
  BULLET_RULE,
  contractApi,
  contractBody,
  contractFixture,
  draftContract,
  loanOf as loanCodeOf,
  planFigures,
  receivable,
  submitContract,
  type ContractFixture,
} from '../src/modules/contract/testkit';
import { disburse, loanApi, lq, reverseLoan } from '../src/modules/loan/testkit';
import {
  approvedIncome,
  incomeApi,
  paidApi,
  principalWriteOff,
  reverseWriteOff,
  ruleWriteOff as paidByRule,
} from '../src/modules/paid/testkit';

/**
 * One figure on every surface (docs/money-rules.md "Figures as of a date", docs/ledger.md): a
 * portfolio built through the API, and on two business dates every surface that shows a figure of
 * it compared, figure by figure, with the others: the plan view, the write-off screen and its
 * proposal, the ledger, the dashboard, the statement, the list exports and their 合计, the prints,
 * the reminders. Rules: ACT/360 7.20 % bullet, penalty 1.5 × the rate (30.00 a day on 100,000.00).
 *
 * Customer 1 (cyclical line): A 100,000.00 01-15 → 04-15 disbursed, never paid (overdue, penalty);
 * B 200,000.00 03-01 → 08-28 disbursed, 50,000.00 principal paid 04-10, 10,000.00 paid 05-10 and
 * reversed 05-20, re-entered the same day; C 50,000.00 approved, never disbursed; E 60,000.00
 * disbursed 05-05 and the disbursement reversed; K 100,000.00 with a 10 % margin prepaid (one
 * prepayment rejected, one approved) and disbursed; G a draft. Customer 2 (one-off line): F
 * 80,000.00 02-01 → 05-02 paid in part late (penalty paid) on 05-12 and again on 06-10.
 * Customer 3: H 400,000.00 05-01 → 07-30 with 9 % 前置利息 (90 days signed: 9,000.00), disbursed
 * 05-03 (88 days: 8,800.00). Also an incoming rejected by the checker.
 */
const D1 = '2026-05-31';
const D2 = '2026-06-20';
const ledgerApi = servedPaths(LEDGER_PATHS);
const dashboardApi = servedPaths(DASHBOARD_PATHS);
const bizdateApi = servedPaths(BIZDATE_PATHS);
const printApi = servedPaths(PRINT_PATHS);
const paApi = servedPaths(PA_PATHS);
const creditApi = servedPaths(CREDIT_PATHS);

let t: TestPortal;
let admin: TestClient;
let checker: TestClient;
let f1: ContractFixture;
let f2: ContractFixture;
let f3: ContractFixture;
const code = { A: '', B: '', C: '', E: '', F: '', H: '', K: '' };

const dec = (v: Decimal.Value) => new Decimal(v);
const sum = <T>(rows: readonly T[], pick: (r: T) => Decimal.Value) =>
  rows.reduce((s, r) => s.plus(pick(r)), new Decimal(0)).toFixed(2);

const manualWriteOff = (contBizCode: string, date: string, principal: string) =>
  principalWriteOff(admin, checker, f1.bankBizCode, contBizCode, date, principal);

const ruleWriteOff = async (contBizCode: string, bank: string, date: string, amount: string) => {
  await paidByRule(admin, checker, bank, contBizCode, date, amount);
};

/** A contract with a 10 % margin due (its dues saved), approved. */
async function contractWithMargin(f: ContractFixture): Promise<string> {
  const body = contractBody(f, {
    marginRatio: '0.1',
    financingAmount: '100000.00',
    startDate: '2026-05-15',
    maturityDate: '2026-11-15',
    receivables: [receivable('150000.00', '2026-11-15')],
  });
  const s = await draftContract(admin, body);
  const q = { query: { contBizCode: s.bizCode } };
  const dues = await admin.ok<{ kind: string; amount: string; dueDate: string }[]>(
    contractApi.due,
    undefined,
    q,
  );
  const d = await admin.ok<{ version: number }>(contractApi.dueSave, {
    contBizCode: s.bizCode,
    version: s.version,
    items: dues,
  });
  await submitContract(admin, body, { ...s, version: d.version });
  await checker.ok(contractApi.infoAudit, {}, { query: { bizCode: s.bizCode } });
  return s.bizCode;
}

beforeAll(async () => {
  t = await createTestPortal({ BUSINESS_DATE: D1 });
  admin = await t.login();
  checker = await addChecker(t);
  f1 = await contractFixture(t, admin, checker, { rule: BULLET_RULE, limit: '5000000.00' });
  f2 = await contractFixture(t, admin, checker, { rule: BULLET_RULE, cycle: 'oneOff' });
  f3 = await contractFixture(t, admin, checker, {
    rule: { ...BULLET_RULE, annualRate: '0.0900', interestCollection: 'FRONT' },
  });
  const make = (f: ContractFixture, amount: string, startDate: string, maturityDate: string) =>
    approvedFor(t, admin, checker, f, amount, startDate, maturityDate);
  code.A = await make(f1, '100000.00', '2026-01-15', '2026-04-15');
  code.B = await make(f1, '200000.00', '2026-03-01', '2026-08-28');
  code.C = await make(f1, '50000.00', '2026-05-01', '2026-07-30');
  code.E = await make(f1, '60000.00', '2026-05-05', '2026-08-05');
  code.F = await make(f2, '80000.00', '2026-02-01', '2026-05-02');
  code.H = await make(f3, '400000.00', '2026-05-01', '2026-07-30');
  code.K = await contractWithMargin(f1);
  // G: saved, never submitted.
  await draftContract(admin, contractBody(f1, { financingAmount: '30000.00' }));

  // K's margin: a prepayment rejected, then one approved (cash received before financing).
  const init = await admin.ok<PaInit>(paApi.initBase, undefined, { query: { contBizCode: code.K } });
  const due = init.dues[0]!;
  const pa = (amount: string) =>
    admin.ok<{ preamtBizCode: string }>(paApi.saveBaseInfo, {
      contBizCode: code.K,
      method: 'transfer',
      bankBizCode: f1.bankBizCode,
      receiveDate: '2026-05-15',
      lines: [{ dueId: due.dueId, amount }],
      submit: true,
    });
  const rejected = await pa('4000.00');
  await checker.ok(
    paApi.unAudit,
    { comment: '金额不符' },
    { query: { preamtBizCode: rejected.preamtBizCode } },
  );
  const approved = await pa(due.openAmount);
  await checker.ok(paApi.audit, {}, { query: { preamtBizCode: approved.preamtBizCode } });

  for (const c of [code.A, code.B, code.E, code.F, code.K]) await disburse(admin, checker, c);
  await reverseLoan(admin, checker, (await loanOf(code.E))!);
  await disburse(admin, checker, code.H, { valueDate: '2026-05-03' });

  await manualWriteOff(code.B, '2026-04-10', '50000.00');
  await ruleWriteOff(code.F, f2.bankBizCode, '2026-05-12', '20000.00');
  const reversed = await manualWriteOff(code.B, '2026-05-10', '10000.00');
  // The reversal is dated the business date it is made; the clerk re-enters the receipt that day.
  t.portal.clock.set('2026-05-20');
  await reverseWriteOff(admin, checker, reversed);
  await manualWriteOff(code.B, '2026-05-20', '10000.00');

  // An incoming the checker rejects: listed, never counted.
  const s = await admin.ok<{ fiidBizCode: string }>(incomeApi.saveBaseInfo, {
    bankBizCode: f1.bankBizCode,
    payerName: '核心买方有限公司',
    payerAccount: '6222000011112222',
    payerBank: '工商银行',
    amount: '99999.00',
    valueDate: '2026-05-20',
    serialNo: `REJ${Date.now()}`,
    submit: true,
  });
  await checker.ok(incomeApi.unAudit, { comment: '重复录入' }, { query: { fiidBizCode: s.fiidBizCode } });
  t.portal.clock.set(D1);
}, 240_000);
afterAll(() => t.close());

const loanOf = (contBizCode: string) => loanCodeOf(admin, contBizCode);

/** An xlsx list export read back: header, data rows and the 合计 row, by column header. */
async function exported(path: string, body: unknown = {}) {
  const res = await admin.call(path, body);
  expect(res.httpStatus, `${path} ${res.msg}`).toBe(200);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(res.raw as unknown as ArrayBuffer);
  const ws = wb.worksheets[0]!;
  const rows: unknown[][] = [];
  ws.eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
  const head = rows[0] as string[];
  const total = rows[rows.length - 1]!;
  expect(total[0]).toBe('合计');
  const col = (h: string) => {
    const i = head.indexOf(h);
    expect(i, `${path}: column ${h}`).toBeGreaterThanOrEqual(0);
    return i;
  };
  const money = (v: unknown) => dec(v === null || v === undefined ? 0 : (v as number)).toFixed(2);
  return {
    rows: rows.slice(1, -1),
    cell: (r: unknown[], h: string) => r[col(h)],
    total: (h: string) => money(total[col(h)]),
    count: String(total[1]),
    sumOf: (h: string, keep: (r: unknown[]) => boolean) =>
      sum(rows.slice(1, -1).filter(keep), (r) => money(r[col(h)])),
  };
}

const DISBURSED = () => [code.A, code.B, code.F, code.H, code.K];
const plan = async (c: string) =>
  (await admin.ok<SchemeView>(contractApi.schemeView, undefined, { query: { contBizCode: c } })).items;
const ledgerOn = (asOf: string, dateFrom = '2026-01-01') =>
  admin.ok<LedgerPage>(ledgerApi.list, { pageNum: 1, pageSize: 50, asOf, dateFrom });
const rowOf = (page: LedgerPage, c: string): LedgerRow => page.list.find((r) => r.contBizCode === c)!;

/** Moves the business date and runs its day-end (the reminders are the day-end's). */
async function businessDate(d: string): Promise<void> {
  t.portal.clock.set(d);
  await admin.ok(bizdateApi.runDayEnd, {});
}

/** Soft expectations: one run names every surface that disagrees, not only the first. */
async function everySurfaceAgrees(D: string): Promise<void> {
  await businessDate(D);
  const ledger = await ledgerOn(D);
  expect.soft(ledger.asOf).toBe(D);
  const plans = new Map<string, PlanItemView[]>();
  for (const c of DISBURSED()) plans.set(c, await plan(c));

  // Plan view ↔ ledger row, contract by contract.
  for (const c of DISBURSED()) {
    const items = plans.get(c)!;
    const row = rowOf(ledger, c);
    expect
      .soft(
        {
          principal: row.principalOutstanding,
          overdueDays: row.overdueDays,
          overdue: row.overdueAmount,
          penalty: row.overduePenalty,
        },
        `${c} on ${D}`,
      )
      .toEqual(planFigures(items));
  }
  for (const c of [code.C, code.E]) expect.soft(rowOf(ledger, c).ledgerState).toBe('unloaned');

  // The write-off screen on D: its penalty accrued is the plan's on D, and what a write-off dated D
  // pays is the ledger's penalty on the day before (the screen says both dates).
  const ledgerBefore = await ledgerOn(addDays(D, -1));
  for (const c of [code.A, code.F]) {
    const screen = await admin.ok<ValidPlan>(paidApi.getValidPlanPaid, undefined, {
      query: { contBizCode: c, paidDate: D },
    });
    expect.soft(screen.paidDate).toBe(D);
    expect.soft(screen.penaltyThrough).toBe(addDays(D, -1));
    const items = plans.get(c)!;
    for (const o of screen.items) {
      const p = items.find((i) => i.id === o.itemId)!;
      expect
        .soft([o.status, o.overdueDays, o.penaltyAccrued, o.open.PRINCIPAL], `${c} item ${o.period}`)
        .toEqual([p.status, p.overdueDays, p.penalty, dec(p.principal).minus(p.principalPaid).toFixed(2)]);
    }
    const fiid = await approvedIncome(
      admin,
      checker,
      c === code.F ? f2.bankBizCode : f1.bankBizCode,
      '500000.00',
      D,
    );
    const proposal = await admin.ok<PaidSuggestion>(paidApi.getPaiPlanInfo, {
      fiidBizCode: fiid,
      contBizCode: c,
      paidDate: D,
    });
    expect
      .soft(
        sum(
          proposal.lines.filter((l) => l.component === 'PENALTY'),
          (l) => l.amount,
        ),
        `${c} proposal`,
      )
      .toBe(rowOf(ledgerBefore, c).overduePenalty);
    expect
      .soft(
        sum(
          proposal.lines.filter((l) => l.component === 'PRINCIPAL'),
          (l) => l.amount,
        ),
      )
      .toBe(rowOf(ledger, c).principalOutstanding);
  }

  // Dashboard tiles ↔ ledger totals.
  const tiles = await admin.ok<PortfolioFigures>(dashboardApi.portfolio, {});
  expect.soft(tiles.asOf).toBe(D);
  expect
    .soft({
      principal: tiles.outstandingPrincipal,
      overdue: tiles.overdueAmount,
      penalty: tiles.overduePenalty,
      contracts: tiles.overdueContracts,
    })
    .toEqual({
      principal: sum(ledger.list, (r) => r.principalOutstanding),
      overdue: sum(ledger.list, (r) => r.overdueAmount),
      penalty: sum(ledger.list, (r) => r.overduePenalty),
      contracts: ledger.list.filter((r) => r.overdueDays > 0).length,
    });

  // 月度趋势: 新增融资 is the principal disbursed by value date (the ledger's 放款日), in force.
  const trend = await admin.ok<TrendPoint[]>(dashboardApi.trend, { months: 6 });
  for (const p of trend) {
    const out = ledger.list.filter((r) => r.loanDate?.startsWith(p.month));
    expect
      .soft([p.financed, p.contracts], `新增融资 ${p.month}`)
      .toEqual([sum(out, (r) => r.financingAmount), out.length]);
  }

  // The statement's closing balance is the ledger's, and each day's last running balance is the
  // ledger's of that day; every balance in between is one the books held (B below).
  const st = await admin.ok<Statement>(ledgerApi.statement, {
    custCode: f1.custCode,
    dateFrom: '2026-01-01',
    dateTo: D,
  });
  expect.soft(st.closing).toBe(
    sum(
      ledger.list.filter((r) => r.custCode === f1.custCode),
      (r) => r.principalOutstanding,
    ),
  );
  const days = [...new Set(st.lines.map((l) => l.date))];
  for (const day of days) {
    const onDay = await ledgerOn(day);
    const last = st.lines.filter((l) => l.date === day).at(-1)!;
    expect.soft(last.balance, `statement ${day}`).toBe(
      sum(
        onDay.list.filter((r) => r.custCode === f1.custCode),
        (r) => r.principalOutstanding,
      ),
    );
  }

  // Exports: 合计 counts only the documents in force, and equals the figure other surfaces show.
  const paid = await exported(paidApi.listExport);
  const inForce = (r: unknown[]) => paid.cell(r, '审核状态') === '已审核' && paid.cell(r, '已冲红') === '否';
  expect.soft(paid.rows.some((r) => paid.cell(r, '已冲红') === '是')).toBe(true);
  expect.soft(paid.total('核销金额')).toBe(paid.sumOf('核销金额', inForce));
  expect
    .soft(paid.total('核销金额'))
    .toBe(sum(ledger.list, (r) => dec(r.periodReceived).minus(r.periodReversed)));
  expect.soft(paid.total('其中本金')).toBe(sum([...plans.values()].flat(), (i) => i.principalPaid));

  const incomes = await exported(incomeApi.listExport);
  expect.soft(incomes.rows.some((r) => incomes.cell(r, '审核状态') === '已驳回')).toBe(true);
  expect
    .soft(incomes.total('来款金额'))
    .toBe(incomes.sumOf('来款金额', (r) => incomes.cell(r, '审核状态') === '已审核'));
  const allMonths = await admin.ok<TrendPoint[]>(dashboardApi.trend, { months: 12 });
  expect.soft(incomes.total('来款金额')).toBe(sum(allMonths, (p) => p.incoming));

  const pas = await exported(paApi.listExport);
  expect.soft(pas.rows.length).toBe(2);
  const dues = await admin.ok<DueView[]>(contractApi.dueView, undefined, { query: { contBizCode: code.K } });
  expect.soft(pas.total('收取金额')).toBe(sum(dues, (d) => d.receivedAmount));

  const contracts = await exported(contractApi.listExport);
  expect.soft(contracts.rows.some((r) => contracts.cell(r, '审核状态') === '草稿')).toBe(true);
  expect
    .soft(contracts.total('融资金额'))
    .toBe(contracts.sumOf('融资金额', (r) => contracts.cell(r, '审核状态') === '已审核'));
  expect.soft(contracts.total('在贷本金')).toBe(tiles.outstandingPrincipal);

  // 放款单 导出 over the months of the trend: its 合计 is the 放款单 in force, and the 新增融资 of
  // those months.
  const loans = await exported(loanApi.listExport, {
    valueDateFrom: `${trend[0]!.month}-01`,
    valueDateTo: D,
  });
  const loanInForce = (r: unknown[]) =>
    loans.cell(r, '审核状态') === '已审核' && loans.cell(r, '冲红状态') === '正常';
  expect.soft(loans.rows.some((r) => loans.cell(r, '冲红状态') === '已冲红')).toBe(true);
  expect.soft(loans.total('融资金额')).toBe(loans.sumOf('融资金额', loanInForce));
  expect.soft(loans.total('实付金额')).toBe(loans.sumOf('实付金额', loanInForce));
  expect.soft(loans.total('融资金额')).toBe(sum(trend, (p) => p.financed));

  const credits = await exported(creditApi.creditListExport);
  expect
    .soft(credits.total('授信额度'))
    .toBe(credits.sumOf('授信额度', (r) => credits.cell(r, '审核状态') === '已审核'));

  // Prints: 附件一 and 还款通知书 carry the penalty in its own column, as of the business date.
  const html = async (bizType: string, docCode: string) => {
    const res = await admin.call(printApi.perViewHtml, { bizType, docCode });
    expect.soft(res.httpStatus).toBe(200);
    return res.raw.toString('utf8');
  };
  const a = plans.get(code.A)![0]!;
  const contractHtml = await html('contract', code.A);
  expect.soft(contractHtml).toContain(`罚息截至${D}`);
  expect
    .soft(contractHtml)
    .toMatch(
      new RegExp(
        `<td class="num">${formatMoney(dec(a.principal).plus(a.interest).plus(a.fee).toFixed(2))}</td><td class="num">${formatMoney(a.penalty)}</td>`,
      ),
    );
  const notice = await html('repayment', code.A);
  expect.soft(notice).toContain(`该期已逾期${rowOf(ledger, code.A).overdueDays}天`);
  expect.soft(notice).toContain(`其中罚息${formatMoney(rowOf(ledger, code.A).overduePenalty)}元`);

  // The 放款通知书 prints every line of its 放款单 and the net, as the 放款单 screen shows them.
  for (const c of DISBURSED()) {
    const loan = await admin.ok<LoanView>(loanApi.viewBaseInfo, undefined, lq((await loanOf(c))!));
    const printed = await html('loan', loan.loanBizCode);
    const cells = (xs: readonly string[]) => xs.map((x) => `<td class="num">${formatMoney(x)}</td>`).join('');
    for (const l of loan.lines)
      expect
        .soft(printed, `${c} 放款通知书 ${l.kind}`)
        .toContain(
          `<tr><td>${UPFRONT_LABELS[l.kind]}</td>${cells([l.dueAmount, l.amount, l.prepaid, l.deducted, l.returned])}</tr>`,
        );
    expect
      .soft(printed)
      .toContain(
        `<td>合计</td><td></td><td></td>${cells([loan.prepaidTotal, loan.deductedTotal, loan.returnedTotal])}`,
      );
    expect
      .soft(printed)
      .toContain(
        `实付金额 = 融资金额 ${formatMoney(loan.financingAmount)} − 本次扣收 ${formatMoney(loan.deductedTotal)} + 退还多收 ${formatMoney(loan.returnedTotal)} = ${formatMoney(loan.netAmount)}（元）`,
      );
  }

  // H, disbursed two days after its start: its 前置利息 is the 放款单's on the plan tab (前置利息 and
  // 利息合计), the dues tab (amount, the rule's figure, received) and the printed contract.
  const hLoan = await admin.ok<LoanView>(loanApi.viewBaseInfo, undefined, lq((await loanOf(code.H))!));
  const hFront = hLoan.lines.find((l) => l.kind === 'upfrontInterest')!;
  expect.soft([hFront.dueAmount, hFront.amount]).toEqual(['9000.00', '8800.00']);
  const hScheme = await admin.ok<SchemeView>(contractApi.schemeView, undefined, {
    query: { contBizCode: code.H },
  });
  const hDue = (
    await admin.ok<DueView[]>(contractApi.dueView, undefined, { query: { contBizCode: code.H } })
  ).find((d) => d.kind === 'upfrontInterest')!;
  expect.soft(hScheme.asOf).toBe(D);
  expect
    .soft([hScheme.upfrontInterest, hScheme.totalInterest, hDue.amount, hDue.ruleAmount, hDue.receivedAmount])
    .toEqual(Array(5).fill(hFront.amount));
  expect.soft(await html('contract', code.H)).toContain(`预计利息合计人民币${formatMoney(hFront.amount)}元`);

  // Reminders (待办 到期提醒) on D: the ledger's open amount and penalty, item by item.
  const reminders = await admin.ok<Page<ReminderItem>>(bizdateApi.reminders, { pageNum: 1, pageSize: 100 });
  for (const c of [code.A, code.F]) {
    const mine = reminders.list.filter((r) => r.contBizCode === c && r.kind === 'overdue');
    expect.soft(mine.length, `reminders of ${c}`).toBeGreaterThan(0);
    for (const r of mine) expect.soft(r.asOf).toBe(D);
    expect
      .soft([sum(mine, (r) => r.openAmount), sum(mine, (r) => r.penaltyAmount)])
      .toEqual([rowOf(ledger, c).overdueAmount, rowOf(ledger, c).overduePenalty]);
  }
}

describe('one figure on every surface', () => {
  it(`agrees to the cent on ${D1}`, async () => {
    await everySurfaceAgrees(D1);
  });

  it(`agrees to the cent on ${D2}, after another late payment`, async () => {
    t.portal.clock.set('2026-06-10');
    await ruleWriteOff(code.F, f2.bankBizCode, '2026-06-10', '5000.00');
    await everySurfaceAgrees(D2);
  });

  it('runs the statement’s same-day lines in the order they were posted', async () => {
    const st = await admin.ok<Statement>(ledgerApi.statement, {
      contBizCode: code.B,
      dateFrom: '2026-01-01',
      dateTo: D1,
    });
    // 05-20: the reversal (approved first) raises the balance back, the re-entered receipt lowers
    // it again; never 130,000.00, a balance B never had.
    expect(st.lines.map((l) => [l.date, l.kind, l.balance])).toEqual([
      ['2026-03-01', 'loan', '200000.00'],
      ['2026-04-10', 'receipt', '150000.00'],
      ['2026-05-10', 'receipt', '140000.00'],
      ['2026-05-20', 'reversal', '150000.00'],
      ['2026-05-20', 'receipt', '140000.00'],
    ]);
  });
});
