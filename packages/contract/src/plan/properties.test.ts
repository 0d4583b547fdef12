import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { settlementQuote } from './accrual';
import { fromDayNumber, toDayNumber } from './dates';
import { D } from './money';
import { DAY_COUNTS, FEE_COLLECTIONS, INTEREST_COLLECTIONS, type Method } from './rule';
import { generatePlan, type PlanInput, type PlanResult, type PlanRule } from './schedule';

// Random loans: principal 0.01 .. 10^12 (2-decimal strings, both tiny and huge ones), rate
// 0 .. 0.36 with up to 8 decimals, term 1 .. 120 months, every generated method and day count.

const cents = (n: bigint) => {
  const s = n.toString().padStart(3, '0');
  return `${s.slice(0, -2)}.${s.slice(-2)}`;
};
const principalArb = fc
  .oneof(fc.bigInt({ min: 1n, max: 1_000_000n }), fc.bigInt({ min: 1n, max: 100_000_000_000_000n }))
  .map(cents);
/** 0 .. 0.36 as an 8-decimal string built without floating point. */
const rate8 = (n: number) => `0.${String(n).padStart(8, '0')}`;
const rateUnits = fc.integer({ min: 0, max: 36_000_000 });
const METHODS_GENERATED: Method[] = [
  'BULLET',
  'INTEREST_MONTHLY',
  'INTEREST_QUARTERLY',
  'ANNUITY',
  'EQUAL_PRINCIPAL',
];

const loanArb = fc.record({
  principal: principalArb,
  // 2000-01-01 .. 2099-12-31
  startDate: fc
    .integer({ min: toDayNumber('2000-01-01'), max: toDayNumber('2099-12-31') })
    .map(fromDayNumber),
  termMonths: fc.integer({ min: 1, max: 120 }),
  rule: fc.record({
    annualRate: rateUnits.map(rate8),
    dayCount: fc.constantFrom(...DAY_COUNTS),
    method: fc.constantFrom(...METHODS_GENERATED),
    interestCollection: fc.constantFrom(...INTEREST_COLLECTIONS),
    feeRate: fc.integer({ min: 0, max: 5_000_000 }).map(rate8),
    feeCollection: fc.constantFrom(...FEE_COLLECTIONS),
    countBothEnds: fc.boolean(),
  }),
});

const RUNS = { numRuns: 200 };

/**
 * The first rule a plan breaks, or null. Plain checks and one `expect` a plan: vitest's matchers
 * cost microseconds each, and a 120-item plan asked ten of them per item, 200 plans a property.
 */
function shapeFault(input: PlanInput, plan: PlanResult): string | null {
  const sum = plan.items.reduce((s, i) => s.plus(i.principal), new D(0));
  if (!sum.eq(input.principal)) return `Σ principal ${sum.toFixed(2)} ≠ ${input.principal}`;
  const amounts = plan.items.flatMap((i) => [i.principal, i.interest, i.fee, i.total]);
  amounts.push(plan.upfrontInterest, plan.upfrontFee, plan.totalInterest, plan.totalFee);
  // no sign, exactly 2 decimals
  const bad = amounts.find((a) => !/^\d+\.\d{2}$/.test(a));
  if (bad !== undefined) return `amount ${bad}`;
  let from = input.startDate;
  for (const [k, i] of plan.items.entries()) {
    if (i.period !== k + 1) return `item ${k + 1}: period ${i.period}`;
    if (i.startDate !== from) return `item ${k + 1}: starts ${i.startDate}, the last ended ${from}`;
    if (!(i.dueDate > i.startDate)) return `item ${k + 1}: due ${i.dueDate} not after ${i.startDate}`;
    if (!(i.days >= 0)) return `item ${k + 1}: ${i.days} days`;
    if (!new D(i.principal).plus(i.interest).plus(i.fee).eq(i.total)) return `item ${k + 1}: parts ≠ total`;
    from = i.dueDate;
  }
  if (from !== plan.maturityDate) return `last item ends ${from}, maturity ${plan.maturityDate}`;
  return null;
}

describe('plan properties', () => {
  it('Σ principal parts = principal exactly, and no amount is negative', () => {
    fc.assert(
      fc.property(loanArb, (input) => {
        expect(shapeFault(input, generatePlan(input))).toBeNull();
      }),
      RUNS,
    );
  });

  it('total interest is non-decreasing in the rate (等额本息: up to the rounding of A)', () => {
    fc.assert(
      fc.property(loanArb, rateUnits, rateUnits, (input, a, b) => {
        const rule = (n: number): PlanRule => ({ ...input.rule, annualRate: rate8(n) });
        const low = generatePlan({ ...input, rule: rule(Math.min(a, b)) });
        const high = generatePlan({ ...input, rule: rule(Math.max(a, b)) });
        if (input.rule.method === 'ANNUITY') {
          // 等额本息 rounds the instalment A once (docs/money-rules.md): a rate a hair higher can
          // round A up a cent, which repays a cent more principal on every item and lowers the later
          // balances. So only up to that: a cent per item, grown at the period rate.
          const n = low.items.length;
          const growth = new D(1).plus(new D(rate8(Math.max(a, b))).div(12)).pow(n);
          const slack = new D('0.01').times(n).times(growth);
          expect(new D(low.totalInterest).minus(slack).lte(high.totalInterest)).toBe(true);
          return;
        }
        expect(new D(low.totalInterest).lte(high.totalInterest)).toBe(true);
        for (const [k, item] of low.items.entries()) {
          // the balance, hence each item's interest, cannot fall when the rate rises
          if (input.rule.interestCollection === 'BACK')
            expect(new D(item.interest).lte(high.items[k]!.interest)).toBe(true);
        }
      }),
      RUNS,
    );
  });

  it('gives the same output whatever process.env.TZ is', () => {
    // No `process` typing in this browser-and-node package: reach it through globalThis.
    const env = (globalThis as unknown as { process: { env: Record<string, string | undefined> } }).process
      .env;
    const original = env.TZ;
    const zones = ['Asia/Shanghai', 'America/Los_Angeles', 'Pacific/Kiritimati', 'Pacific/Pago_Pago', 'UTC'];
    try {
      // Guard against a vacuous test: switching TZ must actually move local time.
      env.TZ = 'Pacific/Kiritimati';
      const east = new Date(0).getTimezoneOffset();
      env.TZ = 'Pacific/Pago_Pago';
      expect(new Date(0).getTimezoneOffset()).not.toBe(east);
      env.TZ = original;
      fc.assert(
        fc.property(loanArb, (input) => {
          env.TZ = original; // generated under the zone the suite runs in (CI: Shanghai, Los Angeles)
          const expected = generatePlan(input);
          for (const tz of zones) {
            env.TZ = tz;
            expect(generatePlan(input)).toEqual(expected);
          }
        }),
        { numRuns: 50 },
      );
    } finally {
      if (original === undefined) delete env.TZ;
      else env.TZ = original;
    }
  });

  it('early settlement before maturity never costs more than the rest of the plan', () => {
    fc.assert(
      fc.property(loanArb, fc.double({ min: 0, max: 1, noNaN: true }), (input, at) => {
        const plan = generatePlan(input);
        const start = toDayNumber(input.startDate);
        const day = start + Math.floor(at * (toDayNumber(plan.maturityDate) - start));
        const rule = { ...input.rule, penalty: { mode: 'MULTIPLE' as const, value: '1.5' }, graceDays: 0 };
        const quote = settlementQuote(plan.items, [], fromDayNumber(day), rule);
        const rest = plan.items.reduce((s, i) => s.plus(i.total), new D(0));
        // no payments yet, so overdue items carry penalty: compare without it
        expect(new D(quote.total).minus(quote.penalty).lte(rest)).toBe(true);
        expect(new D(quote.principal).eq(input.principal)).toBe(true);
      }),
      { numRuns: 100 },
    );
  });
});
