import Decimal from 'decimal.js';
import ExcelJS from 'exceljs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLASS_PATHS, type ClassDistribution } from '@portal/contract/classification';
import { DASHBOARD_PATHS, type PortfolioFigures } from '@portal/contract/dashboard';
import { LEDGER_PATHS, type LedgerPage, type Statement } from '@portal/contract/ledger';
import { PRINT_PATHS } from '@portal/contract/print';
import { RECONCILE_PATHS, type Reconciliation } from '@portal/contract/accounts';
import {
  OPENING_CONTRACT_COLUMNS,
  OPENING_CONTRACT_SHEET,
  OPENING_PAID_COLUMNS,
  OPENING_PAID_SHEET,
  type OpeningPreview,
  type OpeningResult,
} from '@portal/contract/opening';
import type { PlanResult } from '@portal/contract/plan/schedule';
import { BIZDATE_PATHS } from '@portal/contract/bizdate';
import { VOUCHER_PATHS, type TrialBalance } from '@portal/contract/voucher';
import { queryRows } from '../../platform/db/client';
import {
  createTestPortal,
  createUserWithCodes,
  servedPaths,
  type TestClient,
  type TestPortal,
} from '../../testing/harness';
import { uploadWorkbook } from '../../testing/xlsx-upload';
import { addChecker, addCustomer, approvedCredit } from '../credit/testkit';
import {
  addOwnAccount,
  addRule,
  contractApi,
  MONTHLY_RULE,
  platformLineOf,
  type ContractFixture,
} from './testkit';

/**
 * 期初导入 (docs/money-lifecycle.md "Opening balances"): a running portfolio brought in from the
 * xlsx, previewed with per-row errors, imported whole or valid rows only, refused twice, racing for
 * the last of a line; and reconciled: Σ outstanding principal = the opening 应收保理款 = the
 * ledger's, the dashboard's, the trial balance's and the 五级分类's figure on the same date.
 * Business date 2026-01-15.
 */
const TODAY = '2026-01-15';
let t: TestPortal;
let admin: TestClient;
let checker: TestClient;
let f: ContractFixture;

const ledgerApi = servedPaths(LEDGER_PATHS);
const classApi = servedPaths(CLASS_PATHS);

async function fixture(limit: string, cycle: 'cyclical' | 'oneOff' = 'cyclical'): Promise<ContractFixture> {
  const custCode = await addCustomer(t.database.db, `期初测试供应商${limit}${cycle}有限公司`);
  const credBizCode = await approvedCredit(admin, checker, custCode, {
    over: { limitAmount: limit, cycle, startDate: '2025-06-01', endDate: '2027-12-31' },
  });
  return {
    custCode,
    credBizCode,
    lineCode: await platformLineOf(t, credBizCode),
    ruleBizCode: await addRule(admin, MONTHLY_RULE),
    bankBizCode: await addOwnAccount(admin),
  };
}

let invoiceNo = 20_000_000;
type Cells = Partial<Record<(typeof OPENING_CONTRACT_COLUMNS)[number]['key'], string>>;
function contractRow(fx: ContractFixture, over: Cells): string[] {
  invoiceNo++;
  const cells: Cells = {
    custCode: fx.custCode,
    platCredBizCode: fx.credBizCode,
    lineCode: fx.lineCode,
    recourse: '有追索',
    disclosure: '明保理',
    product: '保理',
    financingRatio: '0.8',
    ruleBizCode: fx.ruleBizCode,
    bankBizCode: fx.bankBizCode,
    debtorName: '期初买方有限公司',
    invoiceCode: '3100261130',
    invoiceNo: String(invoiceNo),
    invoiceDate: '2025-06-20',
    receivableDueDate: '2026-12-31',
    ...over,
  };
  return OPENING_CONTRACT_COLUMNS.map((c) => cells[c.key] ?? '');
}
const HEAD = OPENING_CONTRACT_COLUMNS.map((c) => c.header);
const PAID_HEAD = OPENING_PAID_COLUMNS.map((c) => c.header);

function upload(
  path: string,
  rows: string[][],
  paid: string[][] = [],
  fields: Record<string, string> = {},
  c = admin,
) {
  return uploadWorkbook(
    c,
    path,
    [
      { name: OPENING_CONTRACT_SHEET, rows: [HEAD, ...rows] },
      { name: OPENING_PAID_SHEET, rows: [PAID_HEAD, ...paid] },
    ],
    fields,
  );
}

const dec = (v: Decimal.Value) => new Decimal(v);
const count = async (q: ReturnType<typeof sql>) =>
  Number((await queryRows<{ n: number }>(t.database.db, q))[0]!.n);

let rowA: string[];
let rowB: string[];
let paidA: string[][];
let expectedA: Decimal;

beforeAll(async () => {
  t = await createTestPortal();
  admin = await t.login();
  checker = await addChecker(t);
  f = await fixture('1000000.00');
  // A: 120,000.00 monthly over 12 months from 2025-07-15, disbursed that day; periods 1–4 repaid
  // whole, period 5 (due 2025-12-15) its principal only: its interest is 31 days overdue.
  const plan = await admin.ok<PlanResult>(contractApi.planAdd, {
    financingAmount: '120000.00',
    startDate: '2025-07-15',
    maturityDate: '2026-07-15',
    ruleBizCode: f.ruleBizCode,
  });
  paidA = plan.items.slice(0, 4).map((i, k) => [`QC-A-001`, String(k + 1), i.principal, i.interest, i.fee]);
  paidA.push(['QC-A-001', '5', plan.items[4]!.principal]);
  expectedA = dec('120000.00').minus(plan.items.slice(0, 5).reduce((s, i) => s.plus(i.principal), dec(0)));
  rowA = contractRow(f, {
    contractNo: 'QC-A-001',
    financingAmount: '120000.00',
    startDate: '2025-07-15',
    maturityDate: '2026-07-15',
    receivableAmount: '150000.00',
    loanDate: '2025-07-15',
    loanAmount: '120000.00',
  });
  // B: 50,000.00 with a 10 % margin received before the money went out, nothing repaid yet.
  rowB = contractRow(f, {
    contractNo: 'QC-B-002',
    financingAmount: '50000.00',
    marginRatio: '0.1',
    startDate: '2025-10-01',
    maturityDate: '2026-04-01',
    receivableAmount: '80000.00',
    loanDate: '2025-10-01',
    loanAmount: '50000.00',
    marginReceived: '5000.00',
  });
}, 300_000);
afterAll(() => t.close());

describe('期初导入', () => {
  it('下载模板: the two sheets with their exact headers, required ones marked *', async () => {
    const res = await admin.call(contractApi.openingTemplate);
    expect(res.httpStatus).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.raw as unknown as ArrayBuffer);
    const heads = (name: string) =>
      (wb.getWorksheet(name)!.getRow(1).values as unknown[]).slice(1).map((v) => String(v).replace('*', ''));
    expect(heads(OPENING_CONTRACT_SHEET)).toEqual(HEAD);
    expect(heads(OPENING_PAID_SHEET)).toEqual(PAID_HEAD);
    // Without the button: 401 on every call of the import.
    await createUserWithCodes(t.database.db, 'opening-viewer', 'Viewer@12345', ['ft-contract-info']);
    const viewer = await t.login('opening-viewer', 'Viewer@12345');
    expect((await viewer.call(contractApi.openingTemplate)).status).toBe(401);
    expect((await upload(contractApi.openingPreview, [rowA], [], {}, viewer)).status).toBe(401);
  });

  it('previews each row by the save rules with nothing saved; all refuses the file, valid imports the rest', async () => {
    const bad = contractRow(f, {
      contractNo: 'QC-C-003',
      financingAmount: '1000.123',
      startDate: '2025-10-01',
      maturityDate: '2026-04-01',
      receivableAmount: '80000.00',
      loanDate: '2025-10-01',
      loanAmount: '1000.00',
    });
    const over = contractRow(f, {
      contractNo: 'QC-D-004',
      financingAmount: '60000.00',
      startDate: '2025-10-01',
      maturityDate: '2026-04-01',
      receivableAmount: '50000.00',
      loanDate: '2025-10-01',
      loanAmount: '60000.00',
    });
    const lineBefore = await count(sql`select count(*)::int as n from credit_ledger`);
    expect((await admin.call(contractApi.openingPreview, {})).status).toBe(400); // not multipart
    const res = await upload(contractApi.openingPreview, [rowA, rowB, bad, over], paidA);
    expect(res.status).toBe(200);
    const p = res.data as OpeningPreview;
    expect(p.ok).toBe(false);
    expect(p.rows.map((r) => r.errors)).toEqual([
      [],
      [],
      ['融资金额必须是最多两位小数的金额'],
      ['融资金额不能超过应收账款金额×融资比例（40,000.00元）'],
    ]);
    expect(p.rows[0]!.figures).toMatchObject({ principalOutstanding: expectedA.toFixed(2), items: 12 });
    expect(p.principalOutstanding).toBe(expectedA.plus(50000).toFixed(2));
    // Nothing saved: no contract, no write-off, no voucher, no movement on the line.
    expect(await count(sql`select count(*)::int as n from contracts where contract_no like 'QC-%'`)).toBe(0);
    expect(await count(sql`select count(*)::int as n from paids where kind = 'opening'`)).toBe(0);
    expect(await count(sql`select count(*)::int as n from vouchers where doc_type = 'opening'`)).toBe(0);
    expect(await count(sql`select count(*)::int as n from credit_ledger`)).toBe(lineBefore);

    const all = await upload(contractApi.openingImport, [rowA, rowB, bad], paidA, { mode: 'all' });
    expect(all.status).toBe(400);
    expect(all.msg).toContain('有1行未通过校验，未导入任何合同（第4行：融资金额必须是最多两位小数的金额）');
    expect(await count(sql`select count(*)::int as n from contracts where contract_no like 'QC-%'`)).toBe(0);

    const valid = await upload(contractApi.openingImport, [rowA, rowB, bad], paidA, { mode: 'valid' });
    expect(valid.status).toBe(200);
    const r = valid.data as OpeningResult;
    expect(r.imported).toHaveLength(2);
    expect(r.rows[2]!.errors).toEqual(['融资金额必须是最多两位小数的金额']);
    const rows = await queryRows<{
      state: string;
      status: string;
      loan_state: string;
      opening_date: string;
      occupied_amount: string;
      principal_open: string;
    }>(
      t.database.db,
      sql`select state, status, loan_state, opening_date::text, occupied_amount::text, principal_open::text
            from contracts where contract_no in ('QC-A-001', 'QC-B-002') order by contract_no`,
    );
    expect(rows).toEqual([
      {
        state: 'approved',
        status: 'effective',
        loan_state: 'loaned',
        opening_date: TODAY,
        // The cyclical line got the repaid principal back, as a write-off gives it.
        occupied_amount: expectedA.toFixed(2),
        principal_open: expectedA.toFixed(2),
      },
      {
        state: 'approved',
        status: 'effective',
        loan_state: 'loaned',
        opening_date: TODAY,
        occupied_amount: '50000.00',
        principal_open: '50000.00',
      },
    ]);
    const [line] = await queryRows<{ occupied: string }>(
      t.database.db,
      sql`select occupied_amount::text as occupied from credit_lines where biz_code = ${f.lineCode}`,
    );
    expect(line!.occupied).toBe(expectedA.plus(50000).toFixed(2));
    expect(
      await count(
        sql`select count(*)::int as n from audit_log where action = 'openingImport' and entity = 'contract'`,
      ),
    ).toBe(2);
  });

  it('a second import of the same contract number is refused on its row', async () => {
    const again = await upload(contractApi.openingPreview, [rowA], paidA);
    const p = again.data as OpeningPreview;
    expect(p.rows[0]!.errors[0]).toMatch(/^合同号「QC-A-001」已于 2026-01-15 期初导入，不能重复导入$/);
  });

  it('reconciles: Σ outstanding = 期初 应收保理款 = ledger = dashboard = trial balance = 五级分类, on the same date', async () => {
    const outstanding = expectedA.plus(50000).toFixed(2);
    // The 期初 vouchers: 应收保理款 debit per contract, 保证金 credit, the rest to 期初余额过渡.
    const lines = await queryRows<{
      contract_no: string;
      account_code: string;
      debit: string;
      credit: string;
    }>(
      t.database.db,
      sql`select l.contract_no, l.account_code, l.debit::text, l.credit::text
            from voucher_lines l join vouchers v on v.id = l.voucher_id
           where v.doc_type = 'opening' and v.voucher_date = ${TODAY}::date order by l.contract_no, l.line_no`,
    );
    expect(lines).toEqual([
      { contract_no: 'QC-A-001', account_code: '1135', debit: expectedA.toFixed(2), credit: '0.00' },
      { contract_no: 'QC-A-001', account_code: '3999', debit: '0.00', credit: expectedA.toFixed(2) },
      { contract_no: 'QC-B-002', account_code: '1135', debit: '50000.00', credit: '0.00' },
      { contract_no: 'QC-B-002', account_code: '2241', debit: '0.00', credit: '5000.00' },
      { contract_no: 'QC-B-002', account_code: '3999', debit: '0.00', credit: '45000.00' },
    ]);
    const tb = await admin.ok<TrialBalance>('/api' + VOUCHER_PATHS.trial, { period: '2026-01' });
    expect(tb.balanced).toBe(true);
    expect(tb.rows.find((r) => r.accountCode === '1135')!.closingDebit).toBe(outstanding);

    const ledger = await admin.ok<LedgerPage>(ledgerApi.list, { pageNum: 1, pageSize: 50, asOf: TODAY });
    expect(ledger.totals.principalOutstanding).toBe(outstanding);
    const dash = await admin.ok<PortfolioFigures>('/api' + DASHBOARD_PATHS.portfolio);
    expect(dash.outstandingPrincipal).toBe(outstanding);
    // A's fifth period owes its interest since 2025-12-15, B its periods since 2025-11-01: overdue
    // on every surface alike.
    expect(ledger.totals.overdueContracts).toBe(2);
    expect(dash.overdueContracts).toBe(2);
    expect(dash.overdueAmount).toBe(ledger.totals.overdueAmount);
    expect(dash.interestReceivable).toBe(ledger.totals.interestOutstanding);

    t.portal.clock.set(TODAY);
    await admin.ok(`/api${BIZDATE_PATHS.runDayEnd}`);
    const dist = await admin.ok<ClassDistribution>(classApi.distribution, { asOf: TODAY });
    expect(dist.totals).toEqual({ contracts: 2, principalOutstanding: outstanding });
    const after = await admin.ok<LedgerPage>(ledgerApi.list, { pageNum: 1, pageSize: 50, asOf: TODAY });
    expect(after.totals.principalOutstanding).toBe(outstanding);
  });

  it('对账单 of an imported contract reads as the ledger: 放款 on its 放款日, then the earlier repayments', async () => {
    const [a] = await queryRows<{ biz_code: string; cust_code: string }>(
      t.database.db,
      sql`select biz_code, cust_code from contracts where contract_no = 'QC-A-001'`,
    );
    // Over the contract's whole life: its 放款 on its 放款日 (no 放款单: remark 期初导入), then the
    // earlier books' repayments as write-offs on their dates, ending at the imported outstanding.
    const s = await admin.ok<Statement>(ledgerApi.statement, {
      contBizCode: a!.biz_code,
      dateFrom: '2025-07-01',
      dateTo: TODAY,
    });
    expect(s.opening).toBe('0.00');
    expect(s.lines[0]).toMatchObject({
      date: '2025-07-15',
      kind: 'loan',
      docCode: a!.biz_code,
      disbursed: '120000.00',
      remark: '期初导入',
    });
    expect(s.lines.slice(1).map((l) => l.kind)).toEqual([
      'receipt',
      'receipt',
      'receipt',
      'receipt',
      'receipt',
    ]);
    expect(s.lines.at(-1)!.balance).toBe(expectedA.toFixed(2));
    expect(s.closing).toBe(expectedA.toFixed(2));
    // The customer's statement (both contracts): opening + Σ movements = closing = the ledger's.
    const all = await admin.ok<Statement>(ledgerApi.statement, {
      custCode: a!.cust_code,
      dateFrom: '2025-07-01',
      dateTo: TODAY,
    });
    expect(all.lines.filter((l) => l.kind === 'loan').map((l) => l.disbursed)).toEqual([
      '120000.00',
      '50000.00',
    ]);
    expect(all.lines.at(-1)!.balance).toBe(all.closing);
    expect(all.closing).toBe(expectedA.plus(50000).toFixed(2));
    // A period starting after the import opens at the imported figure, with no line.
    t.portal.clock.set('2026-01-20');
    try {
      const later = await admin.ok<Statement>(ledgerApi.statement, {
        contBizCode: a!.biz_code,
        dateFrom: '2026-01-16',
        dateTo: '2026-01-20',
      });
      expect([later.opening, later.lines, later.closing]).toEqual([
        expectedA.toFixed(2),
        [],
        expectedA.toFixed(2),
      ]);
    } finally {
      t.portal.clock.set(TODAY);
    }
    // The printed 客户对账单 shows the same 放款 line.
    const res = await admin.call(servedPaths(PRINT_PATHS).perViewHtml, {
      bizType: 'statement',
      docCode: a!.cust_code,
      contBizCode: a!.biz_code,
      dateFrom: '2025-07-01',
      dateTo: TODAY,
    });
    expect(res.httpStatus).toBe(200);
    const page = res.raw.toString('utf8');
    expect(page).toMatch(/<td[^>]*>2025-07-15<\/td><td[^>]*>放款<\/td>/);
    expect(page).toContain('期初导入');
  });

  it('对账 stays 账实相符 over the imported write-offs', async () => {
    const r = await admin.ok<Reconciliation>(servedPaths(RECONCILE_PATHS).reconcile, {
      dateFrom: '2025-01-01',
      dateTo: TODAY,
    });
    expect([r.itemDifferences, r.incomeDifferences, r.balanced]).toEqual([[], [], true]);
  });

  it('two imports racing for the last of a line: one takes it, the other is refused on its row', async () => {
    t.portal.clock.set(TODAY);
    const g = await fixture('100000.00');
    const row = (no: string) =>
      contractRow(g, {
        contractNo: no,
        financingAmount: '60000.00',
        startDate: '2025-10-01',
        maturityDate: '2026-04-01',
        receivableAmount: '80000.00',
        loanDate: '2025-10-01',
        loanAmount: '60000.00',
      });
    const [x, y] = await Promise.all([
      upload(contractApi.openingImport, [row('QC-R-001')], [], { mode: 'all' }),
      upload(contractApi.openingImport, [row('QC-R-002')], [], { mode: 'all' }),
    ]);
    expect([x.status, y.status].sort()).toEqual([200, 400]);
    const refused = x.status === 400 ? x : y;
    expect(refused.msg).toMatch(/授信额度不足/);
    const [line] = await queryRows<{ occupied: string }>(
      t.database.db,
      sql`select occupied_amount::text as occupied from credit_lines where biz_code = ${g.lineCode}`,
    );
    expect(line!.occupied).toBe('60000.00');
    expect(await count(sql`select count(*)::int as n from contracts where contract_no like 'QC-R-%'`)).toBe(
      1,
    );
  });
});
