import { sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { PgliteDatabase } from 'drizzle-orm/pglite';
import type { RunPhase, RunProgress } from '@portal/contract/jobs';
import type { Db } from './db/client';

/**
 * Progress of a long run (the day-end, the month-end accrual) while its one transaction is open
 * (docs/business-date.md "Progress"). Nothing the run writes is seen before it commits, so its
 * progress is written beside it into the run's own row, on another connection of the pool, and
 * committed at once: every server on the database reads it. Written at a phase's start, then at
 * most every `everyMs` as contracts are done, and every HEARTBEAT_MS while a long statement runs
 * (the row's `progress_at`): a row still 运行中 whose `progress_at` is older than STALE_AFTER
 * belongs to a server that stopped mid-run (staleRun).
 *
 * PGlite is one connection, held by the run's transaction: nothing can be written beside it, and
 * no other request reads the database until it ends. There the progress lives in the process
 * (progressBoard; one process owns an embedded database) and `dayEnd/progress` answers from it;
 * the rows a stopped server left 运行中 are closed when it starts again (closeInterrupted).
 */

/** How often the running server writes its row while a statement runs (the heartbeat). */
const HEARTBEAT_MS = 10_000;
/** A 运行中 row whose server has not written it for this long is taken for a stopped server's. */
const STALE_AFTER = sql`interval '1 minute'`;
/** The error a run a stopped server left shows. */
export const INTERRUPTED = '运行中断：服务器在运行中停止，本次运行未生效（已整体回滚）';

/**
 * A module's table of runs, whose rows carry `progress` and `progress_at`
 * (migrations/0063_run_progress_messages.sql), and the column that reads 'running' while one runs.
 * The module names it; the platform names no module's table.
 */
export interface RunRows {
  table: PgTable;
  state: PgColumn;
}
const stateOf = (rows: RunRows) => sql.identifier(rows.state.name);

/** Whether this database is the embedded one (one connection: progress kept in the process). */
export const isEmbedded = (db: Db): boolean => db instanceof PgliteDatabase;

/** The runs going on in this process, by table and id (what PGlite's screens are answered from). */
class ProgressBoard {
  private readonly runs = new Map<RunRows, Map<number, { view: object; progress: RunProgress }>>();
  private of(table: RunRows) {
    let m = this.runs.get(table);
    if (!m) this.runs.set(table, (m = new Map()));
    return m;
  }
  /** A run begins (its row as the screens show it), its progress moves on, or it ends (null). */
  set(table: RunRows, id: number, p: RunProgress | null, view?: object): void {
    const m = this.of(table);
    if (!p) m.delete(id);
    else m.set(id, { view: view ?? m.get(id)?.view ?? {}, progress: p });
  }
  /** The newest run of the table going on here, its row with its progress; null when none. */
  latest<T extends object>(table: RunRows): (T & { progress: RunProgress }) | null {
    const ids = [...this.of(table).keys()];
    if (ids.length === 0) return null;
    const e = this.of(table).get(Math.max(...ids))!;
    // The view is the row set by the run's own module (Progress's `view`), of that module's type.
    return { ...(e.view as T), progress: e.progress };
  }
}
const boards = new WeakMap<Db, ProgressBoard>();
/** The board of one database (so two portals of one process, in tests, share nothing). */
export function progressBoard(db: Db): ProgressBoard {
  let b = boards.get(db);
  if (!b) boards.set(db, (b = new ProgressBoard()));
  return b;
}

export interface ProgressOptions {
  /** Milliseconds between two writes while contracts are done (0: every step; tests). */
  everyMs?: number;
  /** Awaited after each write, with what was written (tests: a barrier mid-run). */
  onWrite?: (p: RunProgress) => Promise<void>;
}

/** Whether the row `r.` of a run still 运行中 was left by a stopped server (read-side rule). */
export const staleRun = (alias = sql`r`) =>
  sql`(${alias}.progress_at is not null and ${alias}.progress_at < now() - ${STALE_AFTER})`;

/** One run's progress reporter: phase, steps, and the heartbeat until end(). */
export class Progress {
  /** Null until the run names its first phase (a job that names none shows none). */
  private state: RunProgress | null = null;
  private last = 0;
  private writing: Promise<void> = Promise.resolve();
  private readonly timer: NodeJS.Timeout | undefined;
  private readonly persist: boolean;

  constructor(
    private readonly db: Db,
    private readonly table: RunRows,
    private readonly id: number,
    private readonly opts: ProgressOptions = {},
    view?: object,
  ) {
    this.persist = !isEmbedded(db);
    progressBoard(db).set(table, id, { phase: 'waiting', done: 0, total: 0, rows: 0, date: null }, view);
    if (this.persist) {
      // progress_at from the start: the row's server is known alive (or not) from now on.
      void this.write();
      this.timer = setInterval(() => void this.write().catch(() => undefined), HEARTBEAT_MS);
      this.timer.unref();
    }
  }

  /** A phase begins (written at once): `total` contracts to do, 0 for a phase of one statement. */
  async phase(phase: RunPhase, total = 0, date: string | null = this.state?.date ?? null): Promise<void> {
    this.state = { phase, done: 0, total, rows: this.state?.rows ?? 0, date };
    await this.flush();
  }

  /** `contracts` more done and `rows` more written; written when `everyMs` has passed. */
  async step(contracts: number, rows = 0): Promise<void> {
    if (!this.state) return;
    this.state = { ...this.state, done: this.state.done + contracts, rows: this.state.rows + rows };
    if (Date.now() - this.last >= (this.opts.everyMs ?? 1000)) await this.flush();
  }

  /** Another run's progress shown as this one's (the job 日终 shows its day-end's), throttled. */
  async show(p: RunProgress): Promise<void> {
    this.state = p;
    if (Date.now() - this.last >= (this.opts.everyMs ?? 1000)) await this.flush();
  }

  /** Rows written outside a counted phase (a statement's whole insert). */
  async wrote(rows: number): Promise<void> {
    await this.step(0, rows);
  }

  current(): RunProgress | null {
    return this.state;
  }

  private async flush(): Promise<void> {
    this.last = Date.now();
    await this.write();
    if (this.state) await this.opts.onWrite?.(this.state);
  }

  /** Writes the row on a connection of its own (its own statement, committed at once). */
  private write(): Promise<void> {
    const p = this.state;
    if (p) progressBoard(this.db).set(this.table, this.id, p);
    if (!this.persist) return Promise.resolve();
    // One write at a time, in order; the run's final update waits for none (end() is after it).
    this.writing = this.writing
      .catch(() => undefined)
      .then(async () => {
        await this.db.execute(
          sql`update ${this.table.table} set progress = ${p ? JSON.stringify(p) : null}::jsonb, progress_at = now()
               where id = ${this.id} and ${stateOf(this.table)} = 'running'`,
        );
      });
    return this.writing;
  }

  /** The run has committed or rolled back: no more writes; the row's final state is the run's. */
  async end(): Promise<void> {
    clearInterval(this.timer);
    progressBoard(this.db).set(this.table, this.id, null);
    await this.writing.catch(() => undefined);
  }
}

/**
 * PGlite at start: a row still 运行中 was left by this process's previous life (one process owns
 * an embedded database), its transaction gone with it; it is closed as failed.
 */
export async function closeInterrupted(db: Db, rows: RunRows): Promise<void> {
  if (!isEmbedded(db)) return;
  await db.execute(
    sql`update ${rows.table} set ${stateOf(rows)} = 'failed', ended_at = now(), error = ${INTERRUPTED}
         where ${stateOf(rows)} = 'running'`,
  );
}
