import type { FormRule } from 'antd';
import type { z } from 'zod';
import Decimal from 'decimal.js';
import { MONEY_PATTERN } from '@portal/contract/fields';

/** An amount cell's text is an amount above zero: a line the save sends. */
export function isPositiveAmount(v: string | undefined | null): v is string {
  return !!v && MONEY_PATTERN.test(v) && new Decimal(v).gt(0);
}

/**
 * A cell holds something 保存 must send or refuse: not empty and not a zero amount. A form whose
 * cells hold nothing else has nothing to save; one malformed cell still lets 保存 run, so that its
 * validation says under the cell what is wrong.
 */
export function isEnteredAmount(v: string | undefined | null): v is string {
  return !!v && !(MONEY_PATTERN.test(v) && new Decimal(v).isZero());
}

/**
 * The rule of an allocation cell (本次收取 of a due, 本次核销 of a plan item) against what is still
 * open: empty or 0 leaves the line out; anything else is checked by the line schema the server uses
 * (its own Chinese message), then against `open`, which the server refuses the same way.
 */
export function openAmountRule(schema: z.ZodType, open: string, overMessage: string): FormRule {
  return {
    validator: (_rule, v: string | undefined) => {
      if (!isEnteredAmount(v)) return Promise.resolve();
      const parsed = schema.safeParse(v);
      if (!parsed.success) return Promise.reject(new Error(parsed.error.issues[0]?.message ?? '格式不正确'));
      if (new Decimal(v).gt(open)) return Promise.reject(new Error(overMessage));
      return Promise.resolve();
    },
  };
}
