import Decimal from 'decimal.js';
import { sql } from 'drizzle-orm';
import {
  ASSET_CLASS_LABELS,
  ASSET_CLASSES,
  UNCLASSIFIED_LABEL,
  type ClassBucket,
  type ClassDistribution,
} from '@portal/contract/classification';
import type { ScopeUser } from '../../platform/auth/data-scope';
import { queryRows, type Executor } from '../../platform/db/client';
import { classAsOf, storedDistribution } from '../classification';
import { freshPart, isKept, keptLessTouched, touchedSince } from './kept';
import { buildLedger, money } from './service';

/**
 * The 五级分类 distribution on `asOf` (docs/classification.md "Distribution"): the 履约中 contracts
 * grouped by their class (未分类 when no day-end has classified the contract yet), with the count and
 * the 本金余额. On the business date (the dashboard's card, the default) it reads the record the
 * day-ends keep and the stored balances — the 五级分类 list's rows, which on that date are the
 * ledger's 履约中 rows. On an earlier date it reads the class rows in force then (one index probe
 * per contract) over the ledger's 履约中 figures of that date: the stored balances less the
 * postings dated after it, and the overdue candidates only (buildLedger, no shown-row columns).
 */
export async function classDistribution(
  ex: Executor,
  user: ScopeUser,
  asOf: string | undefined,
  today: string,
): Promise<ClassDistribution> {
  const date = asOf ?? today;
  const byKey = date === today ? await storedDistribution(ex, user, today) : await ledgerDistribution();
  // The ledger of a past date without JIT, like the page: compiling its plans took longer than
  // running them (bench/README.md).
  function ledgerDistribution() {
    return ex.transaction(async (tx) => {
      // One snapshot: the kept sums, the touches and the touched contracts' figures agree.
      await tx.execute(sql`set transaction isolation level repeatable read, read only`);
      await tx.execute(sql`set local jit = off`);
      const touched = (await isKept(tx, date)) ? await touchedSince(tx, date) : null;
      return touched ? keptDistributionIn(tx, touched) : ledgerDistributionIn(tx);
    });
  }
  // A date the day-end kept (docs/ledger.md "Kept by date"): the kept sums of its 履约中 rows per
  // class, less the kept rows of the contracts touched since, plus those computed afresh.
  async function keptDistributionIn(tx: Executor, touched: readonly number[]) {
    const active = (a: string) => sql`${sql.raw(a)}.ledger_state = 'active'`;
    const byClass = (a: string) => sql`coalesce(${sql.raw(a)}.asset_class, 'none')`;
    let fresh = sql``;
    if (touched.length) {
      const built = await buildLedger(tx, user, { asOf: date }, today, { ids: { ids: touched } });
      const classed = sql`(select r.*, cl.asset_class from ${built.rows} as r
                             left join ${classAsOf(sql`r.id`, date)} as cl on true where r.ledger_state = 'active')`;
      fresh = sql`union all ${freshPart(classed, byClass('f'))}`;
    }
    const found = await queryRows<{ k: string; n: number; p: string | null }>(
      tx,
      sql`select g as k, sum(n)::int as n, sum(principal_open)::text as p
            from (${keptLessTouched(user, date, touched, { org: null, where: active }, byClass)} ${fresh}) as parts
           group by g`,
    );
    return new Map(found.map((f) => [f.k, { n: f.n, p: f.p }]));
  }
  async function ledgerDistributionIn(tx: Executor) {
    const built = await buildLedger(tx, user, { asOf: date }, today);
    const found = await queryRows<{ k: string; n: number; p: string | null }>(
      tx,
      sql`select coalesce(cl.asset_class, 'none') as k, count(*)::int as n, sum(r.principal_open)::text as p
            from ${built.rows} as r left join ${classAsOf(sql`r.id`, date)} as cl on true
           where r.ledger_state = 'active' group by 1`,
    );
    return new Map(found.map((f) => [f.k, { n: f.n, p: f.p }]));
  }
  const buckets: ClassBucket[] = [...ASSET_CLASSES, 'none'];
  const rows = buckets.map((k) => ({
    assetClass: k,
    label: k === 'none' ? UNCLASSIFIED_LABEL : ASSET_CLASS_LABELS[k],
    contracts: byKey.get(k)?.n ?? 0,
    principalOutstanding: money(byKey.get(k)?.p),
  }));
  return {
    asOf: date,
    rows,
    totals: {
      contracts: rows.reduce((s, r) => s + r.contracts, 0),
      principalOutstanding: rows.reduce((s, r) => s.plus(r.principalOutstanding), new Decimal(0)).toFixed(2),
    },
  };
}
