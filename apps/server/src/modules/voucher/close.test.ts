import Decimal from 'decimal.js';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIZDATE_PATHS } from '@portal/contract/bizdate';
import { CLASS_PATHS, type ClassRow } from '@portal/contract/classification';
import { LEDGER_PATHS, type LedgerPage } from '@portal/contract/ledger';
import type { Page } from '@portal/contract/api';
import { SYSPARAM_PATHS, type SysParamsView } from '@portal/contract/sysparams';
import {
  CLOSE_PATHS,
  type CloseMonthPage,
  type CloseRequest,
  type TrialBalance,
} from '@portal/contract/voucher';
import type { ContractInfo } from '@portal/contract/contract';
import { queryRows } from '../../platform/db/client';
import { createTestPortal, servedPaths, type TestClient, type TestPortal } from '../../testing/harness';
import { addChecker } from '../credit/testkit';
import {
  approvedContract,
  contractApi,
  contractFixture,
  receivable,
  type ContractFixture,
} from '../contract/testkit';
import { disburse } from '../loan/testkit';
import { incomeApi } from '../paid/testkit';
import { voucherApi } from './testkit';

/**
 * 减值准备 and 月结 (docs/accounting.md "Provisioning", "Month close"; issue 44 §2, §3). Rules
 * ACT/360 7.2 % bullet, defaults of 参数设置 (正常 1 %, 关注 2 %, 次级 25 %, 可疑 50 %, 损失 100 %).
 * - X: 100,000.00 from 01-15 to 02-14, never paid: 正常 on 01-31, 关注 at the ends of February to
 *   April (14, 45, 75 days past due), 次级 on 05-31 (106 days);
 * - Y: 200,000.00 from 01-20 to 07-20: 正常 throughout.
 */
const closeApi = servedPaths(CLOSE_PATHS);
const classApi = servedPaths(CLASS_PATHS);
const ledgerApi = servedPaths(LEDGER_PATHS);

let t: TestPortal;
let admin: TestClient;
let checker: TestClient;
let f: ContractFixture;
const no = { x: '', y: '' };
const db = () => t.database.db;

const dayEnd = async (date: string) => {
  t.portal.clock.set(date);
  await admin.ok(`/api${BIZDATE_PATHS.runDayEnd}`);
};
const contractNo = async (bizCode: string) =>
  (await admin.ok<ContractInfo>(contractApi.infoView, undefined, { query: { bizCode } })).contractNo;

/** 坏账准备 per contract as posted by the end of `e`. */
async function held(e: string): Promise<Map<string, string>> {
  const rows = await queryRows<{ contract_no: string; held: string }>(
    db(),
    sql`select l.contract_no, sum(l.credit - l.debit)::text as held
          from voucher_lines l join vouchers v on v.id = l.voucher_id
         where l.role = 'badDebtReserve' and v.voucher_date <= ${e}::date group by l.contract_no`,
  );
  return new Map(rows.map((r) => [r.contract_no, new Decimal(r.held).toFixed(2)]));
}

/** The reconciliation of a month end: per contract rate × 本金余额 (the ledger's), Σ = 1231 on the trial balance. */
async function reconcile(e: string, rates: Record<string, string>) {
  const ledger = await admin.ok<LedgerPage>(ledgerApi.list, { pageNum: 1, pageSize: 50, asOf: e });
  const h = await held(e);
  let sum = new Decimal(0);
  for (const c of [no.x, no.y]) {
    const row = ledger.list.find((r) => r.contractNo === c)!;
    const want = new Decimal(row.principalOutstanding).times(rates[c]!).div(100).toFixed(2);
    expect(h.get(c), `${c} on ${e}`).toBe(want);
    sum = sum.plus(want);
  }
  const tb = await admin.ok<TrialBalance>(voucherApi.trial, { period: e.slice(0, 7) });
  const reserve = tb.rows.find((r) => r.accountCode === '1231')!;
  expect(reserve.closingCredit).toBe(sum.toFixed(2));
  expect(tb.balanced).toBe(true);
}

const ask = (who: TestClient, period: string, action: 'close' | 'reopen', reason?: string) =>
  who.call(closeApi.ask, { period, action, reason });
const approve = (who: TestClient, requestId: number) =>
  who.call(closeApi.approve, { requestId, comment: '同意' });

async function closeBy(period: string): Promise<void> {
  const r = await admin.ok<CloseRequest>(closeApi.ask, { period, action: 'close' });
  await checker.ok(closeApi.approve, { requestId: r.requestId });
}

/** An incoming dated `valueDate`, saved and submitted (not yet approved). */
async function submittedIncome(valueDate: string, n: number): Promise<string> {
  const s = await admin.ok<{ fiidBizCode: string }>(incomeApi.saveBaseInfo, {
    bankBizCode: f.bankBizCode,
    payerName: '核心买方有限公司',
    payerAccount: '6222000011112222',
    payerBank: '工商银行',
    amount: '1000.00',
    valueDate,
    serialNo: `CLOSE${valueDate}${n}`,
    submit: true,
  });
  return s.fiidBizCode;
}

beforeAll(async () => {
  t = await createTestPortal({ BUSINESS_DATE: '2026-01-15' });
  admin = await t.login();
  checker = await addChecker(t);
  f = await contractFixture(t, admin, checker, { limit: '9000000.00' });
  const x = await approvedContract(t, admin, checker, {
    fixture: f,
    over: {
      startDate: '2026-01-15',
      maturityDate: '2026-02-14',
      receivables: [receivable('150000.00', '2026-02-14')],
    },
  });
  await disburse(admin, checker, x.bizCode);
  no.x = await contractNo(x.bizCode);
  t.portal.clock.set('2026-01-20');
  const y = await approvedContract(t, admin, checker, {
    fixture: f,
    over: {
      financingAmount: '200000.00',
      startDate: '2026-01-20',
      maturityDate: '2026-07-20',
      receivables: [receivable('300000.00', '2026-07-20')],
    },
  });
  await disburse(admin, checker, y.bizCode);
  no.y = await contractNo(y.bizCode);
}, 180_000);
afterAll(() => t.close());

describe('provisioning by 五级分类 (减值准备)', () => {
  it('holds rate × 本金余额 per contract at each month end, Σ = 坏账准备 on the trial balance', async () => {
    await dayEnd('2026-01-31');
    await reconcile('2026-01-31', { [no.x]: '1', [no.y]: '1' });
    for (const e of ['2026-02-28', '2026-03-31', '2026-04-30']) {
      await dayEnd(e);
      await reconcile(e, { [no.x]: '2', [no.y]: '1' });
    }
    // February raised X from 1,000.00 to 2,000.00: one voucher, 信用减值损失 / 坏账准备 1,000.00.
    const feb = await queryRows<{ code: string; debit: string; credit: string; contract_no: string }>(
      db(),
      sql`select l.account_code as code, l.debit::text, l.credit::text, l.contract_no
            from vouchers v join voucher_lines l on l.voucher_id = v.id
           where v.doc_type = 'provision' and v.doc_code = '2026-02' order by l.line_no`,
    );
    expect(feb).toEqual([
      { code: '6702', debit: '1000.00', credit: '0.00', contract_no: no.x },
      { code: '1231', debit: '0.00', credit: '1000.00', contract_no: no.x },
    ]);
    // 参数设置: 次级 at 30 %; May's run holds X (次级, 106 days) at it.
    const params = await admin.ok<SysParamsView>(`/api${SYSPARAM_PATHS.get}`);
    const bad = await admin.call(`/api${SYSPARAM_PATHS.save}`, {
      ...params.params,
      provisionRateSubstandard: '1',
    });
    expect(bad.httpStatus).toBe(400);
    expect(bad.msg).toContain('次级类计提比例（%）不能小于关注类计提比例（%）');
    await admin.ok(`/api${SYSPARAM_PATHS.save}`, { ...params.params, provisionRateSubstandard: '30' });
    await dayEnd('2026-05-31');
    await reconcile('2026-05-31', { [no.x]: '30', [no.y]: '1' });
    // Shown on the 五级分类 list.
    const list = await admin.ok<Page<ClassRow>>(classApi.list, { pageNum: 1, pageSize: 50 });
    expect(list.list.find((r) => r.contractNo === no.x)).toMatchObject({
      assetClass: 'substandard',
      provision: '30000.00',
    });
    // The day-end again adds nothing.
    await dayEnd('2026-05-31');
    await reconcile('2026-05-31', { [no.x]: '30', [no.y]: '1' });
  });
});

describe('month close (月结)', () => {
  it('four eyes, in order, after the month end; refuses an unbalanced month and a posting into a closed one', async () => {
    // Not yet ended (business date 05-31): June cannot be closed; nor February before January.
    expect((await ask(admin, '2026-06', 'close')).msg).toContain('尚未结束');
    expect((await ask(admin, '2026-02', 'close')).msg).toContain('请先结账会计期间2026-01');
    const r = await admin.ok<CloseRequest>(closeApi.ask, { period: '2026-01', action: 'close' });
    expect((await ask(admin, '2026-01', 'close')).msg).toContain('已有待复核');
    // The asker may not approve their own request.
    const self = await approve(admin, r.requestId);
    expect(self.httpStatus).toBe(409);
    expect(self.msg).toBe('申请人和复核人相同，不可复核');
    await checker.ok(closeApi.approve, { requestId: r.requestId });
    const months = await admin.ok<CloseMonthPage>(closeApi.list, { pageNum: 1, pageSize: 50 });
    expect(months.list.find((m) => m.period === '2026-01')).toMatchObject({ closed: true, request: null });

    // A document dated in the closed month is refused with the reason; the same dated after posts.
    const inJan = await submittedIncome('2026-01-25', 1);
    const refused = await checker.call(
      incomeApi.audit,
      { comment: '同意' },
      { query: { fiidBizCode: inJan } },
    );
    expect(refused.httpStatus).toBe(409);
    expect(refused.msg).toContain('凭证日期2026-01-25所在的会计期间2026-01已结账');
    const [none] = await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from vouchers where period = '2026-01' and doc_type = 'income'`,
    );
    expect(none!.n).toBe(0);
    // The database refuses it too, whoever writes the voucher.
    const direct = await db()
      .execute(
        sql`insert into vouchers (period, voucher_date, summary, doc_type, doc_code)
            values ('2026-01', '2026-01-31', 'x', 'income', 'X')`,
      )
      .then(
        () => null,
        (e: unknown) => e as Error & { cause?: Error },
      );
    expect(String(direct?.cause?.message ?? direct?.message)).toContain('会计期间2026-01已结账');

    // An unbalanced voucher in February: the close is refused, nothing changes.
    const [bad] = await queryRows<{ id: number }>(
      db(),
      sql`insert into vouchers (period, no, voucher_date, summary, doc_type, doc_code)
          values ('2026-02', 900, '2026-02-27', '错账', 'income', 'BAD') returning id::int as id`,
    );
    await db()
      .execute(sql`insert into voucher_lines (voucher_id, line_no, role, account_code, account_name, summary, debit, credit)
                           values (${bad!.id}, 1, 'bank', '1002', '银行存款', '错账', 10.00, 0)`);
    const feb = await admin.ok<CloseRequest>(closeApi.ask, { period: '2026-02', action: 'close' });
    const unbalanced = await approve(checker, feb.requestId);
    expect(unbalanced.httpStatus).toBe(409);
    expect(unbalanced.msg).toContain('会计期间2026-02的凭证记-0900借贷不平衡（借方10.00，贷方0.00）');
    // The trial balance out of step with the lines: refused too.
    await db()
      .execute(sql`insert into voucher_lines (voucher_id, line_no, role, account_code, account_name, summary, debit, credit)
                           values (${bad!.id}, 2, 'advance', '2203', '预收款项', '错账', 0, 10.00)`);
    await db().execute(
      sql`update voucher_account_periods set debit = debit + 1 where period = '2026-02' and account_code = '1002'`,
    );
    const untied = await approve(checker, feb.requestId);
    expect(untied.msg).toContain('会计期间2026-02试算平衡与凭证不符：科目1002');
    await db().execute(
      sql`update voucher_account_periods set debit = debit - 1 where period = '2026-02' and account_code = '1002'`,
    );
    await checker.ok(closeApi.approve, { requestId: feb.requestId });

    // Reopening: a reason, the latest closed month first, four eyes, audited.
    expect((await ask(admin, '2026-01', 'reopen')).msg).toContain('反结账须填写原因');
    expect((await ask(admin, '2026-01', 'reopen', '补记')).msg).toContain('请先反结账会计期间2026-02');
    const re = await admin.ok<CloseRequest>(closeApi.ask, {
      period: '2026-02',
      action: 'reopen',
      reason: '补记来款',
    });
    await checker.ok(closeApi.approve, { requestId: re.requestId });
    const audit = await queryRows<{ action: string }>(
      db(),
      sql`select action from audit_log where entity = 'bookMonth' and entity_code = '2026-02' order by id`,
    );
    expect(audit.map((a) => a.action)).toEqual(['askClose', 'closeMonth', 'askReopen', 'reopenMonth']);
    const inFeb = await submittedIncome('2026-02-20', 2);
    await checker.ok(incomeApi.audit, { comment: '同意' }, { query: { fiidBizCode: inFeb } });
    await closeBy('2026-02');
  });

  it('a close racing postings into the same month never leaves a voucher in a closed month', async () => {
    for (const [i, period] of ['2026-03', '2026-04', '2026-05'].entries()) {
      const incomes = [
        await submittedIncome(`${period}-10`, 10 + i),
        await submittedIncome(`${period}-20`, 20 + i),
      ];
      const r = await admin.ok<CloseRequest>(closeApi.ask, { period, action: 'close' });
      const [a, closed, b] = await Promise.all([
        checker.call(incomeApi.audit, { comment: '同意' }, { query: { fiidBizCode: incomes[0]! } }),
        approve(checker, r.requestId),
        checker.call(incomeApi.audit, { comment: '同意' }, { query: { fiidBizCode: incomes[1]! } }),
      ]);
      expect(closed.httpStatus).toBe(200);
      for (const x of [a, b]) {
        if (x.httpStatus !== 200) expect(x.msg).toContain('已结账');
      }
      // The month still counts what it was closed with: nothing was written after its close.
      const [m] = await queryRows<{ counted: number; now: number; debit: string; now_debit: string }>(
        db(),
        sql`select m.voucher_count as counted, (select count(*)::int from vouchers v where v.period = m.period) as now,
                   m.debit_total::text as debit,
                   (select coalesce(sum(l.debit), 0)::numeric(18,2)::text from vouchers v join voucher_lines l on l.voucher_id = v.id
                     where v.period = m.period) as now_debit
              from book_months m where m.period = ${period}`,
      );
      expect(m!.now).toBe(m!.counted);
      expect(m!.now_debit).toBe(m!.debit);
      // An incoming approved is in the month; one refused has no voucher and stays submitted.
      const posted = await queryRows<{ doc_code: string }>(
        db(),
        sql`select doc_code from vouchers where doc_type = 'income' and period = ${period}`,
      );
      expect(posted.map((p) => p.doc_code).sort()).toEqual(
        incomes.filter((_, k) => [a, b][k]!.httpStatus === 200).sort(),
      );
    }
  });
});
