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

/** One column of a keyset sort: its expression, direction and SQL type for a key read back. */
export interface SortKey {
  expr: SQL | PgColumn;
  dir: 'asc' | 'desc';
  /** The column's type, to compare it with a key kept as PostgreSQL's text form. */
  type: 'text' | 'numeric' | 'date' | 'timestamptz' | 'bigint';
}

/** A row's sort key: each column's value in PostgreSQL's text form (exact, microseconds too). */
export type RowKey = string[];

/** ORDER BY of a keyset sort, optionally reversed (the page before a key is read backwards). */
export function keysetOrder(keys: readonly SortKey[], reversed = false): SQL[] {
  return keys.map((k) => ((k.dir === 'desc') !== reversed ? sql`${k.expr} desc` : sql`${k.expr} asc`));
}

/** The key columns as text, in sort order, for a page's boundary rows. */
export function keyColumns(keys: readonly SortKey[]): SQL {
  return sql`array[${sql.join(
    keys.map((k) => sql`${k.expr}::text`),
    sql`, `,
  )}]`;
}

/**
 * Rows strictly after `key` in the sort (before it when `reversed`): the lexicographic comparison
 * written out, since directions may differ between columns. Key columns are never null.
 */
export function afterKey(keys: readonly SortKey[], key: RowKey, reversed = false): SQL {
  const terms = keys.map((k, i) => {
    const equal = keys.slice(0, i).map((p, j) => sql`${p.expr} = ${key[j]}::${sql.raw(p.type)}`);
    const forward = (k.dir === 'asc') !== reversed;
    const beyond = sql`${k.expr} ${sql.raw(forward ? '>' : '<')} ${key[i]}::${sql.raw(k.type)}`;
    return sql`(${sql.join([...equal, beyond], sql` and `)})`;
  });
  return sql`(${sql.join(terms, sql` or `)})`;
}

interface Boundaries {
  first: RowKey;
  last: RowKey;
  at: number;
}

export type PageStart =
  { kind: 'offset'; offset: number } | { kind: 'after'; key: RowKey } | { kind: 'before'; key: RowKey };

/**
 * Where a page starts. OFFSET makes page n cost the n − 1 pages before it, so a walk through a long
 * list (page n + 1 or n − 1 of the same query, the way a user pages) continues from the boundary
 * row of the page this process served just before: the first and last row keys of recent pages
 * are kept per query (the user, their filters, sort and page size). A jump to a page with no known
 * neighbour reads by OFFSET. A walk is a continuation: rows inserted meanwhile ahead of the
 * boundary do not push a row seen on the last page onto the next one (docs/architecture.md).
 */
export class KeysetPages {
  private readonly queries = new Map<string, Map<number, Boundaries>>();

  constructor(
    private readonly maxQueries = 2_000,
    private readonly ttlMs = 10 * 60_000,
  ) {}

  start(query: string, p: PageParams, now = Date.now()): PageStart {
    const pages = this.queries.get(query);
    const fresh = (b: Boundaries | undefined) => (b && now - b.at < this.ttlMs ? b : undefined);
    const before = fresh(pages?.get(p.pageNum - 1));
    if (before) return { kind: 'after', key: before.last };
    const after = fresh(pages?.get(p.pageNum + 1));
    if (after) return { kind: 'before', key: after.first };
    return { kind: 'offset', offset: offsetOf(p) };
  }

  /** Records a full page's boundary rows (a short page is the end: nothing follows it). */
  served(query: string, pageNum: number, first: RowKey, last: RowKey, now = Date.now()): void {
    let pages = this.queries.get(query);
    if (!pages) {
      if (this.queries.size >= this.maxQueries) this.queries.delete(this.queries.keys().next().value!);
      pages = new Map();
    } else {
      this.queries.delete(query); // re-inserted below: the Map's order is the recency order
    }
    this.queries.set(query, pages);
    if (pages.size >= 64) pages.delete(pages.keys().next().value!);
    pages.set(pageNum, { first, last, at: now });
  }
}
