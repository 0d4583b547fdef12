import { z } from 'zod';
import { moneyRangeError, moneyRangeOf, orderBy, pageQuery } from './fields';

/**
 * A list call's body (docs/protocol.md "Lists"): `{ pageNum, pageSize, orderBy, order, ...filters }`.
 * `sortable` is the per-list allow-list of orderBy columns (any other answers 400 排序字段取值不正确);
 * the schema carries it as `.sortable` so that the list screen offers exactly those columns.
 * An amount range (`moneyRange`) whose 起 is above its 止 is refused on the 止 field.
 */
export function listSchema<S extends z.ZodRawShape, const C extends readonly [string, ...string[]]>(
  filters: S,
  sortable: C,
) {
  const ranges = Object.values(filters).flatMap((s) => moneyRangeOf(s) ?? []);
  const schema = z.object({ ...pageQuery, orderBy: orderBy(sortable), ...filters }).superRefine((v, ctx) => {
    const values = v as Record<string, unknown>;
    for (const { key, label } of ranges) {
      const message = moneyRangeError(label, values[`${key}Start`], values[`${key}End`]);
      if (message) ctx.addIssue({ code: 'custom', path: [`${key}End`], message });
    }
  });
  return Object.assign(schema, { sortable: sortable as readonly C[number][] });
}

export type ListInput<T extends z.ZodType> = z.output<T>;
