import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIZDATE_PATHS } from '@portal/contract/bizdate';
import { DASHBOARD_PATHS, type PortfolioFigures } from '@portal/contract/dashboard';
import { LEDGER_PATHS, type LedgerPage } from '@portal/contract/ledger';
import type { InterestRuleCalcInput } from '@portal/contract/plan/rule';
import { PA_PATHS } from '@portal/contract/prepayment';
import { type TrialBalance, type VoucherView } from '@portal/contract/voucher';
import type { ContractInfo } from '@portal/contract/contract';
import { queryRows } from '../../platform/db/client';
import { createTestPortal, servedPaths, type TestClient, type TestPortal } from '../../testing/harness';
import { addChecker } from '../credit/testkit';
import {
  approvedContract,
  BULLET_RULE,
  contractApi,
  contractBody,
  contractFixture,
  draftContract,
  receivable,
  submitContract,
  type ContractFixture,
} from '../contract/testkit';
import { disburse } from '../loan/testkit';
import { voucherApi, voucherReader } from './testkit';

/**
 * Interest on the books (docs/accounting.md "Interest on the books", worked example 2):
 * - A: 100,000.00 from 03-01 to 05-30 (90 days), rule 9 % ACT/360 前置: 前置利息 2,250.00 deducted
 *   at disbursement on 03-01, into 预收利息 (2401) and recognised 775.00 / 750.00 / 725.00 at the
 *   ends of March, April and May (31, 30 and 29 of its 90 days);
 * - C: the same terms, its 前置利息 received by a prepayment (客户转账) on 03-01: also 2401;
 * - B: 100,000.00 from 01-15 to 02-14 at 7.2 % 后置 (interest 600.00), never paid: accrued at the
 *   ends of February, March and April (14, 45, 75 days past due), off the books (表外) at the end of
 *   May (106 days);
 * - D: 100,000.00 from 05-01 to 07-30 at 7.2 % (1,800.00): 31 of 90 days earned on 05-31, 620.00.
 */
const FRONT_RULE: InterestRuleCalcInput = {
  ...BULLET_RULE,
  annualRate: '0.0900',
  interestCollection: 'FRONT',
};
const ledgerApi = servedPaths(LEDGER_PATHS);

let t: TestPortal;
let admin: TestClient;
let checker: TestClient;
let front: ContractFixture;
const no = { a: '', b: '', c: '', d: '' };
const docs = { loanA: '', pa: '' };

const { list, view, voucherOf: only } = voucherReader(() => admin);
/** The lines of a voucher as `code debit credit contractNo`. */
const lines = (v: VoucherView) =>
  v.lines.map((l) => `${l.accountCode} ${l.debit} ${l.credit} ${l.aux.replace(/.*合同:/, '')}`);
const contractNo = async (bizCode: string) =>
  (await admin.ok<ContractInfo>(contractApi.infoView, undefined, { query: { bizCode } })).contractNo;
const dayEnd = async (date: string) => {
  t.portal.clock.set(date);
  await admin.ok(`/api${BIZDATE_PATHS.runDayEnd}`);
};

/** A 前置 contract of 100,000.00 from 03-01 to 05-30 with the up-front items its rule implies. */
async function frontContract(): Promise<{ bizCode: string; no: string }> {
  const body = contractBody(front, {
    startDate: '2026-03-01',
    maturityDate: '2026-05-30',
    receivables: [receivable('150000.00', '2026-05-30')],
  });
  const s = await draftContract(admin, body);
  const suggested = await admin.ok<{ kind: string; amount: string; dueDate: string }[]>(
    contractApi.due,
    undefined,
    { query: { contBizCode: s.bizCode } },
  );
  const d = await admin.ok<{ version: number }>(contractApi.dueSave, {
    contBizCode: s.bizCode,
    version: s.version,
    items: suggested,
  });
  await submitContract(admin, body, { ...s, version: d.version });
  await checker.ok(contractApi.infoAudit, {}, { query: { bizCode: s.bizCode } });
  return { bizCode: s.bizCode, no: body.contractNo };
}

beforeAll(async () => {
  t = await createTestPortal({ BUSINESS_DATE: '2026-01-15' });
  admin = await t.login();
  checker = await addChecker(t);
  front = await contractFixture(t, admin, checker, { limit: '9000000.00', rule: FRONT_RULE });
  const back = await contractFixture(t, admin, checker, { limit: '9000000.00' });
  /** A 后置 contract of 100,000.00, disbursed on its start: its contract number. */
  const disbursedBack = async (startDate: string, maturityDate: string) => {
    const { bizCode } = await approvedContract(t, admin, checker, {
      fixture: back,
      over: { startDate, maturityDate, receivables: [receivable('150000.00', maturityDate)] },
    });
    await disburse(admin, checker, bizCode);
    return contractNo(bizCode);
  };
  no.b = await disbursedBack('2026-01-15', '2026-02-14');
  await dayEnd('2026-02-28');
  t.portal.clock.set('2026-03-01');
  const a = await frontContract();
  no.a = a.no;
  docs.loanA = await disburse(admin, checker, a.bizCode);
  const c = await frontContract();
  no.c = c.no;
  const [interest] = await queryRows<{ id: number; amount: string }>(
    t.database.db,
    sql`select d.id::int as id, d.amount::text from contract_dues d join contracts k on k.id = d.contract_id
         where k.biz_code = ${c.bizCode} and d.kind = 'upfrontInterest'`,
  );
  const pa = await admin.ok<{ preamtBizCode: string }>(`/api${PA_PATHS.saveBaseInfo}`, {
    contBizCode: c.bizCode,
    method: 'transfer',
    bankBizCode: front.bankBizCode,
    receiveDate: '2026-03-01',
    lines: [{ dueId: interest!.id, amount: interest!.amount }],
    submit: true,
  });
  await checker.ok(`/api${PA_PATHS.audit}`, {}, { query: { preamtBizCode: pa.preamtBizCode } });
  docs.pa = pa.preamtBizCode;
  await disburse(admin, checker, c.bizCode);
  await dayEnd('2026-03-31');
  await dayEnd('2026-04-30');
  t.portal.clock.set('2026-05-01');
  no.d = await disbursedBack('2026-05-01', '2026-07-30');
  await dayEnd('2026-05-31');
}, 240_000);
afterAll(() => t.close());

describe('前置利息 is deferred (预收利息) and recognised month by month', () => {
  it('credits 2401 递延收益 on the disbursement that deducts it and on the prepayment that receives it', async () => {
    expect(
      lines(await only('loan', docs.loanA)).filter((l) => !l.startsWith('1135') && !l.startsWith('1002')),
    ).toContain(`2401 0.00 2250.00 ${no.a}`);
    expect(lines(await only('prepayment', docs.pa))).toEqual([
      `1002 2250.00 0.00 ${no.c}`,
      `2401 0.00 2250.00 ${no.c}`,
    ]);
  });

  it('moves the share of each month end from 2401 to 6011 利息收入, all of it by the maturity', async () => {
    const recognised = async (period: string) => lines(await only('deferral', period));
    const month = (amount: string) => [
      `2401 ${amount} 0.00 ${no.a}`,
      `2401 ${amount} 0.00 ${no.c}`,
      `6011 0.00 ${amount} ${no.a}`,
      `6011 0.00 ${amount} ${no.c}`,
    ];
    expect(await recognised('2026-03')).toEqual(month('775.00'));
    expect(await recognised('2026-04')).toEqual(month('750.00'));
    expect(await recognised('2026-05')).toEqual(month('725.00'));
    const tb = await admin.ok<TrialBalance>(voucherApi.trial, { period: '2026-05' });
    const row = tb.rows.find((r) => r.accountCode === '2401')!;
    expect([row.openingCredit, row.debit, row.closingCredit, row.closingDebit]).toEqual([
      '1450.00',
      '1450.00',
      '0.00',
      '0.00',
    ]);
    // The day-end again recognises nothing twice.
    await dayEnd('2026-05-31');
    expect((await list({ docType: 'deferral' })).total).toBe(3);
  });
});

describe('the month-end accrual covers overdue interest up to 90 days past due', () => {
  it('accrues B’s unpaid interest while overdue, and stops past 90 days', async () => {
    // The month's accrual, not its reversal dated the 1st of the next month.
    const accrued = async (period: string) =>
      lines(
        await view(
          (await list({ docType: 'accrual', docCode: period })).list.find((v) => !v.redOfNo)!.voucherId,
        ),
      ).filter((l) => l.startsWith('1132'));
    expect(await accrued('2026-02')).toEqual([`1132 600.00 0.00 ${no.b}`]);
    expect(await accrued('2026-04')).toEqual([`1132 600.00 0.00 ${no.b}`]);
    // 05-31: B is 106 days past due (表外); D has 31 of its 90 days, 1,800.00 × 31 / 90.
    expect(await accrued('2026-05')).toEqual([`1132 620.00 0.00 ${no.d}`]);
  });

  it('shows 应收利息, 未到期利息 and 表外利息 on the ledger and the dashboard alike', async () => {
    const ledger = async (asOf: string) => {
      const p = await admin.ok<LedgerPage>(ledgerApi.list, { pageNum: 1, pageSize: 50, asOf });
      const shown = (n: string) => {
        const r = p.list.find((x) => x.contractNo === n);
        return r ? [r.interestOutstanding, r.interestNotDue, r.interestOffBalance] : null;
      };
      return {
        rows: [shown(no.b), shown(no.d)],
        totals: [p.totals.interestOutstanding, p.totals.interestNotDue, p.totals.interestOffBalance],
      };
    };
    // 04-30: B 75 days past due, accrued; D not started.
    expect((await ledger('2026-04-30')).rows).toEqual([['600.00', '0.00', '0.00'], null]);
    const may = await ledger('2026-05-31');
    expect(may.rows).toEqual([
      ['0.00', '0.00', '600.00'],
      ['620.00', '1180.00', '0.00'],
    ]);
    // The 前置 contracts' plans carry no interest: the totals are B's and D's.
    expect(may.totals).toEqual(['620.00', '1180.00', '600.00']);
    // On the month end the ledger's 应收利息 is what the accrual booked.
    const dash = await admin.ok<PortfolioFigures>(`/api${DASHBOARD_PATHS.portfolio}`);
    expect([dash.interestReceivable, dash.interestNotDue, dash.interestOffBalance]).toEqual(may.totals);
  });
});
