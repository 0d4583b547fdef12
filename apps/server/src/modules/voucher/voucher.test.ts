import Decimal from 'decimal.js';
import ExcelJS from 'exceljs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIZDATE_PATHS } from '@portal/contract/bizdate';
import type { ValidPlan } from '@portal/contract/accounts';
import type { ContractInfo } from '@portal/contract/contract';
import { PA_PATHS } from '@portal/contract/prepayment';
import { queryRows } from '../../platform/db/client';
import { type AccountRow, type TrialBalance, type VoucherView } from '@portal/contract/voucher';
import {
  createTestPortal,
  createUserWithCodes,
  type TestClient,
  type TestPortal,
} from '../../testing/harness';
import { addChecker } from '../credit/testkit';
import {
  approvedContract,
  BULLET_RULE,
  contractBody,
  contractFixture,
  draftContract,
  contractApi,
  receivable,
  submitContract,
} from '../contract/testkit';
import { disburse, reverseLoan } from '../loan/testkit';
import { approvedIncome, incomeApi, paidApi, paidRedApi } from '../paid/testkit';
import { csvLine, EXPORT_HEADERS } from './export';
import { voucherApi, voucherReader } from './testkit';

/**
 * A hand-built portfolio (docs/accounting.md "Worked example"), rules ACT/360 7.20 % bullet,
 * penalty 1.5 × the rate (30.00 a day on 100,000.00), no grace days; business date 2026-05-31:
 * - G 100,000.00 from 03-01 to 04-30 (60 days: interest 1,200.00; fee 1 % a year: 166.67), a
 *   保证金 of 5,000.00 deducted at disbursement on 03-01;
 * - an incoming of 50,000.00 on 05-11, written off on 05-11 as penalty 300.00 (10 days), interest
 *   1,200.00, fee 166.67 and principal 48,333.33; the write-off reversed on 05-20;
 * - H 200,000.00 from 05-01 to 07-30 (90 days, interest 3,600.00), disbursed on 05-01: at the
 *   month end 31 of its 90 days are earned, 1,240.00, accrued on 05-31 and reversed on 06-01.
 */
const TODAY = '2026-05-31';

let t: TestPortal;
let admin: TestClient;
let checker: TestClient;
let g = { code: '', no: '', cust: '', custCode: '' };
let h = { code: '', no: '', cust: '', custCode: '' };
const docs = { loanG: '', loanH: '', income: '', paid: '', red: '' };

async function info(code: string) {
  const c = await admin.ok<ContractInfo>(contractApi.infoView, undefined, { query: { bizCode: code } });
  return { code, no: c.contractNo, cust: c.custName, custCode: c.custCode };
}

const { list, view, voucherOf } = voucherReader(() => admin);
/** A voucher's lines as `code name debit credit aux`. */
const lines = (v: VoucherView) =>
  v.lines.map((l) => `${l.accountCode} ${l.accountName} ${l.debit} ${l.credit} ${l.aux}`);

beforeAll(async () => {
  t = await createTestPortal({ BUSINESS_DATE: TODAY });
  admin = await t.login();
  checker = await addChecker(t);
  const fg = await contractFixture(t, admin, checker, { rule: { ...BULLET_RULE, feeRate: '0.01' } });
  const fh = await contractFixture(t, admin, checker, { rule: BULLET_RULE });
  // G with its 保证金 saved as an up-front due before submission.
  const bodyG = contractBody(fg, {
    financingAmount: '100000.00',
    startDate: '2026-03-01',
    maturityDate: '2026-04-30',
    receivables: [receivable('150000.00', '2026-04-30')],
  });
  const sg = await draftContract(admin, bodyG);
  const dues = await admin.ok<{ version: number }>(contractApi.dueSave, {
    contBizCode: sg.bizCode,
    version: sg.version,
    items: [{ kind: 'margin', amount: '5000.00', dueDate: '2026-03-01' }],
  });
  await submitContract(admin, bodyG, { ...sg, version: dues.version });
  await checker.ok(contractApi.infoAudit, { comment: '同意' }, { query: { bizCode: sg.bizCode } });
  g = await info(sg.bizCode);
  h = await info(
    (
      await approvedContract(t, admin, checker, {
        fixture: fh,
        over: {
          financingAmount: '200000.00',
          startDate: '2026-05-01',
          maturityDate: '2026-07-30',
          receivables: [receivable('300000.00', '2026-07-30')],
        },
      })
    ).bizCode,
  );
  docs.loanG = await disburse(admin, checker, g.code);
  docs.loanH = await disburse(admin, checker, h.code);
  docs.income = await approvedIncome(
    admin,
    checker,
    fg.bankBizCode,
    '50000.00',
    '2026-05-11',
    '核心买方有限公司',
  );
  const plan = await admin.ok<ValidPlan>(paidApi.getValidPlanPaid, undefined, {
    query: { contBizCode: g.code, paidDate: '2026-05-11' },
  });
  const itemId = plan.items[0]!.itemId;
  const w = await admin.ok<{ paidBizCode: string }>(paidApi.savePlanPaidInfo, {
    fiidBizCode: docs.income,
    contBizCode: g.code,
    paidDate: '2026-05-11',
    kind: 'manual',
    lines: [
      { itemId, component: 'PENALTY', amount: '300.00' },
      { itemId, component: 'INTEREST', amount: '1200.00' },
      { itemId, component: 'FEE', amount: '166.67' },
      { itemId, component: 'PRINCIPAL', amount: '48333.33' },
    ],
    submit: true,
  });
  await checker.ok(paidApi.audit, {}, { query: { paidBizCode: w.paidBizCode } });
  docs.paid = w.paidBizCode;
  t.portal.clock.set('2026-05-20');
  const red = await admin.ok<{ paidRedBizCode: string }>(
    paidApi.rushRed,
    { reason: '串户' },
    { query: { paidBizCode: docs.paid } },
  );
  await checker.ok(paidRedApi.audit, {}, { query: { paidRedBizCode: red.paidRedBizCode } });
  docs.red = red.paidRedBizCode;
  t.portal.clock.set(TODAY);
  await admin.ok(`/api${BIZDATE_PATHS.runDayEnd}`);
}, 180_000);
afterAll(() => t.close());

describe('the journals of a hand-built portfolio', () => {
  it('posts the disbursement with the deducted margin', async () => {
    const v = await voucherOf('loan', docs.loanG);
    expect([v.period, v.voucherNo, v.voucherDate]).toEqual(['2026-03', '记-0001', '2026-03-01']);
    const aux = `客户:${g.cust}(${g.custCode});合同:${g.no}`;
    expect(lines(v)).toEqual([
      `1135 应收保理款 100000.00 0.00 ${aux}`,
      `1002 银行存款 0.00 95000.00 ${aux}`,
      `2241 保证金 0.00 5000.00 ${aux}`,
    ]);
    expect(v.amount).toBe('100000.00');
  });

  it('posts the incoming and the write-off split by component', async () => {
    const inc = await voucherOf('income', docs.income);
    expect([inc.voucherNo, inc.voucherDate]).toEqual(['记-0002', '2026-05-11']);
    expect(lines(inc)).toEqual([
      '1002 银行存款 50000.00 0.00 客户:核心买方有限公司',
      '2203 预收款项 0.00 50000.00 客户:核心买方有限公司',
    ]);
    const w = await voucherOf('paid', docs.paid);
    expect([w.voucherNo, w.voucherDate]).toEqual(['记-0003', '2026-05-11']);
    const aux = `客户:${g.cust}(${g.custCode});合同:${g.no}`;
    expect(lines(w)).toEqual([
      `2203 预收款项 50000.00 0.00 ${aux}`,
      `1135 应收保理款 0.00 48333.33 ${aux}`,
      `6011 利息收入 0.00 1200.00 ${aux}`,
      `6021 手续费收入 0.00 166.67 ${aux}`,
      `6051 罚息收入 0.00 300.00 ${aux}`,
    ]);
  });

  it('posts the red reversal as the mirror in red figures, leaving the original as it was', async () => {
    const r = await voucherOf('paidRed', docs.red);
    const w = await voucherOf('paid', docs.paid);
    expect([r.voucherNo, r.voucherDate, r.redOfNo]).toEqual([
      '记-0004',
      '2026-05-20',
      `2026-05 ${w.voucherNo}`,
    ]);
    const aux = `客户:${g.cust}(${g.custCode});合同:${g.no}`;
    expect(lines(r)).toEqual([
      `2203 预收款项 -50000.00 0.00 ${aux}`,
      `1135 应收保理款 0.00 -48333.33 ${aux}`,
      `6011 利息收入 0.00 -1200.00 ${aux}`,
      `6021 手续费收入 0.00 -166.67 ${aux}`,
      `6051 罚息收入 0.00 -300.00 ${aux}`,
    ]);
    expect(lines(w)[1]).toBe(`1135 应收保理款 0.00 48333.33 ${aux}`);
  });

  it('accrues the interest earned and not received at the month end, overdue included, reversed the next day', async () => {
    const page = await list({ docType: 'accrual' });
    expect(page.list.map((v) => [v.period, v.voucherNo, v.voucherDate])).toEqual([
      ['2026-05', '记-0005', '2026-05-31'],
      ['2026-06', '记-0001', '2026-06-01'],
    ]);
    // G's interest, due 04-30 and unpaid since its write-off was reversed (31 days past due), and
    // the 31 of 90 days of H's.
    const auxG = `客户:${g.cust}(${g.custCode});合同:${g.no}`;
    const auxH = `客户:${h.cust}(${h.custCode});合同:${h.no}`;
    expect(lines(await view(page.list[0]!.voucherId))).toEqual([
      `1132 应收利息 1200.00 0.00 ${auxG}`,
      `1132 应收利息 1240.00 0.00 ${auxH}`,
      `6011 利息收入 0.00 1200.00 ${auxG}`,
      `6011 利息收入 0.00 1240.00 ${auxH}`,
    ]);
    expect(lines(await view(page.list[1]!.voucherId))).toEqual([
      `1132 应收利息 -1200.00 0.00 ${auxG}`,
      `1132 应收利息 -1240.00 0.00 ${auxH}`,
      `6011 利息收入 0.00 -1200.00 ${auxG}`,
      `6011 利息收入 0.00 -1240.00 ${auxH}`,
    ]);
    // The day-end again accrues nothing twice.
    await admin.ok(`/api${BIZDATE_PATHS.runDayEnd}`);
    expect((await list({ docType: 'accrual' })).total).toBe(2);
  });

  it('gives the trial balance of May: each account and Σ debit = Σ credit', async () => {
    const tb = await admin.ok<TrialBalance>(voucherApi.trial, { period: '2026-05' });
    const row = (c: string) => {
      const r = tb.rows.find((x) => x.accountCode === c)!;
      return [r.openingDebit, r.openingCredit, r.debit, r.credit, r.closingDebit, r.closingCredit].join(' ');
    };
    expect(row('1002')).toBe('0.00 95000.00 50000.00 200000.00 0.00 245000.00');
    expect(row('1132')).toBe('0.00 0.00 2440.00 0.00 2440.00 0.00');
    expect(row('1135')).toBe('100000.00 0.00 200000.00 0.00 300000.00 0.00');
    expect(row('2203')).toBe('0.00 0.00 0.00 50000.00 0.00 50000.00');
    expect(row('2241')).toBe('0.00 5000.00 0.00 0.00 0.00 5000.00');
    expect(row('6011')).toBe('0.00 0.00 0.00 2440.00 0.00 2440.00');
    expect(row('6021')).toBe('0.00 0.00 0.00 0.00 0.00 0.00');
    // The month-end provisioning (docs/accounting.md "Provisioning"): G, 31 days past due, is 关注
    // at 2 % of its 100,000.00; H is 正常 at 1 % of its 200,000.00.
    expect(row('6702')).toBe('0.00 0.00 4000.00 0.00 4000.00 0.00');
    expect(row('1231')).toBe('0.00 0.00 0.00 4000.00 0.00 4000.00');
    expect(tb.totals).toEqual({
      openingDebit: '100000.00',
      openingCredit: '100000.00',
      debit: '256440.00',
      credit: '256440.00',
      closingDebit: '306440.00',
      closingCredit: '306440.00',
    });
    expect(tb.balanced).toBe(true);
  });
});

describe('the export', () => {
  it('writes CSV with the importable columns, amounts exact', async () => {
    const res = await admin.call(voucherApi.export, { period: '2026-05', docType: 'paid', format: 'csv' });
    expect(res.httpStatus).toBe(200);
    expect(String(res.headers['content-type'])).toContain('text/csv');
    const text = Buffer.from(res.raw).toString('utf8');
    const rows = text
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(rows[0]).toBe(EXPORT_HEADERS.join(','));
    expect(rows).toHaveLength(6);
    expect(rows[2]).toBe(
      `2026-05-11,记-0003,来款核销 ${g.cust} ${g.no},1135,应收保理款,0.00,48333.33,客户:${g.cust}(${g.custCode});合同:${g.no},来款核销 ${docs.paid}`,
    );
    // A formula-looking text is defused, and a comma quoted.
    expect(
      csvLine({
        voucherDate: '2026-05-01',
        voucherNo: '记-0001',
        summary: '=1+1',
        accountCode: '1002',
        accountName: '银行,存款',
        debit: '-1.00',
        credit: '0.00',
        aux: '',
        source: '',
      }),
    ).toBe(`2026-05-01,记-0001,'=1+1,1002,"银行,存款",-1.00,0.00,,\r\n`);
  });

  it('writes xlsx with money as numbers in the two-decimal format', async () => {
    const res = await admin.call(voucherApi.export, { period: '2026-05', format: 'xlsx' });
    expect(res.httpStatus).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(res.raw) as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect(ws.getRow(1).values).toEqual([undefined, ...EXPORT_HEADERS]);
    // loan H (2 lines), income (2), write-off (5), reversal (5), accrual (4), provision (4), 合计.
    expect(ws.rowCount).toBe(1 + 22 + 1);
    const first = ws.getRow(2);
    expect(first.getCell(2).value).toBe('记-0001');
    expect(first.getCell(6).value).toBe(200000);
    expect(first.getCell(6).numFmt).toBe('#,##0.00');
    // The cells are numbers (Excel sums them); the test adds them as decimals.
    let debit = new Decimal(0);
    let credit = new Decimal(0);
    for (let i = 2; i < ws.rowCount; i++) {
      debit = debit.plus(String(ws.getRow(i).getCell(6).value ?? 0));
      credit = credit.plus(String(ws.getRow(i).getCell(7).value ?? 0));
    }
    expect(debit.toFixed(2)).toBe('256440.00');
    expect(credit.toFixed(2)).toBe('256440.00');
    // 合计: the lines above it, red ones negative (the reversed write-off and its mirror net to 0),
    // so it equals the period's movement on the trial balance.
    const total = ws.getRow(ws.rowCount);
    expect([total.getCell(1).value, total.getCell(6).value, total.getCell(7).value]).toEqual([
      '合计',
      256440,
      256440,
    ]);
    const paidOnly = await admin.call(voucherApi.export, { docType: 'paid', format: 'xlsx' });
    const wp = new ExcelJS.Workbook();
    await wp.xlsx.load(Buffer.from(paidOnly.raw) as unknown as ArrayBuffer);
    const last = wp.worksheets[0]!.getRow(wp.worksheets[0]!.rowCount);
    expect([last.getCell(1).value, last.getCell(6).value]).toEqual(['合计', 50000]);
  });

  it('exports the trial balance of a period as xlsx, with its totals', async () => {
    const res = await admin.call(voucherApi.trialExport, { period: '2026-05' });
    expect(res.httpStatus).toBe(200);
    expect(decodeURIComponent(String(res.headers['content-disposition']))).toContain('试算平衡.xlsx');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(res.raw) as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect(String(ws.getRow(1).getCell(1).value)).toContain('会计期间：2026-05  借贷平衡');
    const byCode = new Map<string, unknown[]>();
    for (let i = 3; i <= ws.rowCount; i++) {
      const r = ws.getRow(i);
      byCode.set(
        String(r.getCell(1).value),
        [3, 4, 5, 6, 7, 8].map((c) => r.getCell(c).value),
      );
    }
    expect(byCode.get('1132')).toEqual([0, 0, 2440, 0, 2440, 0]);
    expect(byCode.get('6702')).toEqual([0, 0, 4000, 0, 4000, 0]);
    expect(byCode.get('合计')).toEqual([100000, 100000, 256440, 256440, 306440, 306440]);
    expect(ws.getRow(ws.rowCount).getCell(5).numFmt).toBe('#,##0.00');
    expect((await admin.call(voucherApi.trialExport, { period: '2026-13' })).status).toBe(400);
  });
});

describe('the account mapping', () => {
  it('is seeded, edited with an audit row, and used by the vouchers posted after', async () => {
    const before = await admin.ok<AccountRow[]>(voucherApi.accountList);
    const bank = before.find((a) => a.role === 'bank')!;
    expect([bank.code, bank.name]).toEqual(['1002', '银行存款']);
    const bad = await admin.call(voucherApi.accountSave, {
      role: 'bank',
      code: '10A2',
      name: '银行存款',
      version: 0,
    });
    expect([bad.status, bad.msg]).toEqual([400, '科目编码应为4至12位数字']);
    const clash = await admin.call(voucherApi.accountSave, {
      role: 'bank',
      code: '1135',
      name: '银行',
      version: 0,
    });
    expect(clash.status).toBe(400);
    expect(clash.msg).toContain('应收保理款');
    await admin.ok(voucherApi.accountSave, {
      role: 'bank',
      code: '100201',
      name: '银行存款-工行',
      version: bank.version,
    });
    const stale = await admin.call(voucherApi.accountSave, {
      role: 'bank',
      code: '1002',
      name: '银行存款',
      version: 0,
    });
    expect(stale.status).toBe(409);
    const f = await contractFixture(t, admin, checker, { rule: BULLET_RULE });
    const code = await approvedIncome(admin, checker, f.bankBizCode, '10.00', '2026-05-30', '某付款人');
    expect(lines(await voucherOf('income', code))[0]).toBe('100201 银行存款-工行 10.00 0.00 客户:某付款人');
    // The vouchers posted before keep the account they were posted with.
    expect(lines(await voucherOf('income', docs.income))[0]).toContain('1002 银行存款 50000.00');
    const audit = await t.database.db.execute(
      `select detail from audit_log where entity = 'voucherAccount' and entity_code = 'bank'`,
    );
    expect(JSON.stringify(audit)).toContain('100201');
    await admin.ok(voucherApi.accountSave, {
      role: 'bank',
      code: '1002',
      name: '银行存款',
      version: bank.version + 1,
    });
    // 反审核 of an incoming no write-off uses mirrors its voucher.
    await checker.ok(incomeApi.unAudit, { comment: '录错' }, { query: { fiidBizCode: code } });
    const page = await list({ docType: 'income', docCode: code });
    expect(page.total).toBe(2);
    const mirror = await view(page.list[1]!.voucherId);
    expect(lines(mirror)[0]).toBe('100201 银行存款-工行 -10.00 0.00 客户:某付款人');
  });
});

describe('permissions and concurrency', () => {
  it('refuses every call without its code (401)', async () => {
    await createUserWithCodes(t.database.db, 'vlist', 'Vlist@123456', ['ft-voucher']);
    const u = await t.login('vlist', 'Vlist@123456');
    expect((await u.call(voucherApi.list, { pageNum: 1, pageSize: 10 })).status).toBe(200);
    expect((await u.call(voucherApi.export, { format: 'csv' })).status).toBe(401);
    expect((await u.call(voucherApi.trial, { period: '2026-05' })).status).toBe(401);
    expect((await u.call(voucherApi.trialExport, { period: '2026-05' })).status).toBe(401);
    expect((await u.call(voucherApi.accountList)).status).toBe(401);
    expect(
      (await u.call(voucherApi.accountSave, { role: 'bank', code: '1002', name: '银行存款', version: 0 }))
        .status,
    ).toBe(401);
    const none = t.client();
    expect((await none.call(voucherApi.list, { pageNum: 1, pageSize: 10 })).status).not.toBe(200);
  });

  it('gives two approvals at once distinct voucher numbers', async () => {
    const f = await contractFixture(t, admin, checker, { rule: BULLET_RULE });
    const submitted = await Promise.all(
      ['1.00', '2.00'].map((amount, i) =>
        admin.ok<{ fiidBizCode: string }>(incomeApi.saveBaseInfo, {
          bankBizCode: f.bankBizCode,
          payerName: '并发付款人',
          payerAccount: '6222000011112222',
          payerBank: '工商银行',
          amount,
          valueDate: '2026-04-15',
          serialNo: `CC${Date.now()}${i}`,
          submit: true,
        }),
      ),
    );
    await Promise.all(
      submitted.map((s) =>
        checker.ok(incomeApi.audit, { comment: '同意' }, { query: { fiidBizCode: s.fiidBizCode } }),
      ),
    );
    const nos = await Promise.all(
      submitted.map(async (s) => (await voucherOf('income', s.fiidBizCode)).voucherNo),
    );
    expect(new Set(nos).size).toBe(2);
    expect(nos.sort()).toEqual(['记-0001', '记-0002']);
  });
});

describe('a prepayment and the red reversal of a disbursement', () => {
  it('posts the 保证金 received, the disbursement deducting the fee only, and its mirror', async () => {
    const f = await contractFixture(t, admin, checker, { rule: BULLET_RULE });
    const body = contractBody(f, {
      financingAmount: '100000.00',
      startDate: '2026-02-02',
      maturityDate: '2026-04-30',
      receivables: [receivable('150000.00', '2026-04-30')],
    });
    const s = await draftContract(admin, body);
    const saved = await admin.ok<{ version: number }>(contractApi.dueSave, {
      contBizCode: s.bizCode,
      version: s.version,
      items: [
        { kind: 'margin', amount: '10000.00', dueDate: '2026-02-02' },
        { kind: 'upfrontFee', amount: '1000.00', dueDate: '2026-02-02' },
      ],
    });
    await submitContract(admin, body, { ...s, version: saved.version });
    await checker.ok(contractApi.infoAudit, { comment: '同意' }, { query: { bizCode: s.bizCode } });
    const c = await info(s.bizCode);
    const [margin] = await queryRows<{ id: number }>(
      t.database.db,
      sql`select d.id::int as id from contract_dues d join contracts c on c.id = d.contract_id
           where c.biz_code = ${s.bizCode} and d.kind = 'margin'`,
    );
    const pa = await admin.ok<{ preamtBizCode: string }>(`/api${PA_PATHS.saveBaseInfo}`, {
      contBizCode: s.bizCode,
      method: 'transfer',
      bankBizCode: f.bankBizCode,
      receiveDate: '2026-02-02',
      lines: [{ dueId: margin!.id, amount: '10000.00' }],
      submit: true,
    });
    await checker.ok(`/api${PA_PATHS.audit}`, {}, { query: { preamtBizCode: pa.preamtBizCode } });
    const aux = `客户:${c.cust}(${c.custCode});合同:${c.no}`;
    const prepaid = await voucherOf('prepayment', pa.preamtBizCode);
    expect([prepaid.voucherNo, prepaid.voucherDate]).toEqual(['记-0001', '2026-02-02']);
    expect(lines(prepaid)).toEqual([
      `1002 银行存款 10000.00 0.00 ${aux}`,
      `2241 保证金 0.00 10000.00 ${aux}`,
    ]);

    const loan = await disburse(admin, checker, s.bizCode);
    const lv = await voucherOf('loan', loan);
    expect([lv.voucherNo, lv.voucherDate]).toEqual(['记-0002', '2026-02-02']);
    expect(lines(lv)).toEqual([
      `1135 应收保理款 100000.00 0.00 ${aux}`,
      `1002 银行存款 0.00 99000.00 ${aux}`,
      `6021 手续费收入 0.00 1000.00 ${aux}`,
    ]);

    const red = await reverseLoan(admin, checker, loan, '金额录错');
    const rv = await voucherOf('loanRed', red);
    expect([rv.voucherDate, rv.redOfNo]).toEqual([TODAY, '2026-02 记-0002']);
    expect(lines(rv)).toEqual([
      `1135 应收保理款 -100000.00 0.00 ${aux}`,
      `1002 银行存款 0.00 -99000.00 ${aux}`,
      `6021 手续费收入 0.00 -1000.00 ${aux}`,
    ]);
    // The original stays as it was posted.
    expect(lines(await voucherOf('loan', loan))).toEqual(lines(lv));
  });
});
