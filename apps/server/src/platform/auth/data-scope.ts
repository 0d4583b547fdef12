import { or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { queryRows, type Executor } from '../db/client';
import type { SessionUser } from './sessions';

/**
 * Data scope (docs/architecture.md "Who may see a row"): every business list and view narrows its rows by the
 * widest scope over the signed-in user's roles: `all` sees everything, `dept` the rows owned by the user's
 * organisation and every organisation below it (plus the user's own rows), `self` only the rows the user
 * owns.
 */

/** `select id from <the organisation and all below it>`: a recursive CTE, safe against cycles. */
export function deptSubtree(deptId: number): SQL {
  return sql`(with recursive sub(id) as (
      select id from depts where id = ${deptId}
      union
      select d.id from depts d join sub on d.parent_id = sub.id
    ) select id from sub)`;
}

/** Ids of the organisation and everything below it. */
export async function deptSubtreeIds(ex: Executor, deptId: number): Promise<number[]> {
  const rows = await queryRows<{ id: number }>(ex, sql`select id from ${deptSubtree(deptId)} as t`);
  return rows.map((r) => Number(r.id));
}

export interface OwnerColumns {
  /** The column holding the owning user's id (users.id), e.g. `created_by`. */
  ownerUser: PgColumn | SQL;
  /**
   * The column holding the owning organisation's id (depts.id). Without it, `dept` scope goes
   * through the owning user's current organisation.
   */
  ownerDept?: PgColumn | SQL;
}

export type ScopeUser = Pick<SessionUser, 'dataScope' | 'deptId' | 'userId'>;

/**
 * The WHERE condition of the user's data scope over a table's owner columns; `and` it into the
 * list's and the view's conditions (a row outside the scope is "not found" for this user).
 */
export function dataScopeCondition(user: ScopeUser, cols: OwnerColumns): SQL {
  const own = sql`${cols.ownerUser} = ${user.userId}`;
  if (user.dataScope === 'all') return sql`true`;
  if (user.dataScope === 'self' || user.deptId === null) return own;
  const tree = deptSubtree(user.deptId);
  const inTree = cols.ownerDept
    ? sql`${cols.ownerDept} in ${tree}`
    : sql`${cols.ownerUser} in (select u.id from users u where u.dept_id in ${tree})`;
  return or(own, inTree)!;
}
