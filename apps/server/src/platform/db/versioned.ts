import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable, PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { conflict, notFound, STALE_VERSION_MSG } from '../errors';
import type { Executor } from './client';

interface VersionedTable extends PgTable {
  version: PgColumn;
  updatedAt: PgColumn;
  updatedBy: PgColumn;
}

/**
 * Optimistic-lock update (docs/protocol.md "Versions and optimistic locking"): applies `values` only when the
 * row still has the version the client read, bumping it. A missing row answers 404, a stale version 409, and
 * nothing changes in either case.
 */
export async function updateVersioned<T extends VersionedTable>(
  ex: Executor,
  table: T,
  where: SQL,
  version: number,
  values: PgUpdateSetSource<T>,
  actorId: number,
  what = '记录',
): Promise<void> {
  const res = await ex
    .update(table)
    .set({
      ...values,
      version: sql`${table.version} + 1`,
      updatedAt: sql`now()`,
      updatedBy: actorId,
    } as PgUpdateSetSource<T>)
    .where(and(where, eq(table.version, version)))
    .returning({ v: table.version });
  if (res.length === 1) return;
  const exists = await ex
    .select({ v: table.version })
    .from(table as PgTable)
    .where(where)
    .limit(1);
  if (exists.length === 0) throw notFound(what);
  throw conflict(STALE_VERSION_MSG);
}
