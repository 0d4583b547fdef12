/**
 * Plan-engine throughput: 100,000 contracts of 12 monthly periods, ANNUITY and EQUAL_PRINCIPAL
 * alternating, varied principal / rate / day count / start date. One JSON line on stdout.
 * Run: npx tsx bench/plan-engine.ts [contracts]
 */
import { performance } from 'node:perf_hooks';
import { DAY_COUNTS } from '@portal/contract/plan/rule';
import { generatePlan, type PlanRule } from '@portal/contract/plan/schedule';

const contracts = Number(process.argv[2] ?? 100_000);
const TERM = 12;

// Deterministic inputs (LCG), built before timing so only the engine is measured.
let seed = 42;
const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648);
const inputs = Array.from({ length: contracts }, (_, i) => {
  const cents = BigInt(next() % 1_000_000_000) + 100_000n; // 1,000.00 .. ~10,001,000.00
  const rule: PlanRule = {
    annualRate: `0.${String(30_000 + (next() % 150_000)).padStart(6, '0')}`, // 3 % .. 18 %
    dayCount: DAY_COUNTS[i % 3]!,
    method: i % 2 === 0 ? 'ANNUITY' : 'EQUAL_PRINCIPAL',
    interestCollection: 'BACK',
    feeRate: '0.005',
    feeCollection: 'INSTALMENT',
    countBothEnds: false,
  };
  const month = String(1 + (next() % 12)).padStart(2, '0');
  const day = String(1 + (next() % 31)).padStart(2, '0');
  const startDate = Number(day) > 28 ? `2024-${month}-28` : `2024-${month}-${day}`;
  return {
    principal: `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`,
    startDate,
    termMonths: TERM,
    rule,
  };
});

// Warm-up so the JIT has seen the hot paths.
for (let i = 0; i < 2_000; i++) generatePlan(inputs[i % inputs.length]!);

let items = 0;
const t0 = performance.now();
for (const input of inputs) items += generatePlan(input).items.length;
const elapsedMs = performance.now() - t0;

if (items !== contracts * TERM) throw new Error(`expected ${contracts * TERM} items, got ${items}`);
console.log(
  JSON.stringify({
    bench: 'plan-engine',
    contracts,
    periods: TERM,
    items,
    elapsedMs: Math.round(elapsedMs),
    plansPerSec: Math.round((contracts / elapsedMs) * 1000),
    node: process.version,
  }),
);
