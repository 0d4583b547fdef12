import Decimal from 'decimal.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ValidPlan } from '@portal/contract/accounts';
import { LEDGER_PATHS, type LedgerPage, type Statement } from '@portal/contract/ledger';
import { addDays } from '@portal/contract/plan/dates';
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
 * Over random histories of write-offs (principal, interest and penalty in random cents) and
 * reversals of the latest one, on random dates: every statement, of the contract or of its
 * customer, over any period, satisfies opening + Σ movements = closing to the cent, its running
 * balance ends on the closing balance, and the closing balance is the ledger's principal for the
 * same date (docs/ledger.md "The statement").
 */
const START = '2026-01-15';
const END = '2026-12-31';
const ledgerApi = servedPaths(LEDGER_PATHS);

let t: TestPortal;
let admin: TestClient;
let checker: TestClient;
let fixture: ContractFixture;
const seen = { writeOffs: 0, reversals: 0 };

beforeAll(async () => {
  t = await createTestPortal({ BUSINESS_DATE: START });
  admin = await t.login();
  checker = await addChecker(t);
  fixture = await contractFixture(t, admin, checker, { rule: BULLET_RULE, limit: '9000000.00' });
}, 120_000);
afterAll(() => t.close());

const op = fc.record({
  gap: fc.integer({ min: 0, max: 45 }),
  red: fc.boolean(),
  /** Shares of what is open, in thousandths. */
  principal: fc.integer({ min: 0, max: 1000 }),
  interest: fc.integer({ min: 0, max: 1000 }),
  penalty: fc.integer({ min: 0, max: 1000 }),
});

interface Op {
  gap: number;
  red: boolean;
  principal: number;
  interest: number;
  penalty: number;
}

const share = (open: string, perMille: number) =>
  new Decimal(open).times(perMille).div(1000).toDecimalPlaces(2, Decimal.ROUND_DOWN);

async function history(amount: string, ops: Op[]): Promise<string> {
  // Contracts are made and disbursed on START (the credit is valid then); the history moves on.
  t.portal.clock.set(START);
  const { bizCode } = await approvedContract(t, admin, checker, {
    fixture,
    over: {
      financingAmount: amount,
      startDate: '2026-01-15',
      maturityDate: '2026-09-15',
      receivables: [receivable('200000.00', '2026-09-15')],
    },
  });
  await disburse(admin, checker, bizCode);
  const live: string[] = [];
  let date = START;
  for (const o of ops) {
    date = addDays(date, o.gap);
    if (date > END) break;
    t.portal.clock.set(date);
    if (o.red && live.length > 0) {
      const red = await admin.ok<{ paidRedBizCode: string }>(
        paidApi.rushRed,
        { reason: '测试冲红' },
        { query: { paidBizCode: live.pop()! } },
      );
      await checker.ok(paidRedApi.audit, {}, { query: { paidRedBizCode: red.paidRedBizCode } });
      seen.reversals++;
      continue;
    }
    const plan = await admin.ok<ValidPlan>(paidApi.getValidPlanPaid, undefined, {
      query: { contBizCode: bizCode, paidDate: date },
    });
    const item = plan.items[0];
    if (!item) continue;
    const lines = (
      [
        ['PRINCIPAL', share(item.open.PRINCIPAL, o.principal)],
        ['INTEREST', share(item.open.INTEREST, o.interest)],
        ['PENALTY', share(item.open.PENALTY, o.penalty)],
      ] as const
    )
      .filter(([, v]) => v.gt(0))
      .map(([component, v]) => ({ itemId: item.itemId, component, amount: v.toFixed(2) }));
    if (lines.length === 0) continue;
    const total = lines.reduce((s, l) => s.plus(l.amount), new Decimal(0)).toFixed(2);
    const fiid = await approvedIncome(admin, checker, fixture.bankBizCode, total, date);
    const w = await admin.ok<{ paidBizCode: string }>(paidApi.savePlanPaidInfo, {
      fiidBizCode: fiid,
      contBizCode: bizCode,
      paidDate: date,
      kind: 'manual',
      lines,
      submit: true,
    });
    await checker.ok(paidApi.audit, {}, { query: { paidBizCode: w.paidBizCode } });
    live.push(w.paidBizCode);
    seen.writeOffs++;
  }
  t.portal.clock.set(END);
  return bizCode;
}

function checkStatement(s: Statement) {
  const moved = s.lines.reduce((sum, l) => sum.plus(l.disbursed).minus(l.principal), new Decimal(s.opening));
  expect(moved.toFixed(2), `${s.dateFrom}…${s.dateTo}`).toBe(s.closing);
  expect(s.lines.length ? s.lines[s.lines.length - 1]!.balance : s.opening).toBe(s.closing);
  for (const l of s.lines)
    expect(new Decimal(l.principal).plus(l.interest).plus(l.fee).plus(l.penalty).toFixed(2)).toBe(l.received);
}

describe('客户对账单 over random histories', () => {
  it('opening + movements = closing, to the cent', { timeout: 600_000 }, async () => {
    const day = fc.integer({ min: 0, max: 364 }).map((n) => addDays('2026-01-01', n));
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1_000_00, max: 99_999_99 }).map((c) => new Decimal(c).div(100).toFixed(2)),
        fc.array(op, { minLength: 1, maxLength: 6 }),
        fc.array(fc.tuple(day, day), { minLength: 3, maxLength: 3 }),
        async (amount, ops, periods) => {
          const contBizCode = await history(amount, ops);
          for (const [a, b] of periods) {
            const [dateFrom, dateTo] = a <= b ? [a, b] : [b, a];
            const one = await admin.ok<Statement>(ledgerApi.statement, { contBizCode, dateFrom, dateTo });
            checkStatement(one);
            const all = await admin.ok<Statement>(ledgerApi.statement, {
              custCode: fixture.custCode,
              dateFrom,
              dateTo,
            });
            checkStatement(all);
            const ledger = await admin.ok<LedgerPage>(ledgerApi.list, {
              asOf: dateTo,
              dateFrom,
              custCode: fixture.custCode,
              pageSize: 500,
            });
            const row = ledger.list.find((r) => r.contBizCode === contBizCode);
            expect(one.closing).toBe(row?.principalOutstanding ?? '0.00');
            expect(all.closing).toBe(ledger.totals.principalOutstanding);
          }
        },
      ),
      {
        numRuns: 6,
        // One history known to hold both kinds, whatever the random ones draw: two write-offs (the
        // second after maturity, with penalty), the latest reversed, then another.
        examples: [
          [
            '123456.78',
            [
              { gap: 30, red: false, principal: 300, interest: 500, penalty: 0 },
              { gap: 250, red: false, principal: 400, interest: 1000, penalty: 700 },
              { gap: 3, red: true, principal: 0, interest: 0, penalty: 0 },
              { gap: 10, red: false, principal: 1000, interest: 1000, penalty: 1000 },
            ],
            [
              ['2026-01-01', '2026-12-31'],
              ['2026-09-30', '2026-10-31'],
              ['2026-02-14', '2026-10-20'],
            ],
          ],
        ],
      },
    );
    expect(seen.writeOffs).toBeGreaterThan(0);
    expect(seen.reversals).toBeGreaterThan(0);
  });
});
