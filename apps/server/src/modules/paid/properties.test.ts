import Decimal from 'decimal.js';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Reconciliation, ValidPlan } from '@portal/contract/accounts';
import type { SchemeView } from '@portal/contract/contract';
import { addMonths, fromDayNumber, toDayNumber } from '@portal/contract/plan/dates';
import type { InterestRuleCalcInput } from '@portal/contract/plan/rule';
import { queryRows } from '../../platform/db/client';
import { createTestPortal, type TestClient, type TestPortal } from '../../testing/harness';
import { addChecker } from '../credit/testkit';
import {
  addRule,
  approvedContract,
  contractFixture,
  contractApi,
  type ContractFixture,
} from '../contract/testkit';
import { disburse } from '../loan/testkit';
import { approvedIncome, paidApi, paidRedApi, submittedPaid } from './testkit';

/**
 * Random contracts (method, day count, fee, penalty, grace, amount, term) and random sequences of
 * write-offs and red reversals through the API. After every step: paid ≤ due for every component
 * of every item (penalty due from the plan view), and reconciliation balances. At the end every
 * write-off still standing is reversed, latest first, and every stored figure is what it was
 * before the first write-off. Seeded, so a failure replays.
 */

let t: TestPortal;
let maker: TestClient;
let checker: TestClient;
let f: ContractFixture;
const db = () => t.database.db;
const START = '2026-01-15';
let invoices = 0;
/** Guards against a vacuous run: how many write-offs, penalty payments and reversals happened. */
const seen = { posted: 0, penalty: 0, reversed: 0 };

const ruleArb = fc.record({
  method: fc.constantFrom('BULLET', 'INTEREST_MONTHLY', 'ANNUITY', 'EQUAL_PRINCIPAL'),
  dayCount: fc.constantFrom('ACT/360', 'ACT/365', '30/360'),
  annualRate: fc.constantFrom('0.0480', '0.0720', '0.1250'),
  feeRate: fc.constantFrom('0', '0.0100'),
  feeCollection: fc.constantFrom('BACK', 'INSTALMENT'),
  penalty: fc.oneof(
    fc.record({ mode: fc.constant('MULTIPLE' as const), value: fc.constantFrom('1.5', '2') }),
    fc.record({ mode: fc.constant('DAILY' as const), value: fc.constantFrom('0.0005', '0.0003') }),
  ),
  graceDays: fc.integer({ min: 0, max: 5 }),
});

const stepArb = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('pay' as const),
      gap: fc.integer({ min: 0, max: 50 }),
      share: fc.integer({ min: 5, max: 120 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('red' as const),
      gap: fc.integer({ min: 0, max: 10 }),
      share: fc.constant(0),
    }),
  },
);

const scenarioArb = fc.record({
  rule: ruleArb,
  /** 10,000.00 .. 500,000.00 in whole cents (ten runs stay within the 9,000,000.00 line). */
  cents: fc.integer({ min: 1_000_000, max: 50_000_000 }),
  term: fc.integer({ min: 1, max: 6 }),
  steps: fc.array(stepArb, { minLength: 1, maxLength: 6 }),
});

/** Every stored figure a write-off and its reversal move. */
async function snapshot(cont: string, incomes: readonly string[]) {
  const items = await queryRows(
    db(),
    sql`select period, principal::text, interest::text, fee::text, principal_paid::text, interest_paid::text,
               fee_paid::text, penalty_paid::text
          from contract_plan_items i join contracts c on c.id = i.contract_id
         where c.biz_code = ${cont} and i.superseded_by is null order by period`,
  );
  const contract = await queryRows(
    db(),
    sql`select status, occupied_amount::text as occupied, principal_open::text as "principalOpen",
               interest_open::text as "interestOpen", fee_open::text as "feeOpen"
          from contracts where biz_code = ${cont}`,
  );
  const line = await queryRows(
    db(),
    sql`select occupied_amount::text as occupied from credit_lines where biz_code = ${f.lineCode}`,
  );
  const allocated = incomes.length
    ? await queryRows<{ code: string; allocated: string }>(
        db(),
        sql`select biz_code as code, allocated::text from incomes
             where biz_code in (${sql.join(
               incomes.map((c) => sql`${c}`),
               sql`, `,
             )}) order by biz_code`,
      )
    : [];
  return { items, contract, line, allocated };
}

async function invariants(cont: string, date: string): Promise<void> {
  t.portal.clock.set(date);
  const view = await maker.ok<SchemeView>(contractApi.schemeView, undefined, {
    query: { contBizCode: cont },
  });
  for (const i of view.items) {
    for (const [paid, due, what] of [
      [i.principalPaid, i.principal, '本金'],
      [i.interestPaid, i.interest, '利息'],
      [i.feePaid, i.fee, '费用'],
      [i.penaltyPaid, i.penalty, '罚息'],
    ] as const) {
      expect(new Decimal(paid).lte(due), `${cont} 第${i.period}期${what} paid ${paid} > due ${due}`).toBe(
        true,
      );
    }
    const owed = new Decimal(i.total).minus(i.principalPaid).minus(i.interestPaid).minus(i.feePaid);
    expect(owed.minus(i.penaltyPaid).toFixed(2)).toBe(i.outstanding);
  }
  const r = await maker.ok<Reconciliation>('/api/ft/api/accounts/reconcile', {
    dateFrom: '2026-01-01',
    dateTo: '2027-12-31',
  });
  expect(r.balanced, JSON.stringify([r.incomeDifferences, r.itemDifferences])).toBe(true);
}

async function reverse(paidBizCode: string): Promise<void> {
  const { paidRedBizCode } = await maker.ok<{ paidRedBizCode: string }>(
    paidApi.rushRed,
    { reason: '随机冲红' },
    { query: { paidBizCode } },
  );
  await checker.ok(paidRedApi.audit, {}, { query: { paidRedBizCode } });
  seen.reversed++;
}

beforeAll(async () => {
  t = await createTestPortal();
  maker = await t.login();
  checker = await addChecker(t);
  f = await contractFixture(t, maker, checker, { limit: '9000000.00' });
});
afterAll(() => t.close());

describe('write-offs and reversals on random contracts', () => {
  it('keep paid ≤ due and reconciliation balanced; reversing everything restores the start', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async (sc) => {
        const rule: InterestRuleCalcInput = { ...sc.rule, interestCollection: 'BACK' };
        t.portal.clock.set(START);
        const ruleBizCode = await addRule(maker, rule);
        const financing = new Decimal(sc.cents).div(100).toFixed(2);
        const { bizCode: cont } = await approvedContract(t, maker, checker, {
          fixture: { ...f, ruleBizCode },
          over: {
            financingAmount: financing,
            maturityDate: addMonths(START, sc.term),
            receivables: [
              {
                invoiceCode: '3100261130',
                invoiceNo: String(20_000_000 + ++invoices),
                invoiceDate: '2026-01-10',
                amount: new Decimal(financing).times(2).toFixed(2),
                debtorName: '核心买方有限公司',
                dueDate: '2026-12-31',
              },
            ],
          },
        });
        await disburse(maker, checker, cont);
        const start = await snapshot(cont, []);
        const incomes: string[] = [];
        const standing: string[] = [];
        let day = toDayNumber(START);
        for (const step of sc.steps) {
          day += step.gap;
          const date = fromDayNumber(day);
          t.portal.clock.set(date);
          if (step.kind === 'red') {
            const latest = standing.pop();
            if (latest) await reverse(latest);
          } else {
            const [c] = await queryRows<{ status: string }>(
              db(),
              sql`select status from contracts where biz_code = ${cont}`,
            );
            if (c!.status !== 'effective') continue;
            const open = await maker.ok<ValidPlan>(paidApi.getValidPlanPaid, undefined, {
              query: { contBizCode: cont, paidDate: date },
            });
            const amount = new Decimal(open.openTotal).times(step.share).div(100).toDecimalPlaces(2);
            if (amount.lt('0.01')) continue;
            const fiid = await approvedIncome(maker, checker, f.bankBizCode, amount.toFixed(2), date);
            incomes.push(fiid);
            const w = await submittedPaid(maker, fiid, cont, date);
            await checker.ok(paidApi.audit, {}, { query: { paidBizCode: w.paidBizCode } });
            standing.push(w.paidBizCode);
            seen.posted++;
            if (w.suggestion.lines.some((l) => l.component === 'PENALTY')) seen.penalty++;
          }
          await invariants(cont, date);
        }
        while (standing.length) await reverse(standing.pop()!);
        const end = await snapshot(cont, incomes);
        expect(end.items).toEqual(start.items);
        expect(end.contract).toEqual(start.contract);
        expect(end.line).toEqual(start.line);
        expect(end.allocated.every((r) => r.allocated === '0.00')).toBe(true);
        await invariants(cont, fromDayNumber(day));
      }),
      { numRuns: 10, seed: 240_24, endOnFailure: true },
    );
    expect(seen.posted).toBeGreaterThanOrEqual(10);
    expect(seen.penalty).toBeGreaterThanOrEqual(2);
    expect(seen.reversed).toBeGreaterThanOrEqual(seen.posted);
  }, 600_000);
});
