import Decimal from 'decimal.js';

/**
 * The plan engine's own Decimal: 40 significant digits, half-up. A clone, so the global Decimal
 * (and whoever else configures it) is never touched.
 */
export const D = Decimal.clone({
  precision: 40,
  rounding: Decimal.ROUND_HALF_UP,
  // never exponential notation in toString (fmt relies on it)
  toExpNeg: -9e15,
  toExpPos: 9e15,
});
export type Dec = InstanceType<typeof D>;

export const ZERO: Dec = new D(0);

/** Half-up to the cent. */
export function cents(v: Dec): Dec {
  return v.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
}

/** A 2-decimal string, half-up; never "-0.00". */
export function fmt(v: Dec): string {
  if (v.isZero()) return '0.00';
  const dp = v.decimalPlaces();
  // Amounts are already cents: pad toString instead of toFixed, which re-rounds (a hot path).
  if (dp > 2) return fmt(cents(v));
  const s = v.toString();
  return dp === 2 ? s : dp === 1 ? `${s}0` : `${s}.00`;
}

/** Bad input to the engine: `field` is the input's name, the message names it in Chinese. */
export class PlanInputError extends Error {
  override readonly name = 'PlanInputError';
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** Plain non-negative amount: at most 2 decimals, at most 13 integer digits. */
const AMOUNT = /^\d{1,13}(\.\d{1,2})?$/;

/** Parses a non-negative money string (optional = "0"); throws PlanInputError naming the field. */
export function amount(field: string, label: string, v: string | undefined, optional = false): Dec {
  if (v === undefined && optional) return ZERO;
  if (typeof v !== 'string' || !AMOUNT.test(v)) {
    throw new PlanInputError(field, `${label}必须是不为负、最多两位小数的金额`);
  }
  return new D(v);
}
