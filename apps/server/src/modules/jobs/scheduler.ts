import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { Cron } from 'croner';
import type { Page } from '@portal/contract/api';
import {
  CRON_LABEL,
  JOB_LABELS,
  JOB_RESULT_LABELS,
  JOB_TIME_ZONE,
  JOB_TRIGGER_LABELS,
  type JobCode,
  type JobResult,
  type JobRunView,
  type JobTrigger,
  type JobView,
  type JobRunsQuery,
  type RunProgress,
} from '@portal/contract/jobs';
import { queryRows, type Executor, type Tx } from '../../platform/db/client';
import { toIsoTimestamp } from '../../platform/db/columns';
import type { Actor } from '../../platform/db/audit';
import { runCommand } from '../../platform/db/command';
import { badInput, conflict } from '../../platform/errors';
import { countOf, offsetOf, page } from '../../platform/http/list';
import { addJobFailedMessages } from '../messages';
import { activeAdminIds } from '../permission';
import type { JobContext, JobDef } from './catalogue';
import { jobMetrics } from './metrics';
import { INTERRUPTED, Progress, staleRun, type ProgressOptions } from '../../platform/progress';
import { JOB_RUN_ROWS } from './schema';

/**
 * The scheduler (docs/operations.md "Scheduled jobs"). Every server ticks; a tick claims, in one
 * transaction, the jobs whose next time has come, locking their rows (`for update skip locked`: a
 * row another server holds is skipped), moving next_at to the schedule's next time after now and
 * writing the run row. So with several servers on one database each scheduled time runs once, on
 * whichever server claimed it. A time missed while every server was down runs once when one comes
 * back (not once per missed time); the day-end job then catches up each missed day itself.
 */

/**
 * A run still 运行中 whose server has gone quiet is taken for a server that stopped mid-run: it
 * no longer blocks, and reads as failed. Its server writes the row every few seconds while it runs
 * (progress_at, platform/progress.ts); a row without (the embedded database, whose rows a stopped
 * server left are closed when it starts again; or a row from before migration 0063) after 6 hours.
 */
const STALE = sql`(case when r.progress_at is null then r.started_at < now() - interval '6 hours'
  else ${staleRun()} end)`;
/** The shortest wait between two looks (a due row another server holds is being claimed). */
const MIN_WAIT_MS = 20;

/** The next time of a cron expression after `after`, or the Chinese message naming the field. */
export function nextTime(expr: string, after: Date): Date | null {
  return new Cron(expr, { timezone: JOB_TIME_ZONE }).nextRun(after);
}

/** Null when the expression is a schedule that runs; otherwise why not, naming the field. */
export function cronProblem(expr: string): string | null {
  let next: Date | null;
  try {
    next = nextTime(expr, new Date());
  } catch {
    return `${CRON_LABEL}格式不正确（5段：分 时 日 月 周，如 0 2 * * * 为每天2点；可加第1段秒）`;
  }
  return next ? null : `${CRON_LABEL}没有下一次运行时间`;
}

interface RunRow {
  id: number;
  job: JobCode;
  trigger: JobTrigger;
  scheduled_for: string | Date | null;
  started_at: string | Date;
  ended_at: string | Date | null;
  duration_ms: number | null;
  result: JobResult;
  detail: string | null;
  error: string | null;
  server: string;
  started_by_name: string | null;
  progress: RunProgress | null;
}

const iso = (v: string | Date) => new Date(toIsoTimestamp(v)).toISOString();

function runView(r: RunRow): JobRunView {
  return {
    id: Number(r.id),
    job: r.job,
    jobLabel: JOB_LABELS[r.job] ?? r.job,
    trigger: r.trigger,
    triggerLabel: JOB_TRIGGER_LABELS[r.trigger],
    scheduledFor: r.scheduled_for === null ? null : iso(r.scheduled_for),
    startedAt: iso(r.started_at),
    endedAt: r.ended_at === null ? null : iso(r.ended_at),
    durationMs: r.duration_ms === null ? null : Math.round(Number(r.duration_ms)),
    result: r.result,
    resultLabel: JOB_RESULT_LABELS[r.result],
    detail: r.detail,
    error: r.error,
    server: r.server,
    startedByName: r.started_by_name,
    progress: r.result === 'running' ? r.progress : null,
  };
}

/** A run a stopped server left 运行中 (STALE) reads as failed, ended when its server last wrote it. */
const STALE_RUN = sql`(r.result = 'running' and ${STALE})`;
const RUN_COLUMNS = sql`r.id::int as id, r.job, r.trigger, r.scheduled_for, r.started_at,
  case when ${STALE_RUN} then r.progress_at else r.ended_at end as ended_at,
  (extract(epoch from (case when ${STALE_RUN} then r.progress_at else r.ended_at end - r.started_at)) * 1000)::float8
    as duration_ms,
  case when ${STALE_RUN} then 'failed' else r.result end as result, r.detail,
  case when ${STALE_RUN} then ${INTERRUPTED} else r.error end as error, r.server,
  u.real_name as started_by_name, r.progress
  from job_runs r left join users u on u.id = r.started_by`;

export class Scheduler {
  /** Which server runs a job (host and process id), shown in the history. */
  readonly server = `${hostname()}:${process.pid}`;
  private readonly defs: Map<JobCode, JobDef>;
  private timer: NodeJS.Timeout | undefined;
  private readonly active = new Set<Promise<unknown>>();
  private stopped = false;
  /** How the runs' progress is written (tests: a barrier mid-run). */
  progressOptions: ProgressOptions = {};

  constructor(
    private readonly ctx: JobContext,
    defs: readonly JobDef[],
    private readonly onError: (err: unknown, what: string) => void,
  ) {
    this.defs = new Map(defs.map((d) => [d.code, d]));
  }

  private def(code: JobCode): JobDef {
    const d = this.defs.get(code);
    if (!d) throw badInput('任务取值不正确');
    return d;
  }

  /** A row per job that has none yet, on its built-in schedule; a kept row keeps its schedule. */
  async seed(): Promise<void> {
    const now = await this.dbNow(this.ctx.db);
    for (const d of this.defs.values()) {
      const next = nextTime(d.defaultCron, now);
      await this.ctx.db.execute(
        sql`insert into jobs (code, cron, next_at) values (${d.code}, ${d.defaultCron}, ${next?.toISOString() ?? null}::timestamptz)
            on conflict (code) do nothing`,
      );
    }
  }

  /**
   * Looks for due jobs until stop(): at the next job's time, and at least every `ms` (a schedule
   * changed on another server is seen then); 0 = never (this server runs no scheduled job). Servers
   * wake at the same instant for a job's time, and the row lock decides which one runs it.
   */
  start(ms: number): void {
    if (ms <= 0) return;
    const loop = async () => {
      let wait = ms;
      try {
        // The runs go on by themselves: a long day-end does not hold the other jobs' times.
        for (const c of await this.claim())
          void this.track(this.execute(c.code, c.id)).catch(() => undefined);
        wait = await this.untilNext(ms);
      } catch (err) {
        this.onError(err, 'scheduler tick failed');
      }
      if (this.stopped) return;
      this.timer = setTimeout(() => void loop(), wait);
      this.timer.unref();
    };
    this.timer = setTimeout(() => void loop(), Math.min(ms, 1000));
    this.timer.unref();
  }

  /** Stops looking for jobs and waits for the runs this server started. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await Promise.allSettled([...this.active]);
  }

  /** Milliseconds until the next job's time (at least a little, at most `max`). */
  private async untilNext(max: number): Promise<number> {
    const [r] = await queryRows<{ ms: number | null }>(
      this.ctx.db,
      sql`select (extract(epoch from (min(next_at) - now())) * 1000)::float8 as ms from jobs where not paused`,
    );
    const ms = r?.ms === null || r?.ms === undefined ? max : Number(r.ms);
    return Math.max(MIN_WAIT_MS, Math.min(max, Math.ceil(ms)));
  }

  private async dbNow(ex: Executor): Promise<Date> {
    const [r] = await queryRows<{ ms: number }>(
      ex,
      sql`select (extract(epoch from now()) * 1000)::float8 as ms`,
    );
    return new Date(Number(r!.ms));
  }

  /** Claims the jobs whose time has come and runs them; resolves when those runs have ended (tests). */
  async tick(): Promise<JobRunView[]> {
    const claimed = await this.claim();
    return Promise.all(claimed.map((c) => this.track(this.execute(c.code, c.id))));
  }

  /** Locks the due jobs' rows, writes their run rows and moves their next times on, in one transaction. */
  private claim(): Promise<{ code: JobCode; id: number }[]> {
    return this.ctx.db.transaction(async (tx) => {
      const due = await queryRows<{ code: JobCode; cron: string }>(
        tx,
        sql`select code, cron from jobs where not paused and next_at <= now()
             order by next_at for update skip locked`,
      );
      const now = await this.dbNow(tx);
      const runs: { code: JobCode; id: number }[] = [];
      for (const j of due) {
        if (!this.defs.has(j.code)) continue;
        // A run still going (here or on another server) is not doubled: this time is passed over.
        const busy = await this.running(tx, j.code);
        if (!busy) {
          const [run] = await queryRows<{ id: number }>(
            tx,
            sql`insert into job_runs (job, trigger, scheduled_for, result, server)
                select code, 'schedule', next_at, 'running', ${this.server} from jobs where code = ${j.code}
                returning id::int as id`,
          );
          runs.push({ code: j.code, id: Number(run!.id) });
        }
        let next: Date | null = null;
        try {
          next = nextTime(j.cron, now);
        } catch (err) {
          this.onError(err, `job ${j.code}: its cron expression no longer reads`);
        }
        await tx.execute(
          sql`update jobs set next_at = ${next?.toISOString() ?? null}::timestamptz where code = ${j.code}`,
        );
      }
      return runs;
    });
  }

  private track<T>(p: Promise<T>): Promise<T> {
    this.active.add(p);
    void p.finally(() => this.active.delete(p)).catch(() => undefined);
    return p;
  }

  private async running(tx: Tx, code: JobCode): Promise<boolean> {
    const [r] = await queryRows<{ n: number }>(
      tx,
      sql`select count(*)::int as n from job_runs r
           where r.job = ${code} and r.result = 'running' and not ${STALE}`,
    );
    return (r?.n ?? 0) > 0;
  }

  /** 立即执行: refused while a run of the job is going; answers the run once it has ended. */
  async runNow(code: JobCode, actor: Actor): Promise<JobRunView> {
    const def = this.def(code);
    const cmd = { entity: 'job', action: 'run', code };
    const id = await runCommand(this.ctx.db, actor, cmd, async (tx, w) => {
      await tx.execute(sql`select code from jobs where code = ${code} for update`);
      if (await this.running(tx, code)) throw conflict(`任务「${JOB_LABELS[def.code]}」正在运行，请稍后再试`);
      const [run] = await queryRows<{ id: number }>(
        tx,
        sql`insert into job_runs (job, trigger, result, server, started_by)
            values (${code}, 'manual', 'running', ${this.server}, ${actor.userId || null})
            returning id::int as id`,
      );
      await w.audit();
      return Number(run!.id);
    });
    return this.track(this.execute(code, id));
  }

  /** Runs the job, closes its run row; a failure tells the administrators in the same transaction. */
  private async execute(code: JobCode, id: number): Promise<JobRunView> {
    const def = this.def(code);
    const t0 = performance.now();
    let result: 'ok' | 'failed' = 'ok';
    let detail: string | null = null;
    let error: string | null = null;
    const progress = new Progress(this.ctx.db, JOB_RUN_ROWS, id, this.progressOptions);
    try {
      detail = await def.run(this.ctx, progress);
    } catch (err) {
      result = 'failed';
      error = (err instanceof Error ? err.message : String(err)).slice(0, 2000);
      this.onError(err, `job ${code} failed`);
    }
    await progress.end();
    const metrics = jobMetrics();
    metrics.runs.inc({ job: code, result });
    metrics.duration.observe({ job: code }, (performance.now() - t0) / 1000);
    await this.ctx.db.transaction(async (tx) => {
      await tx.execute(
        sql`update job_runs set ended_at = now(), result = ${result}, detail = ${detail}, error = ${error}
             where id = ${id}`,
      );
      if (error !== null)
        await addJobFailedMessages(tx, {
          userIds: await activeAdminIds(tx),
          job: code,
          label: JOB_LABELS[code],
          error,
        });
    });
    return (await this.runs({ code, pageNum: 1, pageSize: 1, order: 'desc', orderBy: undefined }, id))
      .list[0]!;
  }

  /** A job's history, newest first (or one run by id). */
  async runs(q: JobRunsQuery, id?: number): Promise<Page<JobRunView>> {
    const from = sql`from job_runs r where r.job = ${q.code} ${id === undefined ? sql`` : sql`and r.id = ${id}`}`;
    const rows = await queryRows<RunRow>(
      this.ctx.db,
      sql`select ${RUN_COLUMNS} where r.job = ${q.code} ${id === undefined ? sql`` : sql`and r.id = ${id}`}
           order by r.id ${q.order === 'asc' ? sql`asc` : sql`desc`} limit ${q.pageSize} offset ${offsetOf(q)}`,
    );
    return page(rows.map(runView), await countOf(this.ctx.db, from), q);
  }

  /** Every job with its schedule, next time and last run. */
  async list(): Promise<JobView[]> {
    const rows = await queryRows<{
      code: JobCode;
      cron: string;
      paused: boolean;
      next_at: string | Date | null;
    }>(this.ctx.db, sql`select code, cron, paused, next_at from jobs`);
    const last = await queryRows<RunRow>(
      this.ctx.db,
      sql`select ${RUN_COLUMNS} where r.id in (select max(id) from job_runs group by job)`,
    );
    const lastOf = new Map(last.map((r) => [r.job, runView(r)]));
    const byCode = new Map(rows.map((r) => [r.code, r]));
    return [...this.defs.values()].flatMap((d) => {
      const r = byCode.get(d.code);
      if (!r) return [];
      return [
        {
          code: d.code,
          label: JOB_LABELS[d.code],
          description: d.description,
          cron: r.cron,
          defaultCron: d.defaultCron,
          paused: r.paused,
          nextAt: r.next_at === null ? null : iso(r.next_at),
          lastRun: lastOf.get(d.code) ?? null,
        },
      ];
    });
  }

  /** A new schedule (validated, audited); the next time follows it at once. */
  async setCron(code: JobCode, cron: string, actor: Actor): Promise<void> {
    this.def(code);
    const expr = cron.trim().replace(/\s+/g, ' ');
    const problem = cronProblem(expr);
    if (problem) throw badInput(problem);
    const cmd = { entity: 'job', action: 'update', code };
    await runCommand(this.ctx.db, actor, cmd, async (tx, w) => {
      const [before] = await queryRows<{ cron: string; paused: boolean }>(
        tx,
        sql`select cron, paused from jobs where code = ${code} for update`,
      );
      const next = before!.paused ? null : nextTime(expr, await this.dbNow(tx));
      await tx.execute(
        sql`update jobs set cron = ${expr}, next_at = ${next?.toISOString() ?? null}::timestamptz,
                   updated_at = now(), updated_by = ${actor.userId || null}
             where code = ${code}`,
      );
      await w.audit({ detail: { before: { cron: before!.cron }, after: { cron: expr } } });
    });
  }

  /** 暂停 (no next time) or 恢复 (the next time from now), audited. */
  async setPaused(code: JobCode, paused: boolean, actor: Actor): Promise<void> {
    this.def(code);
    const cmd = { entity: 'job', action: paused ? 'pause' : 'resume', code };
    await runCommand(this.ctx.db, actor, cmd, async (tx, w) => {
      const [row] = await queryRows<{ cron: string }>(
        tx,
        sql`select cron from jobs where code = ${code} for update`,
      );
      const next = paused ? null : nextTime(row!.cron, await this.dbNow(tx));
      await tx.execute(
        sql`update jobs set paused = ${paused}, next_at = ${next?.toISOString() ?? null}::timestamptz,
                   updated_at = now(), updated_by = ${actor.userId || null}
             where code = ${code}`,
      );
      await w.audit();
    });
  }
}
