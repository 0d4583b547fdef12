import { sql } from 'drizzle-orm';
import { addDays } from '@portal/contract/plan/dates';
import type { ScopeUser } from '../../platform/auth/data-scope';
import { queryRows, type Db, type Executor } from '../../platform/db/client';
import { classAsOf } from '../classification';
import { FOLD_WHOLE, idsParam, MONEY } from './kept';
import { buildLedger } from './service';

/*
 * The day-end's side of the figures kept by date (docs/ledger.md "Kept by date", migration 0064):
 * the rows and sums of the dates kept, written in the day-end's transaction.
 */

/** The day-end computes the figures of every contract, whoever's they are. */
const EVERYONE: ScopeUser = { dataScope: 'all', deptId: null, userId: 0 };

/**
 * Keep the figures of `asOf` in ledger_kept: of every contract, or of the contracts `ids` only
 * (their rows replaced), computed by the ledger's own function, with the class in force on
 * `asOf` of a 履约中 row.
 */
async function keepRows(tx: Executor, asOf: string, ids?: readonly number[]): Promise<void> {
  if (ids && ids.length === 0) return;
  const built = await buildLedger(tx, EVERYONE, { asOf }, asOf, ids ? { ids: { ids } } : undefined);
  if (ids)
    await tx.execute(
      sql`delete from ledger_kept where as_of = ${asOf}::date and contract_id = any(${idsParam(ids)})`,
    );
  else await tx.execute(sql`delete from ledger_kept where as_of = ${asOf}::date`);
  await tx.execute(
    sql`insert into ledger_kept (as_of, contract_id, org_id, created_by, ledger_state, asset_class, ${sql.raw(MONEY.join(', '))}, overdue_days)
        select ${asOf}::date, r.id, r.org_id, r.created_by, r.ledger_state,
               case when r.ledger_state = 'active' then cl.asset_class end,
               r.receivables, r.financing, r.loan_net, r.principal_open, r.interest_open, r.interest_not_due,
               r.interest_off, r.fee_open, r.overdue_open, r.overdue_penalty, r.received, r.reversed, r.overdue_days
          from ${built.rows} as r
          left join ${classAsOf(sql`r.id`, asOf)} as cl on true`,
  );
}

/**
 * The sums of `asOf` summed again from its rows: per organisation, owner, state and class
 * (ledger_kept_sums), and from those per organisation (ledger_kept_org_sums) and for the whole book
 * (ledger_kept_book_sums, migration 0067), which the readers take when the user's scope covers
 * whole organisations or everything (kept.ts keptSums).
 */
async function sumKept(tx: Executor, asOf: string): Promise<void> {
  const d = sql`${asOf}::date`;
  for (const table of ['ledger_kept_sums', 'ledger_kept_org_sums', 'ledger_kept_book_sums'])
    await tx.execute(sql`delete from ${sql.raw(table)} where as_of = ${d}`);
  const cols = sql.raw(MONEY.join(', '));
  const sums = sql.raw(MONEY.map((m) => `coalesce(sum(${m}), 0)`).join(', '));
  await tx.execute(
    sql`insert into ledger_kept_sums (as_of, org_id, created_by, ledger_state, asset_class, contracts, overdue_contracts, ${cols})
        select as_of, org_id, created_by, ledger_state, asset_class, count(*), count(*) filter (where overdue_days > 0), ${sums}
          from ledger_kept where as_of = ${d}
         group by as_of, org_id, created_by, ledger_state, asset_class`,
  );
  // The coarser grains from the per-owner sums: a few thousand rows, not every contract again.
  const summed = sql.raw(['contracts', 'overdue_contracts', ...MONEY].map((m) => `sum(${m})`).join(', '));
  await tx.execute(
    sql`insert into ledger_kept_org_sums (as_of, org_id, ledger_state, asset_class, contracts, overdue_contracts, ${cols})
        select as_of, org_id, ledger_state, asset_class, ${summed}
          from ledger_kept_sums where as_of = ${d} group by as_of, org_id, ledger_state, asset_class`,
  );
  await tx.execute(
    sql`insert into ledger_kept_book_sums (as_of, ledger_state, asset_class, contracts, overdue_contracts, ${cols})
        select as_of, ledger_state, asset_class, ${summed}
          from ledger_kept_org_sums where as_of = ${d} group by as_of, ledger_state, asset_class`,
  );
}

/** A month's last day. */
const isMonthEnd = (d: string) => addDays(d, 1).endsWith('-01');

/** The last day of the month before `d`'s. */
const monthEndBefore = (d: string) => addDays(`${d.slice(0, 8)}01`, -1);

/**
 * At the day-end of `date` (docs/ledger.md "Kept by date"), in its transaction, after its own
 * writes (the 五级分类 of the date): the touches recorded so far are taken (only those this
 * transaction sees: a posting still running keeps its own for the readers), the dates no longer
 * kept dropped (every date but `date` and the month ends), the kept dates folded (the touched
 * contracts' rows computed again), and the figures of `date` kept afresh, with those of the month
 * end before it when that is not kept yet (the first day-end that keeps anything).
 */
export async function keepLedgerAtDayEnd(tx: Executor, date: string): Promise<void> {
  // As the page: compiling these plans cost more than running them (bench/README.md). The day-end's
  // last phase, so the setting ends with its transaction and nothing else of it runs without JIT.
  await tx.execute(sql`set local jit = off`);
  // Taken first: every write these touches stand for is committed, so the statements below see it.
  // Into a table of the transaction, not the server: a bulk load touches every contract.
  await tx.execute(
    sql`create temp table ledger_swept (contract_id bigint primary key, from_date date not null) on commit drop`,
  );
  await tx.execute(
    sql`with gone as (delete from ledger_touches returning contract_id, from_date)
        insert into ledger_swept select contract_id, min(from_date) from gone group by contract_id`,
  );
  await tx.execute(
    sql`with dropped as (delete from ledger_kept_dates
                          where as_of <> ${date}::date and extract(day from as_of + 1) <> 1 returning as_of)
        delete from ledger_kept where as_of in (select as_of from dropped)`,
  );
  const kept = await queryRows<{ d: string; n: number }>(
    tx,
    sql`select to_char(k.as_of, 'YYYY-MM-DD') as d,
               (select count(*)::int from ledger_swept s where s.from_date <= k.as_of) as n
          from ledger_kept_dates k where k.as_of <> ${date}::date order by k.as_of`,
  );
  for (const { d, n } of kept) {
    if (n === 0) continue;
    if (n > FOLD_WHOLE) await keepRows(tx, d);
    else {
      const ids = await queryRows<{ id: string }>(
        tx,
        sql`select contract_id::text as id from ledger_swept where from_date <= ${d}::date`,
      );
      await keepRows(
        tx,
        d,
        ids.map((r) => Number(r.id)),
      );
    }
    await sumKept(tx, d);
  }
  const build = async (d: string) => {
    await tx.execute(
      sql`insert into ledger_kept_dates (as_of) values (${d}::date) on conflict (as_of) do update set built_at = now()`,
    );
    await keepRows(tx, d);
    await sumKept(tx, d);
  };
  await build(date);
  const monthEnd = monthEndBefore(date);
  if (!isMonthEnd(date) && !kept.some((k) => k.d === monthEnd)) await build(monthEnd);
}

/**
 * After the day-end's transaction committed: the touches it took out are dead rows until a vacuum,
 * and every kept read walks the touches (kept.ts touchedSince); after a bulk load that was millions
 * of dead entries a read (bench/README.md "Ninth pass"), while autovacuum was busy with the big
 * tables the load wrote. Cheap on an ordinary day (a table of the day's touches). A failure
 * changes no figure and fails nothing: autovacuum comes round to the table in its own time.
 */
export async function vacuumTouches(db: Db): Promise<void> {
  await db.execute(sql`vacuum (analyze) ledger_touches`).catch(() => undefined);
}
