import Decimal from 'decimal.js';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ValidPlan } from '@portal/contract/accounts';
import { LEDGER_PATHS, type LedgerPage } from '@portal/contract/ledger';
import { addDays } from '@portal/contract/plan/dates';
import { VOUCHER_PATHS, type TrialBalance } from '@portal/contract/voucher';
import { queryRows } from '../../platform/db/client';
import { createTestPortal, type TestClient, type TestPortal, servedPaths } from '../../testing/harness';
import { addChecker } from '../credit/testkit';
import {
  approvedContract,
  BULLET_RULE,
  contractFixture,
  receivable,
  type ContractFixture,
} from '../contract/testkit';
import { disburse } from '../loan/testkit';
import { approvedIncome, paidApi, paidRedApi } from '../paid/testkit';

/**
 * Random histories through the real approvals (disbursement, incomings, write-offs over random
 * components, reversals of the latest): every voucher balances, every month's trial balance
 * balances, and at the end the accounts hold what the documents say (docs/accounting.md):
 * 应收保理款 = the ledger's principal outstanding, 预收款项 = the incomings not yet written off,
 * 利息收入 and 罚息收入 = the interest and penalty of the write-offs in force.
 */
const START = '2026-01-15';
const END = '2026-12-31';
const voucherApi = servedPaths(VOUCHER_PATHS);

let t: TestPortal;
let admin: TestClient;
let checker: TestClient;
let fixture: ContractFixture;
const model = {
  income: new Decimal(0),
  allocated: new Decimal(0),
  interest: new Decimal(0),
  penalty: new Decimal(0),
};
const seen = { writeOffs: 0, reversals: 0 };

beforeAll(async () => {
  t = await createTestPortal({ BUSINESS_DATE: START });
  admin = await t.login();
  checker = await addChecker(t);
  fixture = await contractFixture(t, admin, checker, { rule: BULLET_RULE, limit: '9000000.00' });
}, 120_000);
afterAll(() => t.close());

const op = fc.record({
  gap: fc.integer({ min: 0, max: 60 }),
  red: fc.boolean(),
  principal: fc.integer({ min: 0, max: 1000 }),
  interest: fc.integer({ min: 0, max: 1000 }),
  penalty: fc.integer({ min: 0, max: 1000 }),
  /** Received beyond what is written off, in cents: stays unallocated. */
  extra: fc.integer({ min: 0, max: 100_000 }),
});
type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;

const share = (open: string, perMille: number) =>
  new Decimal(open).times(perMille).div(1000).toDecimalPlaces(2, Decimal.ROUND_DOWN);

async function history(amount: string, ops: Op[]): Promise<void> {
  t.portal.clock.set(START);
  const { bizCode } = await approvedContract(t, admin, checker, {
    fixture,
    over: {
      financingAmount: amount,
      startDate: START,
      maturityDate: '2026-09-15',
      receivables: [receivable('200000.00', '2026-09-15')],
    },
  });
  await disburse(admin, checker, bizCode);
  const live: { code: string; interest: Decimal; penalty: Decimal; total: Decimal }[] = [];
  let date = START;
  for (const o of ops) {
    date = addDays(date, o.gap);
    if (date > END) break;
    t.portal.clock.set(date);
    if (o.red && live.length > 0) {
      const last = live.pop()!;
      const red = await admin.ok<{ paidRedBizCode: string }>(
        paidApi.rushRed,
        { reason: '测试冲红' },
        { query: { paidBizCode: last.code } },
      );
      await checker.ok(paidRedApi.audit, {}, { query: { paidRedBizCode: red.paidRedBizCode } });
      model.allocated = model.allocated.minus(last.total);
      model.interest = model.interest.minus(last.interest);
      model.penalty = model.penalty.minus(last.penalty);
      seen.reversals++;
      continue;
    }
    const plan = await admin.ok<ValidPlan>(paidApi.getValidPlanPaid, undefined, {
      query: { contBizCode: bizCode, paidDate: date },
    });
    const item = plan.items[0];
    if (!item) continue;
    const parts = {
      PRINCIPAL: share(item.open.PRINCIPAL, o.principal),
      INTEREST: share(item.open.INTEREST, o.interest),
      PENALTY: share(item.open.PENALTY, o.penalty),
    };
    const lines = Object.entries(parts)
      .filter(([, v]) => v.gt(0))
      .map(([component, v]) => ({ itemId: item.itemId, component, amount: v.toFixed(2) }));
    if (lines.length === 0) continue;
    const total = lines.reduce((s, l) => s.plus(l.amount), new Decimal(0));
    const received = total.plus(new Decimal(o.extra).div(100));
    const fiid = await approvedIncome(admin, checker, fixture.bankBizCode, received.toFixed(2), date);
    model.income = model.income.plus(received);
    const w = await admin.ok<{ paidBizCode: string }>(paidApi.savePlanPaidInfo, {
      fiidBizCode: fiid,
      contBizCode: bizCode,
      paidDate: date,
      kind: 'manual',
      lines,
      submit: true,
    });
    await checker.ok(paidApi.audit, {}, { query: { paidBizCode: w.paidBizCode } });
    live.push({ code: w.paidBizCode, interest: parts.INTEREST, penalty: parts.PENALTY, total });
    model.allocated = model.allocated.plus(total);
    model.interest = model.interest.plus(parts.INTEREST);
    model.penalty = model.penalty.plus(parts.PENALTY);
    seen.writeOffs++;
  }
  t.portal.clock.set(END);
}

const balanceOf = (tb: TrialBalance, code: string) => {
  const r = tb.rows.find((x) => x.accountCode === code);
  return r ? new Decimal(r.closingDebit).minus(r.closingCredit) : new Decimal(0);
};

describe('vouchers over random histories of approvals', () => {
  it('balance, and the accounts hold what the documents say', { timeout: 600_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1_000_00, max: 99_999_99 }).map((c) => new Decimal(c).div(100).toFixed(2)),
        fc.array(op, { minLength: 1, maxLength: 5 }),
        async (amount, ops) => {
          await history(amount, ops);
          const unbalanced = await queryRows<{ id: number }>(
            t.database.db,
            sql`select voucher_id::int as id from voucher_lines group by voucher_id having sum(debit) <> sum(credit)`,
          );
          expect(unbalanced).toEqual([]);
          let tb: TrialBalance | null = null;
          for (let m = 1; m <= 12; m++) {
            tb = await admin.ok<TrialBalance>(voucherApi.trial, {
              period: `2026-${String(m).padStart(2, '0')}`,
            });
            expect(tb.balanced).toBe(true);
          }
          const ledger = await admin.ok<LedgerPage>(`/api${LEDGER_PATHS.list}`, { asOf: END, pageSize: 500 });
          expect(balanceOf(tb!, '1135').toFixed(2)).toBe(ledger.totals.principalOutstanding);
          expect(balanceOf(tb!, '2203').neg().toFixed(2)).toBe(
            model.income.minus(model.allocated).toFixed(2),
          );
          expect(balanceOf(tb!, '6011').neg().toFixed(2)).toBe(model.interest.toFixed(2));
          expect(balanceOf(tb!, '6051').neg().toFixed(2)).toBe(model.penalty.toFixed(2));
        },
      ),
      {
        numRuns: 4,
        examples: [
          [
            '123456.78',
            [
              { gap: 30, red: false, principal: 300, interest: 500, penalty: 0, extra: 1234 },
              { gap: 250, red: false, principal: 400, interest: 1000, penalty: 700, extra: 0 },
              { gap: 3, red: true, principal: 0, interest: 0, penalty: 0, extra: 0 },
              { gap: 10, red: false, principal: 1000, interest: 1000, penalty: 1000, extra: 5 },
            ],
          ],
        ],
      },
    );
    expect(seen.writeOffs).toBeGreaterThan(0);
    expect(seen.reversals).toBeGreaterThan(0);
  });
});
