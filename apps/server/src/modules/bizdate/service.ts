import Decimal from 'decimal.js';
import { eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Page } from '@portal/contract/api';
import {
  DUE_REMINDER_DAYS,
  MAX_FORWARD_DAYS,
  tooFarForwardMessage,
  type DayEndItem,
  type DayEndRun,
  type DayEndTrigger,
  type ReminderItem,
  type dayEndListSchema,
  type reminderListSchema,
} from '@portal/contract/bizdate';
import { DEFAULT_CLASS_THRESHOLDS, type ClassThresholds } from '@portal/contract/classification';
import { DEFAULT_COLLECTION_SCHEDULE, type CollectionSchedule } from '@portal/contract/collections';
import type { ItemPayment } from '@portal/contract/plan/accrual';
import { addDays, daysBetween } from '@portal/contract/plan/dates';
import { interestRuleCalc } from '@portal/contract/plan/rule';
import { insertSlices, queryRows, slicesOf, type Db, type Executor, type Tx } from '../../platform/db/client';
import { advisoryXactLock } from '../../platform/db/advisory';
import type { Actor } from '../../platform/db/audit';
import { runCommand } from '../../platform/db/command';
import { badInput, conflict } from '../../platform/errors';
import { countOf, offsetOf, page } from '../../platform/http/list';
import type { BusinessClock } from '../../platform/clock';
import {
  INTERRUPTED,
  Progress,
  progressBoard,
  staleRun,
  type ProgressOptions,
} from '../../platform/progress';
import { contractPlanItems, contracts } from '../contract/schema';
import { itemAsOf, itemsReadFromLines, paymentsByContract, paymentsOf, type ItemAsOf } from '../contract';
import { DAY_END_RUN_ROWS, dayEndItems, dayEndRuns } from './schema';
import { purgeLogs } from '../monitor';
import { classifyAtDayEnd } from '../classification';
import { keepLedgerAtDayEnd, vacuumTouches } from '../ledger';
import { accrueMonthEnds, provideMonthEnd } from '../voucher';
import { collectAtDayEnd } from '../collections';
import { guaranteeWatchAtDayEnd, type GuaranteeWatch } from '../credit';
import { DEFAULT_GUARANTEE_WATCH } from '@portal/contract/sysparams';

export const BIZDATE_KEY = 'business_date';
/** The change-feed topic a new business date announces (every server reloads it). */
export const BIZDATE_TOPIC = 'bizdate';
const money = (v: Decimal.Value) => new Decimal(v).toFixed(2);

/** The business date stored by the 营业日 screen, if any. */
export async function storedDate(ex: Executor): Promise<string | undefined> {
  const [r] = await queryRows<{ value: string }>(
    ex,
    sql`select value from portal_settings where key = ${BIZDATE_KEY}`,
  );
  return r?.value;
}

/** The latest date any approved document posted money on, with that document. */
export async function lastPosting(ex: Executor): Promise<{ date: string; what: string } | null> {
  const [r] = await queryRows<{ d: string; what: string }>(
    ex,
    sql`select to_char(d, 'YYYY-MM-DD') as d, what from (
          select paid_date as d, '来款核销 ' || biz_code as what from paids where state = 'approved' and deleted_at is null
          union all select red_date, '核销冲红 ' || biz_code from paid_reds where state = 'approved' and deleted_at is null
          union all select value_date, '放款单 ' || biz_code from loans where state = 'approved' and deleted_at is null
          union all select receive_date, '前期款 ' || biz_code from prepayments where state = 'approved' and deleted_at is null
          union all select value_date, '来款 ' || biz_code from incomes where state = 'approved' and deleted_at is null
        ) p order by d desc, what limit 1`,
  );
  return r ? { date: r.d, what: r.what } : null;
}

/**
 * Moves the business date (docs/business-date.md): never back past a date that has postings. One
 * mover at a time (advisory lock); the audit row and the notice to the other servers commit with
 * the new date or not at all.
 */
export async function setBusinessDate(
  tx: Tx,
  date: string,
  current: string,
  actor: Actor,
): Promise<{ from: string; to: string }> {
  return runCommand(tx, actor, { entity: 'system', action: 'setBusinessDate' }, async (_tx, w) => {
    await advisoryXactLock(tx, 'bizdate', 'set');
    if (daysBetween(current, date) > MAX_FORWARD_DAYS) throw badInput(tooFarForwardMessage(current));
    if (date < current) {
      const last = await lastPosting(tx);
      if (last && last.date > date)
        throw conflict(`营业日不能回退到 ${date}：${last.date} 已有记账（${last.what}）`);
    }
    await tx.execute(sql`insert into portal_settings (key, value, updated_at) values (${BIZDATE_KEY}, ${date}, now())
      on conflict (key) do update set value = excluded.value, updated_at = now()`);
    await w.audit({ detail: { from: current, to: date } });
    await tx.execute(sql`select pg_notify('portal_change', ${BIZDATE_TOPIC})`);
    return { from: current, to: date };
  });
}

interface Candidate {
  id: number;
  contract_id: number;
  period: number;
  due_date: string;
  principal: string;
  interest: string;
  fee: string;
  penalty: string;
  rule_snapshot: unknown;
  created_by: number | null;
  manager_id: number | null;
}

/**
 * The day-end (日终) of a business date: marks the overdue items with the day's penalty accrual,
 * and puts due-soon and overdue reminders into the contract owners' 待办. The job log row is
 * written first and closed after the work (done with counts, or failed with the error). The work
 * is one transaction under an advisory lock, so runs on several servers queue instead of
 * interleaving, and it is idempotent: the date's marks are replaced by the same marks, a reminder
 * already given is not given again.
 */
export async function runDayEnd(
  db: Db,
  date: string,
  trigger: DayEndTrigger,
  actor: Actor,
  opts: DayEndOptions = {},
): Promise<DayEndRun> {
  return (await dayEnd(db, date, trigger, actor, opts))!;
}

interface DayEndOptions {
  logRetentionDays?: number;
  classThresholds?: ClassThresholds;
  /** The 催收提醒 schedule of 参数设置 (docs/collections.md "Reminders"). */
  collectionSchedule?: CollectionSchedule;
  /** The 担保到期提醒 settings of 参数设置 (docs/credit.md "Reminders"). */
  guaranteeWatch?: GuaranteeWatch;
  /** How the run's progress is written (docs/business-date.md "Progress"); tests set a barrier. */
  progress?: ProgressOptions;
  /** Contracts a step of the overdue phase (and a progress step): DAY_END_SLICE; tests set fewer. */
  slice?: number;
}

/**
 * One day-end (runDayEnd); with `once`, a date some run already completed is left alone (no log
 * row, null), checked under the advisory lock: a run marks itself done in its work's transaction,
 * so two servers catching up never run a day twice.
 */
async function dayEnd(
  db: Db,
  date: string,
  trigger: DayEndTrigger,
  actor: Actor,
  opts: DayEndOptions & { once?: boolean },
): Promise<DayEndRun | null> {
  const [run] = await db
    .insert(dayEndRuns)
    .values({
      businessDate: date,
      trigger,
      state: 'running',
      startedBy: actor.userId || null,
      contracts: 0,
      overdueItems: 0,
      penaltyOfDay: '0',
      remindersAdded: 0,
    })
    .returning({ id: dayEndRuns.id });
  const id = run!.id;
  // Beside the transaction, on connections of its own (platform/progress.ts).
  const progress = new Progress(db, DAY_END_RUN_ROWS, id, opts.progress, {
    id: run!.id,
    startedAt: new Date().toISOString(),
    businessDate: date,
    trigger,
    state: 'running',
    endedAt: null,
    startedByName: null,
    contracts: 0,
    overdueItems: 0,
    penaltyOfDay: '0.00',
    remindersAdded: 0,
    error: null,
  } satisfies Omit<DayEndRun, 'progress'>);
  try {
    await progress.phase('waiting', 0, date);
    const thresholds = opts.classThresholds ?? DEFAULT_CLASS_THRESHOLDS;
    const schedule = opts.collectionSchedule ?? DEFAULT_COLLECTION_SCHEDULE;
    const watch = opts.guaranteeWatch ?? DEFAULT_GUARANTEE_WATCH;
    const ran = await db.transaction(async (tx) => {
      await advisoryXactLock(tx, 'dayEnd', 'run');
      if (opts.once && (await doneAlready(tx, date))) return false;
      const counts = await dayEndWork(tx, date, { thresholds, actor, schedule, watch, progress }, opts.slice);
      await tx
        .update(dayEndRuns)
        .set({ state: 'done', endedAt: sql`now()`, ...counts })
        .where(eq(dayEndRuns.id, id));
      return true;
    });
    await progress.end();
    if (!ran) {
      await db.delete(dayEndRuns).where(eq(dayEndRuns.id, id));
      return null;
    }
    // The touches the run folded, vacuumed outside its transaction (docs/ledger.md "Kept by date").
    await vacuumTouches(db);
    // Logs older than 参数设置's retention go at the day-end (docs/operations.md "Log retention").
    if (opts.logRetentionDays !== undefined) await purgeLogs(db, opts.logRetentionDays);
  } catch (err) {
    await progress.end();
    await db
      .update(dayEndRuns)
      .set({ state: 'failed', endedAt: sql`now()`, error: err instanceof Error ? err.message : String(err) })
      .where(eq(dayEndRuns.id, id));
  }
  return (await listRuns(db, { pageNum: 1, pageSize: 1 }, id)).list[0]!;
}

async function doneAlready(tx: Tx, date: string): Promise<boolean> {
  const [r] = await queryRows<{ n: number }>(
    tx,
    sql`select count(*)::int as n from day_end_runs where business_date = ${date}::date and state = 'done'`,
  );
  return (r?.n ?? 0) > 0;
}

/**
 * The day-ends of a forward move from `from` to `to` (docs/business-date.md "Catching up"): every
 * day after `from` up to `to` in order, each its own run (log row, transaction, lock). A day passed
 * over that a run already completed is not run again; `to`, the move's own day-end, always runs.
 * A failed day stops the walk (the later days build on it) and is the last run returned.
 */
export async function catchUpDayEnds(
  db: Db,
  from: string,
  to: string,
  actor: Actor,
  opts: DayEndOptions = {},
): Promise<DayEndRun[]> {
  const runs: DayEndRun[] = [];
  for (let d = addDays(from, 1); d < to; d = addDays(d, 1)) {
    // Logs are purged once, by the last day's run.
    const run = await dayEnd(db, d, 'catchUp', actor, {
      classThresholds: opts.classThresholds,
      collectionSchedule: opts.collectionSchedule,
      guaranteeWatch: opts.guaranteeWatch,
      progress: opts.progress,
      slice: opts.slice,
      once: true,
    });
    if (!run) continue;
    runs.push(run);
    if (run.state === 'failed') return runs;
  }
  runs.push(await runDayEnd(db, to, 'dateChange', actor, opts));
  return runs;
}

/**
 * The scheduled day-end (定时任务 `dayEnd`, docs/business-date.md "The day-end"): when the date
 * follows the calendar, the day-ends from the last completed one up to today, in order
 * (catchUpDayEnds: a day already completed is not run again), so a server that was down over
 * midnight, or several days, closes every day it missed. With no completed day-end, or one beyond
 * MAX_FORWARD_DAYS, only today's runs. When the date is stored or set, the office ends its days by
 * moving the date, and the job leaves the book alone (`skipped` says why).
 */
export async function scheduledDayEnd(
  db: Db,
  clock: BusinessClock,
  actor: Actor,
  opts: DayEndOptions = {},
): Promise<{ runs: DayEndRun[]; skipped?: string }> {
  if (clock.source() !== 'calendar') return { runs: [], skipped: '营业日由人工设置，日终随营业日变更运行' };
  const today = clock.today();
  const [last] = await queryRows<{ date: string | null }>(
    db,
    sql`select max(business_date)::text as date from day_end_runs
         where state = 'done' and business_date <= ${today}::date`,
  );
  const done = last?.date ?? null;
  if (done === today) return { runs: [], skipped: `${today} 的日终已完成` };
  const from = done && daysBetween(done, today) <= MAX_FORWARD_DAYS ? done : addDays(today, -1);
  return { runs: await catchUpDayEnds(db, from, today, actor, opts) };
}

/**
 * The day-end running now, if any (the newest run still 运行中, not one a stopped server left),
 * with its progress (docs/business-date.md "Progress").
 */
export async function runningDayEnd(db: Executor): Promise<DayEndRun | null> {
  return (
    (
      await listRuns(
        db,
        { pageNum: 1, pageSize: 1 },
        undefined,
        sql`r.state = 'running' and not ${staleRun()}`,
      )
    ).list[0] ?? null
  );
}

/**
 * On PGlite the run's transaction holds the one connection: the day-end running in this process,
 * from the process's board, without reading the database (which would wait for the run's end).
 */
export function runningHere(db: Db): DayEndRun | null {
  return progressBoard(db).latest<Omit<DayEndRun, 'progress'>>(DAY_END_RUN_ROWS);
}

/**
 * The day-end's candidates: the open items of disbursed contracts in force due by the reminder
 * horizon, and the items itemAsOf may find overdue although principal, interest and fee are paid
 * (penalty owed), in contract and period order, each with its contract's rule and owners.
 *
 * It reads what they need (bench/README.md "The deep page and the day-end's candidates"): the
 * open items from the open-items index (migration 0062, every column read is in it) kept to the
 * contracts in force by the disbursed contracts' index, the paid-late items from their marks
 * (itemsReadFromLines), and the contract row of each candidate by its key. The contracts' rows
 * (wide: the rule snapshot) were read whole, and every write-off line joined, on every day-end.
 * `jit` is off for the statement: the planner cannot estimate "owing" (a disjunction of column
 * comparisons), and the JIT it paid for the overestimate took longer than the statement (as in
 * modules/ledger).
 */
async function dayEndCandidates(tx: Tx, date: string, horizon: string): Promise<Candidate[]> {
  const inForce = sql`(select id from contracts where deleted_at is null and status = 'effective' and loan_state = 'loaned')`;
  const [was] = await queryRows<{ jit: string }>(
    tx,
    sql`select current_setting('jit') as jit, set_config('jit', 'off', true)`,
  );
  const rows = await queryRows<Candidate>(
    tx,
    sql`with cand as (
          select i.id, i.contract_id, i.period, i.due_date, i.principal, i.interest, i.fee, i.penalty
            from contract_plan_items i
           where i.superseded_by is null and i.due_date <= ${horizon}::date
             and (i.principal_paid < i.principal or i.interest_paid < i.interest or i.fee_paid < i.fee)
             and i.contract_id in ${inForce}
          union
          select i.id, i.contract_id, i.period, i.due_date, i.principal, i.interest, i.fee, i.penalty
            from contract_plan_items i
           where i.id in (select id from ${itemsReadFromLines(inForce, date)} as late))
        select i.id::int as id, i.contract_id::int as contract_id, i.period,
               to_char(i.due_date, 'YYYY-MM-DD') as due_date, i.principal::text, i.interest::text,
               i.fee::text, i.penalty::text, c.rule_snapshot, c.created_by::int as created_by,
               c.manager_id::int as manager_id
          from cand i
          cross join lateral (select k.rule_snapshot, k.created_by, k.manager_id from contracts k
                               where k.id = i.contract_id offset 0) as c
         order by i.contract_id, i.period`,
  );
  await tx.execute(sql`select set_config('jit', ${was!.jit}, true)`);
  return rows;
}

/** Contracts whose candidates' payments the day-end reads in one statement. */
const DAY_END_SLICE = 1000;
/** Reminders a statement (four text parameters whatever the count; the slice bounds its size). */
const REMINDER_SLICE = 5000;

interface WorkOptions {
  thresholds: ClassThresholds;
  actor: Actor;
  schedule: CollectionSchedule;
  watch: GuaranteeWatch;
  progress: Progress;
}

async function dayEndWork(
  tx: Tx,
  date: string,
  { thresholds, actor, schedule, watch, progress }: WorkOptions,
  slice = DAY_END_SLICE,
) {
  // The month-end interest accrual of a month end this day-end reached (docs/accounting.md).
  await accrueMonthEnds(tx, date, actor, progress);
  await progress.phase('overdue', 0, date);
  const horizon = addDays(date, DUE_REMINDER_DAYS);
  const rows = await dayEndCandidates(tx, date, horizon);
  const byContract = new Map<number, Candidate[]>();
  for (const r of rows) byContract.set(r.contract_id, [...(byContract.get(r.contract_id) ?? []), r]);
  const marks: (typeof dayEndItems.$inferInsert)[] = [];
  const wanted: { userId: number; contractId: number; itemId: number; kind: 'dueSoon' | 'overdue' }[] = [];
  let penalty = new Decimal(0);
  // The candidates' dated payments a slice of contracts at a time (a statement per contract made
  // the day-end of 1,000,000 contracts take hours; bench/README.md "Ten times the portfolio").
  const contractSlices = slicesOf([...byContract], slice);
  const paymentsOfSlice = (slice: [number, Candidate[]][]) =>
    paymentsByContract(
      tx,
      slice.flatMap(([contractId, items]) => items.map((i) => ({ id: i.id, period: i.period, contractId }))),
    );
  await progress.phase('overdue', byContract.size, date);
  for (const part of contractSlices) {
    const paid = await paymentsOfSlice(part);
    for (const [contractId, items] of part) dayEndContract(contractId, items, paid.get(contractId) ?? []);
    await progress.step(part.length);
  }
  function dayEndContract(contractId: number, items: Candidate[], payments: ItemPayment[]) {
    const rule = interestRuleCalc.parse(items[0]!.rule_snapshot);
    const owners = [...new Set([items[0]!.created_by, items[0]!.manager_id])].filter(
      (u): u is number => typeof u === 'number' && u > 0,
    );
    for (const it of items) {
      // The plan view's, the write-off screen's and the dashboard's function (docs/money-rules.md).
      const f = itemAsOf(
        {
          period: it.period,
          dueDate: it.due_date,
          principal: it.principal,
          interest: it.interest,
          fee: it.fee,
          penalty: it.penalty,
        },
        payments,
        date,
        rule,
      );
      if (f.status === '逾期') {
        // Accrued through D less accrued through D − 1 (payments dated D not yet counted).
        const ofDay = Decimal.max(0, new Decimal(f.penaltyDue).minus(f.penaltyPayable));
        penalty = penalty.plus(ofDay);
        marks.push({
          businessDate: date,
          planItemId: it.id,
          contractId,
          overdueDays: f.overdueDays,
          principalOverdue: f.open.PRINCIPAL,
          interestOverdue: f.open.INTEREST,
          feeOverdue: f.open.FEE,
          penaltyOfDay: money(ofDay),
          penaltyAccrued: f.penaltyDue,
          penaltyOwed: f.penaltyOwed,
        });
        for (const u of owners) wanted.push({ userId: u, contractId, itemId: it.id, kind: 'overdue' });
      } else if (it.due_date >= date) {
        for (const u of owners) wanted.push({ userId: u, contractId, itemId: it.id, kind: 'dueSoon' });
      }
    }
  }
  await progress.phase('marks', 0, date);
  await tx.delete(dayEndItems).where(eq(dayEndItems.businessDate, date));
  for (const part of insertSlices(dayEndItems, marks)) {
    await tx.insert(dayEndItems).values(part);
    await progress.wrote(part.length);
  }
  // 五级分类 of the date from each contract's longest overdue days (docs/classification.md).
  const longest = new Map<number, number>();
  for (const m of marks) longest.set(m.contractId, Math.max(longest.get(m.contractId) ?? 0, m.overdueDays));
  await progress.phase('classify', 0, date);
  await classifyAtDayEnd(tx, date, longest, thresholds);
  // 减值准备 of a month's last day, from the classes just recorded (docs/accounting.md "Provisioning").
  if (addDays(date, 1).endsWith('-01')) {
    await progress.phase('provision', 0, date);
    await provideMonthEnd(tx, date, actor);
  }
  await progress.phase('reminders', 0, date);
  let added = 0;
  // Each slice in one statement, in the order found (was a statement a reminder).
  const list = (ws: typeof wanted, pick: (w: (typeof wanted)[number]) => string | number) =>
    ws.map(pick).join(',');
  for (const ws of slicesOf(wanted, REMINDER_SLICE)) {
    const r = await queryRows<{ id: number }>(
      tx,
      sql`insert into reminders (user_id, contract_id, plan_item_id, kind, business_date)
          select u.id, w.contract_id, w.item_id, w.kind, ${date}::date
            from unnest(string_to_array(${list(ws, (w) => w.userId)}, ',')::bigint[],
                        string_to_array(${list(ws, (w) => w.contractId)}, ',')::bigint[],
                        string_to_array(${list(ws, (w) => w.itemId)}, ',')::bigint[],
                        string_to_array(${list(ws, (w) => w.kind)}, ','))
                 with ordinality as w(user_id, contract_id, item_id, kind, ord)
            join users u on u.id = w.user_id and u.deleted_at is null
           order by w.ord
          on conflict (user_id, plan_item_id, kind) do nothing returning id`,
    );
    added += r.length;
    await progress.wrote(r.length);
  }
  // 催收提醒 by the schedule and the promises to pay judged (docs/collections.md); its messages are
  // its own, not the 待办 reminders counted here.
  await progress.phase('collections', 0, date);
  await collectAtDayEnd(tx, date, schedule);
  // 担保到期提醒: guarantees ending, valuations grown old (docs/credit.md "Reminders").
  await progress.phase('guarantees', 0, date);
  await guaranteeWatchAtDayEnd(tx, date, watch);
  // The 台账's figures of the date kept, after this run's own writes (docs/ledger.md "Kept by date").
  await progress.phase('keepLedger', 0, date);
  await keepLedgerAtDayEnd(tx, date);
  return {
    contracts: byContract.size,
    overdueItems: marks.length,
    penaltyOfDay: money(penalty),
    remindersAdded: added,
  };
}

export async function listRuns(
  db: Executor,
  q: Pick<z.output<typeof dayEndListSchema>, 'pageNum' | 'pageSize'>,
  only?: number,
  where: SQL = sql`true`,
): Promise<Page<DayEndRun>> {
  const cond = only === undefined ? where : sql`r.id = ${only}`;
  // A run a stopped server left 运行中 reads as failed, ended when its server last wrote it.
  const stale = sql`(r.state = 'running' and ${staleRun()})`;
  const rows = await queryRows<DayEndRun>(
    db,
    sql`select r.id::int as id, to_char(r.business_date, 'YYYY-MM-DD') as "businessDate", r.trigger,
               case when ${stale} then 'failed' else r.state end as state,
               r.started_at as "startedAt", case when ${stale} then r.progress_at else r.ended_at end as "endedAt",
               u.real_name as "startedByName",
               r.contracts, r.overdue_items as "overdueItems", r.penalty_of_day::text as "penaltyOfDay",
               r.reminders_added as "remindersAdded", case when ${stale} then ${INTERRUPTED} else r.error end as error,
               case when r.state = 'running' and not ${stale} then r.progress end as progress
          from day_end_runs r left join users u on u.id = r.started_by
         where ${cond} order by r.started_at desc, r.id desc
         limit ${q.pageSize} offset ${offsetOf(q)}`,
  );
  const total = await countOf(db, sql`from day_end_runs r where ${cond}`);
  return page(
    rows.map((r) => ({
      ...r,
      startedAt: new Date(r.startedAt).toISOString(),
      endedAt: r.endedAt ? new Date(r.endedAt).toISOString() : null,
    })),
    total,
    q,
  );
}

export async function latestRun(db: Executor): Promise<DayEndRun | null> {
  return (await listRuns(db, { pageNum: 1, pageSize: 1 })).list[0] ?? null;
}

export async function dayEndItemsOf(ex: Executor, date: string): Promise<DayEndItem[]> {
  return queryRows<DayEndItem>(
    ex,
    sql`select c.biz_code as "contBizCode", c.contract_no as "contractNo", i.period,
               to_char(i.due_date, 'YYYY-MM-DD') as "dueDate", d.overdue_days as "overdueDays",
               d.principal_overdue::text as "principalOverdue", d.interest_overdue::text as "interestOverdue",
               d.fee_overdue::text as "feeOverdue", d.penalty_of_day::text as "penaltyOfDay",
               d.penalty_accrued::text as "penaltyAccrued", d.penalty_owed::text as "penaltyOwed"
          from day_end_items d join contract_plan_items i on i.id = d.plan_item_id
          join contracts c on c.id = d.contract_id
         where d.business_date = ${date}::date order by i.due_date, c.biz_code, i.period`,
  );
}

/**
 * Each item's figures as of `asOf` (itemAsOf over its dated write-off lines), for items of any
 * contracts. The lines are read per contract: itemAsOf tells an item's payments by period.
 */
async function itemsAsOf(
  ex: Executor,
  itemIds: readonly number[],
  asOf: string,
): Promise<Map<number, ItemAsOf>> {
  const out = new Map<number, ItemAsOf>();
  if (itemIds.length === 0) return out;
  const items = await ex
    .select()
    .from(contractPlanItems)
    .where(inArray(contractPlanItems.id, [...itemIds]));
  const contractIds = [...new Set(items.map((i) => i.contractId))];
  const rules = new Map(
    (
      await ex
        .select({ id: contracts.id, rule: contracts.ruleSnapshot })
        .from(contracts)
        .where(inArray(contracts.id, contractIds))
    ).map((c) => [c.id, c.rule]),
  );
  for (const contractId of contractIds) {
    const snapshot = rules.get(contractId);
    if (!snapshot) continue;
    const rule = interestRuleCalc.parse(snapshot);
    const mine = items.filter((i) => i.contractId === contractId);
    const payments = await paymentsOf(ex, mine);
    for (const it of mine) out.set(it.id, itemAsOf(it, payments, asOf, rule));
  }
  return out;
}

/**
 * The items of my overdue reminders whose principal, interest and fee are paid but which are
 * still 逾期 on `asOf` by itemAsOf: principal paid after the due date, its penalty still owed
 * (docs/money-rules.md "Figures as of a date").
 */
async function penaltyOnlyOverdue(ex: Executor, userId: number, asOf: string): Promise<number[]> {
  const mine = sql`(select distinct r.contract_id as id from reminders r join contracts c on c.id = r.contract_id
    where r.user_id = ${userId} and r.kind = 'overdue' and c.deleted_at is null
      and c.status = 'effective' and c.loan_state = 'loaned')`;
  const rows = await queryRows<{ id: number }>(
    ex,
    sql`select distinct i.id::int as id from reminders r join contract_plan_items i on i.id = r.plan_item_id
         where r.user_id = ${userId} and r.kind = 'overdue' and i.superseded_by is null
           and i.principal_paid = i.principal and i.interest_paid = i.interest and i.fee_paid = i.fee
           and i.id in (select id from ${itemsReadFromLines(mine, asOf)} as late)`,
  );
  const figures = await itemsAsOf(
    ex,
    rows.map((r) => r.id),
    asOf,
  );
  return [...figures].filter(([, f]) => f.status === '逾期').map(([id]) => id);
}

/**
 * My reminders whose item still owes something on the business date `asOf`, soonest due first:
 * principal, interest or fee, or (an overdue reminder) only the penalty of an item paid late.
 * Each shows the penalty owed on `asOf` beside the open principal, interest and fee.
 */
export async function myReminders(
  ex: Executor,
  userId: number,
  q: z.output<typeof reminderListSchema>,
  asOf: string,
): Promise<Page<ReminderItem>> {
  const penaltyOnly = await penaltyOnlyOverdue(ex, userId, asOf);
  const owes = sql`(i.principal_paid < i.principal or i.interest_paid < i.interest or i.fee_paid < i.fee)`;
  const cond = sql`r.user_id = ${userId} and i.superseded_by is null and c.deleted_at is null
    and (${owes}${
      penaltyOnly.length
        ? sql` or (r.kind = 'overdue' and i.id in (${sql.join(
            penaltyOnly.map((id) => sql`${id}`),
            sql`, `,
          )}))`
        : sql``
    })`;
  const from = sql`from reminders r join contract_plan_items i on i.id = r.plan_item_id
    join contracts c on c.id = r.contract_id where ${cond}`;
  const rows = await queryRows<Omit<ReminderItem, 'penaltyAmount'> & { itemId: number }>(
    ex,
    sql`select r.id::int as id, r.kind, c.biz_code as "contBizCode", c.contract_no as "contractNo",
               c.cust_name as "custName", i.period, to_char(i.due_date, 'YYYY-MM-DD') as "dueDate",
               (i.principal + i.interest + i.fee - i.principal_paid - i.interest_paid - i.fee_paid)::text as "openAmount",
               to_char(r.business_date, 'YYYY-MM-DD') as "businessDate", i.id::int as "itemId"
          ${from} order by i.due_date ${q.order === 'desc' ? sql`desc` : sql`asc`}, r.id
          limit ${q.pageSize} offset ${offsetOf(q)}`,
  );
  const figures = await itemsAsOf(ex, [...new Set(rows.map((r) => r.itemId))], asOf);
  const list = rows.map(({ itemId, ...r }): ReminderItem => {
    const penalty = figures.get(itemId)?.penaltyOwed ?? '0';
    return { ...r, openAmount: money(r.openAmount), penaltyAmount: money(penalty), asOf };
  });
  return page(list, await countOf(ex, from), q);
}

/**
 * Keeps this server's clock on the stored business date: read now, again on every notice of a
 * change (any server), and every minute in case notices were missed.
 */
export async function followStoredDate(db: Db, clock: BusinessClock): Promise<void> {
  clock.setStored(await storedDate(db));
}
