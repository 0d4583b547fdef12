import Decimal from 'decimal.js';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '@portal/contract/plan/dates';
import { interestRuleCalc } from '@portal/contract/plan/rule';
import { queryRows } from '../../platform/db/client';
import { createTestDb, type TestDb } from '../../testing/harness';
import { itemAsOf } from '../contract';
import { unpaidAccrual } from './as-of';

/**
 * The ledger accrues the overdue candidates nothing was posted to in SQL (docs/ledger.md "As posted
 * on a date"). Over random items and rules (both penalty modes, every day count, grace days, rates
 * with up to 8 decimals, an assessed penalty), the SQL gives what itemAsOf gives with no payment:
 * overdue or not, the overdue days, and the penalty owed to the cent.
 */
let db: TestDb;
beforeAll(async () => {
  db = await createTestDb({ poolSize: 2 });
}, 120_000);
afterAll(() => db.drop());

const cents = (max: number) => fc.integer({ min: 0, max }).map((c) => new Decimal(c).div(100).toFixed(2));
/** A rate string of 0 to 8 decimals no greater than `max` (in units of 1e-8). */
const rate = (max: number) =>
  fc
    .tuple(fc.integer({ min: 0, max }), fc.integer({ min: 0, max: 8 }))
    .map(([n, dp]) => new Decimal(n).div(1e8).toDecimalPlaces(dp, Decimal.ROUND_DOWN).toFixed(dp));

const rule = fc.record({
  annualRate: rate(50_000_000),
  dayCount: fc.constantFrom('ACT/360', 'ACT/365', '30/360'),
  penalty: fc.oneof(
    fc.record({ mode: fc.constant('MULTIPLE'), value: rate(300_000_000) }),
    fc.record({ mode: fc.constant('DAILY'), value: rate(1_000_000) }),
  ),
  graceDays: fc.integer({ min: 0, max: 15 }),
});

const item = fc.record({
  principal: fc.oneof(cents(100_000_000_000), fc.constant('0.00')),
  interest: fc.oneof(cents(100_000_000), fc.constant('0.00')),
  fee: fc.oneof(cents(1_000_000), fc.constant('0.00')),
  penalty: fc.oneof(fc.constant('0.00'), cents(1_000_000)),
  daysLate: fc.integer({ min: 1, max: 2000 }),
});

const AS_OF = '2026-11-20';

describe('the SQL accrual of an item with no payment', () => {
  it('equals itemAsOf with no payment', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(item, rule), { minLength: 1, maxLength: 40 }), async (cases) => {
        const rows = cases.map(([it, r]) => ({
          due: addDays(AS_OF, -it.daysLate),
          ...it,
          rule: { method: 'BULLET', interestCollection: 'BACK', feeRate: '0', feeCollection: 'BACK', ...r },
        }));
        const src = sql.join(
          rows.map(
            (r, n) =>
              sql`select ${n}::int as n, ${r.due}::date as due_date, ${r.principal}::numeric as principal,
                         ${r.penalty}::numeric as penalty, ${JSON.stringify(r.rule)}::jsonb as rule_snapshot`,
          ),
          sql` union all `,
        );
        const found = await queryRows<{ n: number; late_days: number; accrued: string }>(
          db.database.db,
          sql`select c.n, ${unpaidAccrual('c', sql`${AS_OF}::date`)} from (${src}) as c order by c.n`,
        );
        rows.forEach((r, n) => {
          const f = itemAsOf(
            {
              period: 1,
              dueDate: r.due,
              principal: r.principal,
              interest: r.interest,
              fee: r.fee,
              penalty: r.penalty,
            },
            [],
            AS_OF,
            interestRuleCalc.parse(r.rule),
          );
          const owed = new Decimal(r.principal).plus(r.interest).plus(r.fee);
          const accrued = new Decimal(found[n]!.accrued);
          const overdue = found[n]!.late_days >= 1 && owed.plus(accrued).gt(0);
          expect({ overdue, accrued: accrued.toFixed(2) }).toEqual({
            overdue: f.status === '逾期',
            accrued: new Decimal(f.outstanding).minus(owed).toFixed(2),
          });
          if (overdue) expect(f.overdueDays).toBe(r.daysLate);
        });
      }),
      { numRuns: 25 },
    );
  });
});
