import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { contractListSchema } from '@portal/contract/contract';
import type { Executor } from '../../platform/db/client';
import type { ScopeUser } from '../../platform/auth/data-scope';
import { contractTally, contractTallyAll } from './schema';

type ListInput = z.output<typeof contractListSchema>;

/**
 * The list parameters the tally (migrations/0016) can answer: paging, sorting and the tallied
 * keys. Allow-listed rather than deny-listed, so that a filter added to the list later falls back
 * to counting instead of being silently left out of the total.
 */
const TALLIED = new Set<string>(['pageNum', 'pageSize', 'orderBy', 'order', 'state', 'status', 'loanState']);

/**
 * A scalar subquery answering the exact number of live contracts the list matches, summed from
 * the tally, or null when the list filters by something the tally does not key on (the caller
 * counts the rows instead).
 */
export function tallyTotal(q: ListInput, user: ScopeUser): SQL | null {
  for (const [key, value] of Object.entries(q)) if (value !== undefined && !TALLIED.has(key)) return null;
  // The tally keys on the maker, not on the organisation stamped on the contract (migrations/0020):
  // a scope by organisation (any that reaches one, platform/auth/data-scope.ts) counts its rows instead.
  if (user.dataScope === 'dept') return null;
  // Who sees everything needs no owner: the rollup without it (migrations/0018) has a few rows per key.
  const t = user.dataScope === 'all' ? contractTallyAll : contractTally;
  const where = and(
    user.dataScope === 'all' ? undefined : eq(contractTally.createdBy, user.userId),
    q.state ? eq(t.state, q.state) : undefined,
    q.status ? eq(t.status, q.status) : undefined,
    q.loanState ? eq(t.loanState, q.loanState) : undefined,
  );
  return sql`(select coalesce(sum(${t.n}), 0)::int from ${t} where ${where ?? sql`true`})`;
}

/**
 * Folds the tallies' deltas into one row per key (and drops keys that net to nothing). Only keys
 * holding more than one row are rewritten, so an idle tally costs a scan and no dead rows. Safe
 * beside writers and another compaction: each statement sees one snapshot, deltas committed after
 * it stay for the next run, and a row already folded by a rival is skipped.
 */
export async function compactContractTally(ex: Executor): Promise<void> {
  await ex.execute(sql`
    with split as (
      select created_by, state, status, loan_state from contract_tally
        group by 1, 2, 3, 4 having count(*) > 1
    ), gone as (
      delete from contract_tally t using split s
        where t.created_by is not distinct from s.created_by
          and t.state = s.state and t.status = s.status and t.loan_state = s.loan_state
        returning t.created_by, t.state, t.status, t.loan_state, t.n
    )
    insert into contract_tally (created_by, state, status, loan_state, n)
      select created_by, state, status, loan_state, sum(n)::int from gone
        group by 1, 2, 3, 4 having sum(n) <> 0`);
  await ex.execute(sql`
    with split as (
      select state, status, loan_state from contract_tally_all group by 1, 2, 3 having count(*) > 1
    ), gone as (
      delete from contract_tally_all t using split s
        where t.state = s.state and t.status = s.status and t.loan_state = s.loan_state
        returning t.state, t.status, t.loan_state, t.n
    )
    insert into contract_tally_all (state, status, loan_state, n)
      select state, status, loan_state, sum(n)::int from gone group by 1, 2, 3 having sum(n) <> 0`);
}
