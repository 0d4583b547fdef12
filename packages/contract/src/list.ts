import { z } from 'zod';
import { orderBy, pageQuery } from './fields';

/**
 * A list call's body (docs/protocol.md "Lists"): `{ pageNum, pageSize, orderBy, order, ...filters }`.
 * `sortable` is the per-list allow-list of orderBy columns (any other answers 400 排序字段取值不正确);
 * the schema carries it as `.sortable` so that the list screen offers exactly those columns.
 */
export function listSchema<S extends z.ZodRawShape, const C extends readonly [string, ...string[]]>(
  filters: S,
  sortable: C,
) {
  return Object.assign(z.object({ ...pageQuery, orderBy: orderBy(sortable), ...filters }), {
    sortable: sortable as readonly C[number][],
  });
}

export type ListInput<T extends z.ZodType> = z.output<T>;
