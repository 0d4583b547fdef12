import { sql, type SQL } from 'drizzle-orm';
import { reachedOrgs, type ScopeUser } from '../../platform/auth/data-scope';
import { aliasScope } from '../../platform/auth/row-scope';
import { queryRows, type Executor } from '../../platform/db/client';

/*
 * The 台账's figures kept by date (docs/ledger.md "Kept by date", migration 0064): each contract's
 * figures of a date the day-end kept, their sums per organisation, owner, state and class, and the
 * contracts touched since (ledger_touches, written by triggers on every table the figures read).
 * A reader takes the sums, less the kept rows of the touched contracts, plus those contracts
 * computed afresh: the computed figures exactly, in one snapshot, reading a few sums and the
 * contracts touched since the last day-end instead of every contract.
 */

/** The figure columns of ledger_kept and ledger_kept_sums, as the ledger's row source names them. */
export const MONEY = [
  'receivables',
  'financing',
  'loan_net',
  'principal_open',
  'interest_open',
  'interest_not_due',
  'interest_off',
  'fee_open',
  'overdue_open',
  'overdue_penalty',
  // 本期回款 and 本期冲红 of the default period, from the first of the date's month.
  'received',
  'reversed',
] as const;

/** Whether the day-end kept the figures of `asOf`. */
export async function isKept(ex: Executor, asOf: string): Promise<boolean> {
  const [r] = await queryRows<{ n: number }>(
    ex,
    sql`select count(*)::int as n from ledger_kept_dates where as_of = ${asOf}::date`,
  );
  return (r?.n ?? 0) > 0;
}

/**
 * Past this many contracts touched since a date was kept, computing every contract costs no more:
 * a reader computes the date, and the day-end keeps it whole again rather than contract by contract.
 */
export const FOLD_WHOLE = 20_000;

/** The touches touchedSince reads at most (several a contract: a posting writes several tables). */
const TOUCHES_READ = FOLD_WHOLE * 20;

/**
 * The contracts whose figures of `asOf` may have changed since the day-end kept them; null when
 * there are more than FOLD_WHOLE (a bulk load, an import of a whole book).
 */
export async function touchedSince(ex: Executor, asOf: string): Promise<number[] | null> {
  // Through the date index (migration 0067), in its order and bounded: the planner, whose
  // statistics may still count the touches the day-end deleted, would otherwise scan the table and
  // its dead rows. A contract is touched by several statements of a posting, so the bound on the
  // touches read is a multiple of FOLD_WHOLE; past it, or past FOLD_WHOLE contracts, compute.
  const [r] = await queryRows<{ touches: number; n: number; ids: string | null }>(
    ex,
    sql`with l as materialized (select contract_id from ledger_touches where from_date <= ${asOf}::date
                                 order by from_date, contract_id limit ${TOUCHES_READ + 1}),
             ids as (select distinct contract_id from l)
        select (select count(*) from l)::int as touches, (select count(*) from ids)::int as n,
               (select string_agg(contract_id::text, ',') from ids) as ids`,
  );
  if (!r || r.touches > TOUCHES_READ || r.n > FOLD_WHOLE) return null;
  return (r.ids ?? '').split(',').filter(Boolean).map(Number);
}

export const idsParam = (ids: readonly number[]) => sql`string_to_array(${ids.join(',')}, ',')::bigint[]`;

/**
 * The kept sums of `asOf` the user may see (docs/ledger.md "Kept by date"), at the coarsest grain
 * that answers exactly: a user who sees everything reads the whole book's sums (the 机构 filter:
 * its organisations' sums); a user whose scope reaches organisations reads those organisations'
 * sums, plus the per-owner sums of their own rows outside them (the data scope is "own rows or a
 * reached organisation's", docs/architecture.md "Who may see a row"); a user of own rows only reads
 * their own per-owner sums. What is read grows with the organisations, states and classes, not
 * with the contracts or their owners.
 */
function keptSums(
  user: ScopeUser,
  asOf: string,
  org: SQL | null,
  where: (alias: string) => SQL,
  group: (alias: string) => SQL | null,
): SQL {
  const part = (table: string, a: string, cond: SQL) => {
    const sums = sql.raw(MONEY.map((m) => `coalesce(sum(${a}.${m}), 0) as ${m}`).join(', '));
    return sql`select ${group(a) ?? sql`''`} as g, coalesce(sum(${sql.raw(a)}.contracts), 0) as n,
                      coalesce(sum(${sql.raw(a)}.overdue_contracts), 0) as n_overdue, ${sums}
                 from ${sql.raw(table)} ${sql.raw(a)}
                where ${sql.raw(a)}.as_of = ${asOf}::date and ${cond} and ${where(a)}
                group by 1`;
  };
  const inOrg = (a: string) => (org ? sql`${sql.raw(a)}.org_id in ${org}` : sql`true`);
  const reached = reachedOrgs(user);
  if (reached === 'all')
    return org
      ? part('ledger_kept_org_sums', 's', inOrg('s'))
      : part('ledger_kept_book_sums', 's', sql`true`);
  const own = part(
    'ledger_kept_sums',
    'o',
    reached
      ? sql`o.created_by = ${user.userId} and ${inOrg('o')} and not coalesce(o.org_id in ${reached}, false)`
      : sql`o.created_by = ${user.userId} and ${inOrg('o')}`,
  );
  if (!reached) return own;
  return sql`${part('ledger_kept_org_sums', 's', sql`s.org_id in ${reached} and ${inOrg('s')}`)} union all ${own}`;
}

/**
 * The kept part of a call: the sums of `asOf` the user may see (keptSums), less the kept rows of
 * the touched contracts `touched` (the caller adds those computed afresh). `org` (a row source of
 * organisation ids: the 机构 filter) and `where` (on the state and the class) narrow both. One row
 * per `group` value (empty: one row), columns n, n_overdue and the MONEY sums; a union to be put
 * in parentheses with freshPart's.
 */
export function keptLessTouched(
  user: ScopeUser,
  asOf: string,
  touched: readonly number[],
  narrow: { org: SQL | null; where: (alias: string) => SQL },
  group: (alias: string) => SQL | null,
): SQL {
  const kept = keptSums(user, asOf, narrow.org, narrow.where, group);
  const g = (a: string) => group(a) ?? sql`''`;
  const neg = sql.raw(MONEY.map((m) => `-coalesce(sum(k.${m}), 0) as ${m}`).join(', '));
  const gone = sql`select ${g('k')} as g, -count(*) as n, -(count(*) filter (where k.overdue_days > 0)) as n_overdue, ${neg}
                     from ledger_kept k
                    where k.as_of = ${asOf}::date and k.contract_id = any(${idsParam(touched)})
                      and ${aliasScope(user, 'k')} and ${narrow.where('k')}
                      and ${narrow.org ? sql`k.org_id in ${narrow.org}` : sql`true`}
                    group by 1`;
  return touched.length ? sql`${kept} union all ${gone}` : kept;
}

/** The names the ledger's totals read them by (service.ts totalsFrom). */
const TOTAL_NAMES: Record<(typeof MONEY)[number], string> = {
  receivables: 't_receivables',
  financing: 't_financing',
  loan_net: 't_loan_net',
  principal_open: 't_p',
  interest_open: 't_i',
  interest_not_due: 't_ind',
  interest_off: 't_ioff',
  fee_open: 't_f',
  overdue_open: 't_od',
  overdue_penalty: 't_pen',
  received: 't_received',
  reversed: 't_reversed',
};

/** The union keptLessTouched gives and the fresh rows, summed into the ledger's totals. */
export const SUMMED = sql.raw(
  [
    'coalesce(sum(n), 0)::int as t_n',
    'coalesce(sum(n_overdue), 0)::int as t_odn',
    ...MONEY.map((m) => `sum(${m})::text as ${TOTAL_NAMES[m]}`),
  ].join(', '),
);

/** The fresh rows (a ledger row source) as the union's columns, grouped by `group`. */
export function freshPart(rows: SQL, group: SQL | null): SQL {
  const sums = sql.raw(MONEY.map((m) => `coalesce(sum(f.${m}), 0) as ${m}`).join(', '));
  return sql`select ${group ?? sql`''`} as g, count(*) as n, count(*) filter (where f.overdue_days > 0) as n_overdue, ${sums}
               from ${rows} as f group by 1`;
}
