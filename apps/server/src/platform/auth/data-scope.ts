import { or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { DataScope } from '@portal/contract/permission';
import { queryRows, type Executor } from '../db/client';
import type { SessionUser } from './sessions';

/**
 * Data scope (docs/architecture.md "Who may see a row"): every business list and view narrows its rows by
 * the data scopes of the signed-in user's roles together: `all` sees everything; otherwise the user sees
 * their own rows plus the rows owned by the organisations their roles reach: 本组织及下级 (`dept`) the
 * user's organisation and every one below it, 本部门 (`deptOnly`) the user's organisation alone, 自定义
 * (`custom`) the organisations chosen on the role; `self` reaches none.
 */

/** The organisations a scope reaches besides its holder's own rows: each root with all below it, and single ones. */
export interface DeptReach {
  roots: readonly number[];
  depts: readonly number[];
}
/** What a scope reaches: every row, or its holder's own rows plus the rows of some organisations. */
export type Reach = 'all' | DeptReach;

const NOWHERE: DeptReach = { roots: [], depts: [] };

/** `select id from <the organisations and all below them>`: a recursive CTE, safe against cycles. */
function subtreeOf(roots: readonly number[]): SQL {
  const ids = sql.join(
    roots.map((r) => sql`${r}`),
    sql`, `,
  );
  const start = roots.length === 1 ? sql`id = ${roots[0]}` : sql`id in (${ids})`;
  return sql`(with recursive sub(id) as (
      select id from depts where ${start}
      union
      select d.id from depts d join sub on d.parent_id = sub.id
    ) select id from sub)`;
}

/** `select id from <the organisation and all below it>`: a recursive CTE, safe against cycles. */
export function deptSubtree(deptId: number): SQL {
  return subtreeOf([deptId]);
}

/** Ids of the organisation and everything below it. */
export async function deptSubtreeIds(ex: Executor, deptId: number): Promise<number[]> {
  const rows = await queryRows<{ id: number }>(ex, sql`select id from ${deptSubtree(deptId)} as t`);
  return rows.map((r) => Number(r.id));
}

/** `select id from <the organisations reached>`, or null when it reaches none. */
function reachSet(reach: DeptReach): SQL | null {
  const single =
    reach.depts.length > 0
      ? sql`(select id from depts where id in (${sql.join(
          reach.depts.map((d) => sql`${d}`),
          sql`, `,
        )}))`
      : null;
  if (reach.roots.length === 0) return single;
  const tree = subtreeOf(reach.roots);
  return single ? sql`(select id from ${tree} as t union select id from ${single} as s)` : tree;
}

/** The reach of one role's data scope held by a user of organisation `holderDept`. */
export function roleReach(
  scope: DataScope,
  customDepts: readonly number[],
  holderDept: number | null,
): Reach {
  const own = holderDept === null ? [] : [holderDept];
  switch (scope) {
    case 'all':
      return 'all';
    case 'dept':
      return { roots: own, depts: [] };
    case 'deptOnly':
      return { roots: [], depts: own };
    case 'custom':
      return { roots: [], depts: customDepts };
    case 'self':
      return NOWHERE;
  }
}

/** Several roles add up. */
export function unionReach(reaches: readonly Reach[]): Reach {
  if (reaches.includes('all')) return 'all';
  const parts = reaches as readonly DeptReach[];
  return {
    roots: [...new Set(parts.flatMap((r) => r.roots))],
    depts: [...new Set(parts.flatMap((r) => r.depts))],
  };
}

/**
 * The session's summary of a reach: `dataScope` 'all', 'self' (own rows only) or 'dept' (own rows
 * plus the organisations of `reach`).
 */
export function sessionScope(reach: Reach): Pick<SessionUser, 'dataScope' | 'reach'> {
  if (reach === 'all') return { dataScope: 'all' };
  if (reach.roots.length === 0 && reach.depts.length === 0) return { dataScope: 'self' };
  return { dataScope: 'dept', reach };
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

export type ScopeUser = Pick<SessionUser, 'dataScope' | 'deptId' | 'userId' | 'reach'>;

/** What the user's scope reaches; a 'dept' user without `reach` has the classic 本组织及下级. */
export function reachOf(user: ScopeUser): Reach {
  if (user.dataScope === 'all') return 'all';
  if (user.dataScope === 'self') return NOWHERE;
  return user.reach ?? roleReach('dept', [], user.deptId);
}

/**
 * The organisations the user's scope reaches as a row source of their ids (`select id …`): 'all'
 * for a user who sees everything, null when it reaches none (own rows only). For readers of rows
 * kept per organisation (ledger/kept.ts), which take an organisation whole when it is reached.
 */
export function reachedOrgs(user: ScopeUser): 'all' | SQL | null {
  const reach = reachOf(user);
  return reach === 'all' ? 'all' : reachSet(reach);
}

/**
 * The WHERE condition of the user's data scope over a table's owner columns; `and` it into the
 * list's and the view's conditions (a row outside the scope is "not found" for this user).
 */
export function dataScopeCondition(user: ScopeUser, cols: OwnerColumns): SQL {
  const reach = reachOf(user);
  if (reach === 'all') return sql`true`;
  const own = sql`${cols.ownerUser} = ${user.userId}`;
  const set = reachSet(reach);
  if (!set) return own;
  const inSet = cols.ownerDept
    ? sql`${cols.ownerDept} in ${set}`
    : sql`${cols.ownerUser} in (select u.id from users u where u.dept_id in ${set})`;
  return or(own, inSet)!;
}

/**
 * Whether `inner` reaches no organisation that `outer` does not (SECURITY.md "No escalation"):
 * compared on the organisations themselves, so every kind of scope compares with every other.
 */
export async function reachWithin(ex: Executor, inner: Reach, outer: Reach): Promise<boolean> {
  if (outer === 'all') return true;
  if (inner === 'all') return false;
  const innerSet = reachSet(inner);
  if (!innerSet) return true;
  const outerSet = reachSet(outer) ?? sql`(select null::bigint as id where false)`;
  const [row] = await queryRows<{ ok: boolean }>(
    ex,
    sql`select not exists (select id from ${innerSet} as i except select id from ${outerSet} as o) as ok`,
  );
  return row!.ok;
}
