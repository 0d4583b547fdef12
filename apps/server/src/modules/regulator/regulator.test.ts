import Decimal from 'decimal.js';
import ExcelJS from 'exceljs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEDGER_PATHS, type LedgerPage, type LedgerRow } from '@portal/contract/ledger';
import { REGULATOR_PATHS, type RegulatorReport } from '@portal/contract/regulator';
import {
  createTestPortal,
  createUserWithCodes,
  servedPaths,
  type TestClient,
  type TestPortal,
} from '../../testing/harness';
import { addChecker } from '../credit/testkit';
import { approvedContract, BULLET_RULE, contractFixture, receivable } from '../contract/testkit';
import { disburse } from '../loan/testkit';
import { principalWriteOff } from '../paid/testkit';

/**
 * 监管报表 against the ledger (docs/ledger.md "The regulator's figures"): on a small portfolio, for
 * a past month and the current one, every section adds up to the ledger's balances of the report
 * date, to the cent. Rules ACT/360 7.20 % bullet; business date 2026-05-31:
 * - A 100,000.00 01-15 → 04-15 and B 200,000.00 03-01 → 08-28 of a customer marked 关联方, both
 *   disbursed; 50,000.00 of B's principal written off on 04-10; A never paid (overdue from 04-16);
 * - C 50,000.00 (反向保理) of the same customer, not disbursed;
 * - D 80,000.00 02-01 → 07-30 of another customer, disbursed.
 */
const TODAY = '2026-05-31';
const api = servedPaths(REGULATOR_PATHS);
const ledgerApi = servedPaths(LEDGER_PATHS);

let t: TestPortal;
let admin: TestClient;
let relatedCust = '';

beforeAll(async () => {
  t = await createTestPortal({ BUSINESS_DATE: TODAY });
  admin = await t.login();
  const checker = await addChecker(t);
  const f1 = await contractFixture(t, admin, checker, { rule: BULLET_RULE });
  const f2 = await contractFixture(t, admin, checker, { rule: BULLET_RULE });
  relatedCust = f1.custCode;
  const make = async (
    fixture: typeof f1,
    amount: string,
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
          receivables: [receivable(new Decimal(amount).times(1.5).toFixed(2), maturityDate)],
        },
      })
    ).bizCode;
  const a = await make(f1, '100000.00', '2026-01-15', '2026-04-15');
  const b = await make(f1, '200000.00', '2026-03-01', '2026-08-28');
  await make(f1, '50000.00', '2026-05-01', '2026-07-30', 'reverseFactoring');
  const d = await make(f2, '80000.00', '2026-02-01', '2026-07-30');
  for (const c of [a, b, d]) await disburse(admin, checker, c);
  await principalWriteOff(admin, checker, f1.bankBizCode, b, '2026-04-10', '50000.00');
  await t.database.db.execute(
    sql`update companies set related_party = true where comp_code = ${relatedCust}`,
  );
}, 240_000);
afterAll(() => t.close());

const sum = (xs: string[]) => xs.reduce((s, x) => s.plus(x), new Decimal(0)).toFixed(2);

async function ledgerOf(asOf: string) {
  const page = await admin.ok<LedgerPage>(ledgerApi.list, { pageNum: 1, pageSize: 100, asOf });
  expect(page.list).toHaveLength(page.total);
  return page;
}

async function reconcile(month: string, asOf: string) {
  const r = await admin.ok<RegulatorReport>(api.report, { month });
  expect([r.month, r.asOf]).toEqual([month, asOf]);
  const ledger = await ledgerOf(asOf);
  const active = ledger.list.filter((x) => x.ledgerState === 'active');
  // The balances are the ledger's of the report date.
  expect(r.totals).toEqual({
    contracts: active.length,
    principal: ledger.totals.principalOutstanding,
    interest: ledger.totals.interestOutstanding,
    fee: ledger.totals.feeOutstanding,
  });
  // Every section adds up to them.
  expect(sum(r.byProduct.map((x) => x.principal))).toBe(r.totals.principal);
  expect(sum(r.byProduct.map((x) => x.interest))).toBe(r.totals.interest);
  expect(r.byProduct.reduce((n, x) => n + x.contracts, 0)).toBe(r.totals.contracts);
  expect(sum(r.overdue.map((x) => x.principal))).toBe(r.totals.principal);
  expect(sum(r.overdue.map((x) => x.overdueAmount))).toBe(ledger.totals.overdueAmount);
  expect(r.overdue.filter((x) => x.bucket !== '0').reduce((n, x) => n + x.contracts, 0)).toBe(
    ledger.totals.overdueContracts,
  );
  expect(sum(r.classes.map((x) => x.principal))).toBe(r.totals.principal);
  const byDebtor = new Map<string, Decimal>();
  for (const x of active)
    byDebtor.set(x.debtorName, (byDebtor.get(x.debtorName) ?? new Decimal(0)).plus(x.principalOutstanding));
  expect(r.topDebtors.map((x) => [x.debtor, x.principal])).toEqual(
    [...byDebtor]
      .sort(([ka, a], [kb, b]) => b.comparedTo(a) || (ka < kb ? -1 : 1))
      .slice(0, 10)
      .map(([k, v]) => [k, v.toFixed(2)]),
  );
  const rel = active.filter((x) => x.custCode === relatedCust);
  expect([r.relatedParty.contracts, r.relatedParty.principal]).toEqual([
    rel.length,
    sum(rel.map((x) => x.principalOutstanding)),
  ]);
  const lent = (x: LedgerRow) => x.loanDate !== null && x.loanDate >= `${month}-01` && x.loanDate <= asOf;
  expect(r.newBusiness).toEqual({
    contracts: ledger.list.filter(lent).length,
    financing: sum(ledger.list.filter(lent).map((x) => x.financingAmount)),
    loanNet: sum(ledger.list.filter(lent).map((x) => x.loanNetAmount ?? '0')),
  });
  return r;
}

describe('监管报表', () => {
  it('equals the ledger of the month’s last business date, section by section', async () => {
    const may = await reconcile('2026-05', TODAY);
    // A, B and D in force: 100,000 + 150,000 + 80,000; A's and B's are the related party's.
    expect(may.totals.principal).toBe('330000.00');
    expect(may.relatedParty).toMatchObject({
      customers: 1,
      contracts: 2,
      principal: '250000.00',
      share: '75.76',
    });
    expect(may.overdue.find((o) => o.bucket === '31-60')).toMatchObject({
      contracts: 1,
      principal: '100000.00',
    });
    const april = await reconcile('2026-04', '2026-04-30');
    expect(april.totals.principal).toBe('330000.00');
    const march = await reconcile('2026-03', '2026-03-31');
    expect(march.newBusiness.contracts).toBe(1);
    expect(march.totals.principal).toBe('380000.00');
    expect(march.topDebtorsShare).toBe('100.00');
  });

  it('refuses a month after the business date, exports xlsx, and is behind its codes', async () => {
    const later = await admin.call(api.report, { month: '2026-06' });
    expect([later.status, later.msg]).toEqual([400, '报表月份不能晚于当前业务日期所在月份']);
    expect((await admin.call(api.report, { month: '2026-13' })).status).toBe(400);

    const r = await admin.ok<RegulatorReport>(api.report, { month: '2026-05' });
    const res = await admin.call(api.export, { month: '2026-05' });
    expect(res.httpStatus).toBe(200);
    expect(decodeURIComponent(String(res.headers['content-disposition']))).toContain('监管报表_2026-05.xlsx');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(res.raw) as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect(String(ws.getRow(1).getCell(1).value)).toContain('数据日期：2026-05-31');
    const rows: unknown[][] = [];
    ws.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    const total = rows.find((x) => x[0] === '期末余额' && String(x[1]).startsWith('合计'))!;
    expect([total[2], new Decimal(String(total[3])).toFixed(2)]).toEqual([
      r.totals.contracts,
      r.totals.principal,
    ]);
    expect(ws.getRow(3).getCell(4).numFmt).toBe('#,##0.00');

    await createUserWithCodes(t.database.db, 'regview', 'Regview@123456', ['ft-regulator']);
    const u = await t.login('regview', 'Regview@123456');
    expect((await u.call(api.report, { month: '2026-05' })).status).toBe(200);
    expect((await u.call(api.export, { month: '2026-05' })).status).toBe(401);
    expect((await t.client().call(api.report, { month: '2026-05' })).status).not.toBe(200);
  });
});
