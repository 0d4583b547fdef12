import { z } from 'zod';
import { orderBy, pageQuery } from './fields';

/**
 * A list call's body (PROTOCOL.md §4): `{ pageNum, pageSize, orderBy, order, ...filters }`.
 * `sortable` is the per-list allow-list of orderBy columns.
 */
export function listSchema<S extends z.ZodRawShape, const C extends readonly [string, ...string[]]>(
  filters: S,
  sortable: C,
) {
  return z.object({ ...pageQuery, orderBy: orderBy(sortable), ...filters });
}

export type ListInput<T extends z.ZodType> = z.output<T>;
