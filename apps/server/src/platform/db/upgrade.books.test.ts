import Decimal from 'decimal.js';
import ExcelJS from 'exceljs';
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIZDATE_PATHS } from '@portal/contract/bizdate';
import {
  CLOSE_PATHS,
  VOUCHER_PATHS,
  type AccountRow,
  type CloseMonthPage,
  type TrialBalance,
} from '@portal/contract/voucher';
import { DASHBOARD_PATHS, type PortfolioFigures } from '@portal/contract/dashboard';
import { LEDGER_PATHS, type LedgerPage } from '@portal/contract/ledger';
import { PROVISION_RATE_KEYS, SYSPARAM_PATHS, type SysParamsView } from '@portal/contract/sysparams';
import { PACKAGE_PATHS, type PackageAccountRow } from '@portal/contract/voucher-package';
import { buildPortal, serverRoot } from '../../server';
import { loadConfig } from '../config';
import { hashPassword } from '../auth/password-hash';
import { createTestDb, TestClient, type TestDb, TEST_PASSWORD_HASH_COST } from '../../testing/harness';
import { queryRows } from './client';
import { migrate } from './migrate';

/**
 * Upgrade of the books (docs/accounting.md "Upgrading the books"): a database at the migrations up
 * to 0039, whose vouchers were posted by the release before 预收利息 — 前置利息 taken as income on
 * the day it was received (by a disbursement's deduction and by a prepayment), a 保证金
 * prepayment, a write-off, the month-end accruals of March and April with their reversals — takes
 * every later migration and starts. No posted voucher changes, the trial balances of the past
 * periods are the same, the office's account mapping is kept, and the next month-end accrues the
 * interest earned but recognises none of the 前置利息 already booked. Through 0059 (期初导入) and
 * 0060 (减值准备, 月结) the principal outstanding stays the same on the ledger, the dashboard and
 * the trial balance, every month is there and open, and the provision rates are the defaults.
 *
 * The office (business date 2026-05-20), rules ACT/360:
 * - K1 100,000.00 from 03-01 to 05-30 (90 days) at 9 % 前置: 2,250.00 deducted at disbursement;
 * - K2 200,000.00 from 03-01 to 05-30 at 7.2 % 后置 (3,600.00 due 05-30), 保证金 10,000.00
 *   prepaid, 40,000.00 of principal written off on 04-10;
 * - K3 like K1, its 2,250.00 received by a prepayment on 03-01, disbursed 03-01 deducting nothing.
 */
const PASSWORD = 'Old@release2026';
const MIGRATED_BEFORE = (f: string) => f.endsWith('.sql') && f <= '0039_~';
const FRONT = {
  annualRate: '0.0900',
  dayCount: 'ACT/360',
  method: 'BULLET',
  interestCollection: 'FRONT',
  feeRate: '0',
  feeCollection: 'BACK',
  penalty: { mode: 'MULTIPLE', value: '1.5' },
  graceDays: 0,
};
const BACK = { ...FRONT, annualRate: '0.0720', interestCollection: 'BACK' };

let t: TestDb;
let dir: string;
beforeAll(async () => {
  t = await createTestDb({ empty: true });
  dir = mkdtempSync(join(tmpdir(), 'portal-migrations-0039-'));
  for (const f of readdirSync(join(serverRoot(), 'migrations')).filter(MIGRATED_BEFORE))
    copyFileSync(join(serverRoot(), 'migrations', f), join(dir, f));
});
afterAll(async () => {
  await t.drop();
  rmSync(dir, { recursive: true, force: true });
});

/** The office's data as the release of migration 0039 left it, inserted as that release wrote it. */
async function oldOffice(db: TestDb['database']['db']): Promise<void> {
  const x = (q: ReturnType<typeof sql>) => db.execute(q);
  await x(sql`insert into depts (biz_code, name) values ('DP0000000001', '总部')`);
  await x(
    sql`insert into roles (biz_code, name, code, data_scope) values ('RL0000000001', '超级管理员', 'admin', 'all')`,
  );
  await x(sql`insert into role_menus (role_id, menu_code) values (1, 'admin')`);
  await x(sql`insert into users (user_code, user_name, real_name, dept_id, password_hash)
    values ('US0000000001', 'admin', '系统管理员', 1, ${await hashPassword(PASSWORD, TEST_PASSWORD_HASH_COST)})`);
  await x(sql`insert into user_roles (user_id, role_id) values (1, 1)`);
  await x(
    sql`insert into portal_settings (key, value, updated_at) values ('business_date', '2026-05-20', now()), ('first_start', 'admin', now())`,
  );
  await x(sql`insert into companies (comp_code, comp_name, uscc_code, comp_type, roles, legal_person, reg_capital)
    values ('000000000101', '老客户甲有限公司', '91310000MA1FL00011', 'enterprise', '{supplier}', '张三', 1000000.00)`);
  await x(sql`insert into banks (code, name) values ('102', '中国工商银行')`);
  await x(sql`insert into bank_accounts (biz_code, owner_type, bank_code, branch_name, account_name, account_no, currency, purpose)
    values ('000000000401', 'self', '102', '上海分行', '老保理有限公司', '622200001111', 'CNY', 'collect')`);
  await x(sql`insert into interest_rules (biz_code, name, calc, annual_rate, method)
    values ('000000000501', '前置9%', ${JSON.stringify(FRONT)}::jsonb, 0.09, 'BULLET'),
           ('000000000502', '后置7.2%', ${JSON.stringify(BACK)}::jsonb, 0.072, 'BULLET')`);
  await x(sql`insert into credits (biz_code, cust_code, cust_name, limit_amount, start_date, end_date, cycle, product, state)
    values ('000000000201', '000000000101', '老客户甲有限公司', 5000000, '2026-01-01', '2026-12-31', 'cyclical', 'factoring', 'approved')`);
  await x(sql`insert into credit_lines (biz_code, kind, credit_id, cust_code, cust_name, limit_amount, start_date, end_date, cycle)
    values ('000000000301', 'platform', 1, '000000000101', '老客户甲有限公司', 5000000, '2026-01-01', '2026-12-31', 'cyclical')`);
  const contract = (n: number, amount: string, rule: string, snapshot: object, interest: string) => sql`
    insert into contracts (biz_code, contract_no, recourse, disclosure, product, cust_code, cust_name,
                           plat_cred_biz_code, line_code, financing_ratio, financing_amount, receivables_amount,
                           start_date, maturity_date, rule_biz_code, bank_biz_code, rule_snapshot, upfront_interest,
                           state, status, loan_state, loan_date, loan_amount, created_by)
    values (${`00000000060${n}`}, ${`OLD-BL-00${n}`}, 'with', 'disclosed', 'factoring', '000000000101', '老客户甲有限公司',
            '000000000201', '000000000301', 0.8, ${amount}, ${amount}::numeric * 1.5, '2026-03-01', '2026-05-30',
            ${rule}, '000000000401', ${JSON.stringify(snapshot)}::jsonb, ${interest}, 'approved', 'effective', 'loaned',
            '2026-03-01', 0, 1)`;
  await x(contract(1, '100000.00', '000000000501', FRONT, '2250.00'));
  await x(contract(2, '200000.00', '000000000502', BACK, '0'));
  await x(contract(3, '100000.00', '000000000501', FRONT, '2250.00'));
  await x(
    sql`update contracts set loan_amount = case id when 1 then 97750 when 2 then 200000 else 100000 end`,
  );
  await x(sql`insert into contract_plan_items (contract_id, period, start_date, due_date, days, principal, interest, fee, principal_paid)
    values (1, 1, '2026-03-01', '2026-05-30', 90, 100000, 0, 0, 0),
           (2, 1, '2026-03-01', '2026-05-30', 90, 200000, 3600, 0, 40000),
           (3, 1, '2026-03-01', '2026-05-30', 90, 100000, 0, 0, 0)`);
  await x(sql`insert into contract_dues (contract_id, kind, amount, due_date, received_amount, deducted_amount)
    values (1, 'upfrontInterest', 2250, '2026-03-01', 2250, 2250),
           (2, 'margin', 10000, '2026-03-01', 10000, 0),
           (3, 'upfrontInterest', 2250, '2026-03-01', 2250, 0)`);
  await x(sql`insert into prepayments (biz_code, contract_id, method, bank_biz_code, receive_date, amount, state)
    values ('000000000701', 2, 'transfer', '000000000401', '2026-03-01', 10000, 'approved'),
           ('000000000702', 3, 'transfer', '000000000401', '2026-03-01', 2250, 'approved')`);
  await x(
    sql`insert into prepayment_lines (prepayment_id, due_id, amount) values (1, 2, 10000), (2, 3, 2250)`,
  );
  const loan = (n: number, amount: string, deducted: string) => sql`
    insert into loans (biz_code, contract_id, value_date, pay_bank_biz_code, payee_bank_biz_code, serial_no, serial_key,
                       financing_amount, deducted_amount, net_amount, state)
    values (${`00000000080${n}`}, ${n}, '2026-03-01', '000000000401', '000000000401', ${`SN${n}`}, ${`SN${n}`},
            ${amount}, ${deducted}, ${amount}::numeric - ${deducted}::numeric, 'approved')`;
  await x(loan(1, '100000.00', '2250.00'));
  await x(loan(2, '200000.00', '0'));
  await x(loan(3, '100000.00', '0'));
  await x(sql`insert into loan_lines (loan_id, due_id, kind, amount, prepaid, deducted)
    values (1, 1, 'upfrontInterest', 2250, 0, 2250), (2, 2, 'margin', 10000, 10000, 0), (3, 3, 'upfrontInterest', 2250, 2250, 0)`);
  await x(sql`insert into incomes (biz_code, bank_biz_code, payer_name, amount, value_date, serial_no, state, allocated)
    values ('000000000901', '000000000401', '核心买方有限公司', 40000, '2026-04-10', 'IN1', 'approved', 40000)`);
  await x(sql`insert into paids (biz_code, income_id, contract_id, paid_date, kind, amount, state)
    values ('000000001001', 1, 2, '2026-04-10', 'manual', 40000, 'approved')`);
  await x(
    sql`insert into paid_lines (paid_id, plan_item_id, component, amount) values (1, 2, 'PRINCIPAL', 40000)`,
  );

  // The vouchers that release posted: 前置利息 to 利息收入 the day it was received.
  const aux = (n: number) => ({ cust: '老客户甲有限公司', code: '000000000101', no: `OLD-BL-00${n}` });
  const vouchers: [string, number, string, string, string, string, number | null][] = [
    ['2026-03', 1, '2026-03-01', '放款', 'loan', '000000000801', null],
    ['2026-03', 2, '2026-03-01', '收前期款', 'prepayment', '000000000701', null],
    ['2026-03', 3, '2026-03-01', '放款', 'loan', '000000000802', null],
    ['2026-03', 4, '2026-03-01', '收前期款', 'prepayment', '000000000702', null],
    ['2026-03', 5, '2026-03-01', '放款', 'loan', '000000000803', null],
    ['2026-03', 6, '2026-03-31', '计提2026-03应收未到期利息', 'accrual', '2026-03', null],
    ['2026-04', 1, '2026-04-01', '冲回2026-03计提利息', 'accrual', '2026-03', 6],
    ['2026-04', 2, '2026-04-10', '来款', 'income', '000000000901', null],
    ['2026-04', 3, '2026-04-10', '来款核销', 'paid', '000000001001', null],
    ['2026-04', 4, '2026-04-30', '计提2026-04应收未到期利息', 'accrual', '2026-04', null],
    ['2026-05', 1, '2026-05-01', '冲回2026-04计提利息', 'accrual', '2026-04', 10],
  ];
  for (const [period, no, date, summary, type, code, redOf] of vouchers)
    await x(sql`insert into vouchers (period, no, voucher_date, summary, doc_type, doc_code, red_of)
      values (${period}, ${no}, ${date}, ${summary}, ${type}, ${code}, ${redOf})`);
  await x(
    sql`insert into voucher_periods (period, last_no) values ('2026-03', 6), ('2026-04', 4), ('2026-05', 1)`,
  );
  const L: [number, string, string, string, string, string, number | null][] = [
    [1, 'factoring', '1135', '应收保理款', '100000', '0', 1],
    [1, 'bank', '1002', '银行存款', '0', '97750', 1],
    [1, 'interestIncome', '6011', '利息收入', '0', '2250', 1],
    [2, 'bank', '1002', '银行存款', '10000', '0', 2],
    [2, 'margin', '2241', '保证金', '0', '10000', 2],
    [3, 'factoring', '1135', '应收保理款', '200000', '0', 2],
    [3, 'bank', '1002', '银行存款', '0', '200000', 2],
    [4, 'bank', '1002', '银行存款', '2250', '0', 3],
    [4, 'interestIncome', '6011', '利息收入', '0', '2250', 3],
    [5, 'factoring', '1135', '应收保理款', '100000', '0', 3],
    [5, 'bank', '1002', '银行存款', '0', '100000', 3],
    // K2: 3,600.00 × 31 / 90 and × 61 / 90.
    [6, 'interestReceivable', '1132', '应收利息', '1240', '0', 2],
    [6, 'interestIncome', '6011', '利息收入', '0', '1240', 2],
    [7, 'interestReceivable', '1132', '应收利息', '-1240', '0', 2],
    [7, 'interestIncome', '6011', '利息收入', '0', '-1240', 2],
    [8, 'bank', '1002', '银行存款', '40000', '0', null],
    [8, 'advance', '2203', '预收款项', '0', '40000', null],
    [9, 'advance', '2203', '预收款项', '40000', '0', 2],
    [9, 'factoring', '1135', '应收保理款', '0', '40000', 2],
    [10, 'interestReceivable', '1132', '应收利息', '2440', '0', 2],
    [10, 'interestIncome', '6011', '利息收入', '0', '2440', 2],
    [11, 'interestReceivable', '1132', '应收利息', '-2440', '0', 2],
    [11, 'interestIncome', '6011', '利息收入', '0', '-2440', 2],
  ];
  let line = 0;
  let last = 0;
  for (const [v, role, code, name, debit, credit, k] of L) {
    line = v === last ? line + 1 : 1;
    last = v;
    const a = k === null ? { cust: '核心买方有限公司', code: null, no: null } : aux(k);
    await x(sql`insert into voucher_lines (voucher_id, line_no, role, account_code, account_name, summary, debit, credit,
                                           cust_code, cust_name, contract_no)
      values (${v}, ${line}, ${role}, ${code}, ${name}, '摘要', ${debit}, ${credit}, ${a.code}, ${a.cust}, ${a.no})`);
  }
  // The office had moved the bank account to a sub-account: the upgrade keeps it.
  await x(sql`insert into voucher_accounts (role, code, name, version)
    values ('bank', '100201', '银行存款-工行', 1), ('factoring', '1135', '应收保理款', 0),
           ('interestReceivable', '1132', '应收利息', 0), ('advance', '2203', '预收款项', 0), ('margin', '2241', '保证金', 0),
           ('interestIncome', '6011', '利息收入', 0), ('feeIncome', '6021', '手续费收入', 0), ('penaltyIncome', '6051', '罚息收入', 0)`);
}

const posted = (db: TestDb['database']['db']) =>
  queryRows(
    db,
    sql`select v.id, v.period, v.no, v.voucher_date::text, v.doc_type, v.doc_code, v.red_of, l.line_no, l.role,
               l.account_code, l.account_name, l.debit::text, l.credit::text, l.contract_no
          from vouchers v join voucher_lines l on l.voucher_id = v.id where v.id <= 11 order by v.id, l.line_no`,
  );

/** Each account's debit and credit per period, summed from the lines as posted. */
const movements = (db: TestDb['database']['db']) =>
  queryRows<{ period: string; code: string; debit: string; credit: string }>(
    db,
    sql`select v.period, l.account_code as code, sum(l.debit)::numeric(18, 2)::text as debit,
               sum(l.credit)::numeric(18, 2)::text as credit
          from vouchers v join voucher_lines l on l.voucher_id = v.id
         where v.period <= '2026-04' group by 1, 2 order by 1, 2`,
  );

describe('the books of a database at migration 0039', () => {
  it('take every later migration: posted vouchers and past trial balances unchanged, 前置利息 not recognised again', async () => {
    const { db } = t.database;
    await migrate(t.database, dir);
    await oldOffice(db);
    const vouchersBefore = await posted(db);
    const before = await movements(db);
    expect(vouchersBefore).toHaveLength(23);

    const portal = await buildPortal({
      config: loadConfig({ WEB_DIST: '', BUSINESS_DATE: '2026-05-20' }),
      database: t.database,
      logger: false,
    });
    try {
      expect(portal.firstStart).toMatchObject({ created: false, demo: false });
      const client = new TestClient(portal);
      const login = await client.ok<{ accessToken: string }>(
        '/api/admin/portal/api/login/user/mobileNumberLogin',
        { userName: 'admin', passWord: PASSWORD, userType: '2' },
      );
      client.token = login.accessToken;
      const trialOf = async (period: string) => {
        const tb = await client.ok<TrialBalance>(`/api${VOUCHER_PATHS.trial}`, { period });
        expect(tb.balanced).toBe(true);
        return tb.rows
          .filter((r) => r.debit !== '0.00' || r.credit !== '0.00')
          .map((r) => ({ period, code: r.accountCode, debit: r.debit, credit: r.credit }));
      };
      const trials = async () => [...(await trialOf('2026-03')), ...(await trialOf('2026-04'))];
      expect(await trials()).toEqual(before);
      expect(await posted(db)).toEqual(vouchersBefore);
      // The mapping: the office's own code kept, the new role added with its default.
      const accounts = await client.ok<AccountRow[]>(`/api${VOUCHER_PATHS.accountList}`);
      expect(accounts.find((a) => a.role === 'bank')).toMatchObject({ code: '100201', version: 1 });
      expect(accounts.find((a) => a.role === 'deferredInterest')).toMatchObject({
        code: '2401',
        name: '递延收益',
      });
      // 期初导入, 减值准备 and 月结 (migrations 0059, 0060; issue 44): the principal outstanding is
      // the same on every surface (K1 100,000.00, K2 160,000.00, K3 100,000.00), no contract reads
      // as imported, every month of the books is there and open, the two new roles are mapped to
      // their defaults and the provision rates read the defaults of 参数设置.
      const outstanding = '360000.00';
      const ledger = await client.ok<LedgerPage>(`/api${LEDGER_PATHS.list}`, {
        pageNum: 1,
        pageSize: 50,
        asOf: '2026-05-20',
      });
      expect(ledger.totals.principalOutstanding).toBe(outstanding);
      const dash = await client.ok<PortfolioFigures>(`/api${DASHBOARD_PATHS.portfolio}`);
      expect(dash.outstandingPrincipal).toBe(outstanding);
      const mayTrial = await client.ok<TrialBalance>(`/api${VOUCHER_PATHS.trial}`, { period: '2026-05' });
      expect(mayTrial.rows.find((r) => r.accountCode === '1135')!.closingDebit).toBe(outstanding);
      expect(
        await queryRows(db, sql`select count(*)::int as n from contracts where opening_date is not null`),
      ).toEqual([{ n: 0 }]);
      const months = await client.ok<CloseMonthPage>(`/api${CLOSE_PATHS.list}`, { pageNum: 1, pageSize: 50 });
      expect(months.list.map((m) => [m.period, m.closed, m.request])).toEqual([
        ['2026-05', false, null],
        ['2026-04', false, null],
        ['2026-03', false, null],
      ]);
      expect(accounts.find((a) => a.role === 'creditLoss')).toMatchObject({
        code: '6702',
        name: '信用减值损失',
      });
      expect(accounts.find((a) => a.role === 'badDebtReserve')).toMatchObject({
        code: '1231',
        name: '坏账准备',
      });
      const { params } = await client.ok<SysParamsView>(`/api${SYSPARAM_PATHS.get}`);
      expect(PROVISION_RATE_KEYS.map((k) => params[k])).toEqual(['1', '2', '25', '50', '100']);

      // 凭证引入 (migration 0052): no package code set, so each line exports under the code it was
      // posted with, and a month's file sums per account to that month's trial balance.
      const pkg = await client.ok<PackageAccountRow[]>(`/api${PACKAGE_PATHS.accounts}`);
      expect(pkg.find((a) => a.role === 'bank')).toMatchObject({
        code: '100201',
        yonyouCode: null,
        aux: false,
      });
      for (const period of ['2026-03', '2026-04']) {
        const res = await client.call(`/api${PACKAGE_PATHS.export}`, { period, package: 'yonyou' });
        expect(res.httpStatus).toBe(200);
        const wb = new ExcelJS.Workbook();
        await wb.xlsx.load(Buffer.from(res.raw) as unknown as ArrayBuffer);
        const sums = new Map<string, { debit: Decimal; credit: Decimal }>();
        wb.worksheets[0]!.eachRow((r, n) => {
          if (n === 1) return;
          const code = String(r.getCell(6).value);
          const s = sums.get(code) ?? { debit: new Decimal(0), credit: new Decimal(0) };
          sums.set(code, {
            debit: s.debit.plus(String(r.getCell(7).value ?? 0)),
            credit: s.credit.plus(String(r.getCell(8).value ?? 0)),
          });
        });
        expect(
          [...sums]
            .map(([code, s]) => ({ period, code, debit: s.debit.toFixed(2), credit: s.credit.toFixed(2) }))
            .sort((a, b) => (a.code < b.code ? -1 : 1)),
        ).toEqual(before.filter((m) => m.period === period));
      }

      // The next month end: the day-ends of 05-21 … 05-31 run; K2's interest, due 05-30 and
      // unpaid, is accrued whole; K1's and K3's 前置利息, already income, is not recognised again.
      const moved = await client.ok<{ days: number }>(`/api${BIZDATE_PATHS.save}`, {
        businessDate: '2026-05-31',
      });
      expect(moved.days).toBe(11);
      const may = await queryRows<{ doc_type: string; role: string; amount: string; contract_no: string }>(
        db,
        sql`select v.doc_type, l.role, (l.debit + l.credit)::text as amount, l.contract_no
              from vouchers v join voucher_lines l on l.voucher_id = v.id
             where v.id > 11 order by v.id, l.line_no`,
      );
      expect(may.filter((l) => l.doc_type === 'deferral' || l.role === 'deferredInterest')).toEqual([]);
      expect(may.filter((l) => l.role === 'interestIncome').map((l) => [l.amount, l.contract_no])).toEqual([
        ['3600.00', 'OLD-BL-002'],
        ['-3600.00', 'OLD-BL-002'],
      ]);
      expect(await posted(db)).toEqual(vouchersBefore);
      expect(await trials()).toEqual(before);
    } finally {
      await portal.close();
    }
  }, 240_000);
});
