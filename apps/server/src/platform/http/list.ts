import { asc, desc, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Page } from '@portal/contract/api';
import { queryRows, type Executor } from '../db/client';

export interface PageParams {
  pageNum: number;
  pageSize: number;
  orderBy?: string | undefined;
  order?: 'asc' | 'desc' | undefined;
}

/** ORDER BY from the allow-listed column map, with a stable tie-breaker. */
export function orderClause(p: PageParams, columns: Record<string, PgColumn | SQL>, fallback: SQL[]): SQL[] {
  const col = p.orderBy ? columns[p.orderBy] : undefined;
  if (!col) return fallback;
  return [p.order === 'asc' ? asc(col) : desc(col), ...fallback];
}

export const offsetOf = (p: PageParams) => (p.pageNum - 1) * p.pageSize;

export function page<T>(list: T[], total: number, p: PageParams): Page<T> {
  return { list, total, pageNum: p.pageNum, pageSize: p.pageSize };
}

/** `count(*)` of a FROM/WHERE fragment, e.g. sql`from banks where deleted_at is null`. */
export async function countOf(ex: Executor, fromWhere: SQL): Promise<number> {
  const rows = await queryRows<{ n: number }>(ex, sql`select count(*)::int as n ${fromWhere}`);
  return rows[0]?.n ?? 0;
}

/** `%x%` for ILIKE with the user's %, _ and \ taken literally. */
export function likePattern(s: string): string {
  return `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
