import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { getTableColumns, sql, type ExtractTablesWithRelations, type SQL, type Table } from 'drizzle-orm';
import pg from 'pg';
import { acquireDirLock, type DirLock } from './lock';
import { CHANGE_CHANNEL, listenOnConnect, Notices, type ChangeFeed } from './change-feed';
import { InFlightQueries } from './in-flight';
import { StatementNames, withName } from './named-statements';

/** Both drivers behind one type: queries are written once against PgDatabase. */
export type Db = PgDatabase<
  PgQueryResultHKT,
  Record<string, never>,
  ExtractTablesWithRelations<Record<string, never>>
>;
export type Tx = PgTransaction<
  PgQueryResultHKT,
  Record<string, never>,
  ExtractTablesWithRelations<Record<string, never>>
>;
/** Anything a query can run on: the database or a transaction. */
export type Executor = Db | Tx;

/** A driver connection inside one transaction, below drizzle: multi-statement scripts and plain queries. */
export interface RawConn {
  exec(script: string): Promise<void>;
  query<R>(text: string, params?: unknown[]): Promise<R[]>;
}

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  /** Committed changes that triggers announce (NOTIFY portal_change, '<topic>'). */
  changes: ChangeFeed;
  /** Statements running now (the slow-request watchdog logs them). */
  inFlight: InFlightQueries;
  /** The connection pool now (docs/operations.md "Monitoring"); PGlite is one connection. */
  pool(): PoolStats;
  /** Runs fn in one transaction on a raw connection (migrations, bulk loads). */
  rawTransaction<T>(fn: (conn: RawConn) => Promise<T>): Promise<T>;
  /**
   * The embedded database only: its data directory as a gzipped tar, taken while it runs (the
   * scheduled backup, modules/jobs); the same format `npm run backup` writes and restore reads.
   */
  dumpDataDir?: () => Promise<Blob>;
  close(): Promise<void>;
}

export interface PoolStats {
  max: number;
  inUse: number;
  idle: number;
  waiting: number;
}

export interface OpenOptions {
  databaseUrl?: string | undefined;
  /** PGlite data directory; undefined = in memory (tests). */
  pgliteDir?: string | undefined;
  /**
   * Directory to lock against a second process (two processes corrupt PGlite; docs/operations.md "Several
   * servers").
   */
  lockDir?: string | undefined;
  /** PGlite in memory: start from this dumped data directory instead of an empty one (tests' migrated template). */
  loadDataDir?: Blob | undefined;
  /** PostgreSQL search_path. */
  schema?: string | undefined;
  poolSize?: number;
}

/**
 * PGlite's buffer pool lives in its WebAssembly heap, which only grows: the default 128 MB pool
 * alone keeps a served database near 300 MB at start and 700 MB under load. Its files are read
 * through the operating system's page cache, so a small pool costs little (bench/README.md).
 */
const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

/**
 * An embedded database whose files PGlite cannot read: it aborts (a WebAssembly "Aborted()") on a
 * damaged or foreign data directory. Named, so that start-up tells the operator what to do
 * (platform/startup.ts, docs/operations.md "When the server does not start").
 */
export class DamagedDatabaseError extends Error {}

async function openPglite(dir: string | undefined, loadDataDir?: Blob): Promise<PGlite> {
  try {
    return await PGlite.create(dir, {
      startParams: PGLITE_START_PARAMS,
      ...(loadDataDir ? { loadDataDir } : {}),
    });
  } catch (err) {
    if (!dir) throw err;
    const why = err instanceof Error ? err.message : String(err);
    throw new DamagedDatabaseError(`the embedded database in ${dir} cannot be opened (${why})`, {
      cause: err,
    });
  }
}

/** PostgreSQL's refusal of a new connection: no slot left on the server, the database or the role. */
const TOO_MANY_CONNECTIONS = '53300';

/** pg-pool's callback form of a checkout (its own `query` uses it). */
type ConnectCallback = (
  err: Error | undefined,
  client: pg.PoolClient | undefined,
  done: (release?: unknown) => void,
) => void;

/**
 * A pool whose checkout waits, instead of failing, when PostgreSQL has no connection slot left
 * (53300 "sorry, too many clients already") while the pool holds connections of its own: the
 * server's room is then the pool's real size, and a caller queues for one of the pool's
 * connections as it would at the pool's own maximum, until one is released (or, at the latest,
 * a moment later, when it asks for a new one again). Without it, a burst that outgrew the server's
 * free slots answered 500 on requests that had not started (docs/operations.md "Connection
 * slots"). A pool without any connection still fails at once: there is nothing to wait for.
 */
class SlotWaitingPool extends pg.Pool {
  // Both of pg-pool's forms: the promise (drizzle's transactions) and the callback (pool.query).
  override connect(): Promise<pg.PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<pg.PoolClient> | void {
    if (!callback) return this.checkout();
    this.checkout().then(
      (client) => callback(undefined, client, () => client.release()),
      (err: Error) => callback(err, undefined, () => undefined),
    );
  }

  private async checkout(): Promise<pg.PoolClient> {
    for (;;) {
      try {
        return await super.connect();
      } catch (err) {
        if ((err as { code?: unknown }).code !== TOO_MANY_CONNECTIONS || this.totalCount === 0 || this.ending)
          throw err;
        await this.released();
      }
    }
  }

  /** Until one of the pool's connections is released, or SLOT_RECHECK_MS at most. */
  private released(): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.off('release', done);
        resolve();
      };
      const timer = setTimeout(done, SLOT_RECHECK_MS);
      this.once('release', done);
    });
  }
}

/** How long a checkout refused for want of a server slot waits at most before asking again. */
const SLOT_RECHECK_MS = 50;

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.databaseUrl) {
    const notices = new Notices();
    const inFlight = new InFlightQueries();
    const names = new StatementNames();
    const listen = listenOnConnect(notices);
    const pool = new SlotWaitingPool({
      connectionString: opts.databaseUrl,
      max: opts.poolSize ?? 20,
      onConnect: async (client) => {
        trackClient(client, inFlight, names);
        await listen(client);
      },
      ...(opts.schema ? { options: `-c search_path=${opts.schema}` } : {}),
    });
    // An idle client's error (server restart) must not crash the process; the pool replaces it.
    pool.on('error', () => undefined);
    await pool.query('select 1');
    const max = opts.poolSize ?? 20;
    return {
      kind: 'postgres',
      db: drizzlePg(pool) as unknown as Db,
      changes: notices,
      inFlight,
      pool: () => ({
        max,
        inUse: pool.totalCount - pool.idleCount,
        idle: pool.idleCount,
        waiting: pool.waitingCount,
      }),
      rawTransaction: async (fn) => {
        const client = await pool.connect();
        try {
          await client.query('begin');
          const result = await fn({
            exec: async (script) => void (await client.query(script)),
            query: async <R>(text: string, params?: unknown[]) =>
              (await client.query(text, params)).rows as R[],
          });
          await client.query('commit');
          return result;
        } catch (err) {
          await client.query('rollback').catch(() => undefined);
          throw err;
        } finally {
          client.release();
        }
      },
      close: () => pool.end(),
    };
  }
  let lock: DirLock | undefined;
  if (opts.lockDir) {
    mkdirSync(opts.lockDir, { recursive: true });
    lock = acquireDirLock(join(opts.lockDir, 'portal.lock'));
  }
  try {
    if (opts.pgliteDir) {
      mkdirSync(opts.pgliteDir, { recursive: true });
    }
    const client = await openPglite(opts.pgliteDir, opts.loadDataDir);
    const inFlight = new InFlightQueries();
    guardSingleConnection(client, inFlight);
    const notices = new Notices();
    await client.listen(CHANGE_CHANNEL, (payload) => notices.notice(payload));
    notices.started();
    return {
      kind: 'pglite',
      db: drizzlePglite(client) as unknown as Db,
      changes: notices,
      inFlight,
      dumpDataDir: () => client.dumpDataDir('gzip'),
      // One connection: in use while a statement runs (the others queue inside PGlite, uncounted).
      pool: () => {
        const busy = inFlight.count() > 0 ? 1 : 0;
        return { max: 1, inUse: busy, idle: 1 - busy, waiting: 0 };
      },
      rawTransaction: (fn) =>
        client.transaction((tx) =>
          fn({
            exec: async (script) => void (await tx.exec(script)),
            query: async <R>(text: string, params?: unknown[]) => (await tx.query<R>(text, params)).rows,
          }),
        ),
      close: async () => {
        await client.close();
        lock?.release();
      },
    };
  } catch (err) {
    lock?.release();
    throw err;
  }
}

/** Set while a transaction of this async context is open on PGlite's one connection. */
const openTransaction = new AsyncLocalStorage<{ open: boolean }>();

/**
 * PGlite is one connection: a query on the database waits until any open transaction ends. A
 * query on the database (instead of on the transaction's own `tx`) awaited from inside a
 * transaction would therefore wait forever, and every other call of the server behind it: such a
 * query fails at once instead, naming itself (docs/architecture.md, "One connection"). Every
 * statement is also listed in `inFlight` while it runs.
 */
function guardSingleConnection(client: PGlite, inFlight: InFlightQueries): void {
  const query = client.query.bind(client);
  const exec = client.exec.bind(client);
  const transaction = client.transaction.bind(client);
  const refuse = (what: string): never => {
    throw new Error(
      `${what} on the database inside a transaction would wait forever: use the transaction's tx`,
    );
  };
  const inside = () => openTransaction.getStore()?.open === true;
  /** A statement method that refuses inside a transaction and is listed while it runs. */
  const guarded =
    (what: string, run: (...a: unknown[]) => Promise<unknown>) =>
    (text: string, ...rest: unknown[]) =>
      inside() ? refuse(`${what} "${text.slice(0, 200)}"`) : inFlight.track(text, () => run(text, ...rest));
  client.query = guarded('query', query as (...a: unknown[]) => Promise<unknown>) as PGlite['query'];
  client.exec = guarded('script', exec as (...a: unknown[]) => Promise<unknown>) as PGlite['exec'];
  client.transaction = (<T>(fn: (tx: Transaction) => Promise<T>) => {
    if (inside()) return refuse('a transaction');
    const state = { open: true };
    return inFlight.track('transaction', () =>
      transaction((tx) =>
        openTransaction
          .run(state, () => fn(trackTransaction(tx, inFlight)))
          .finally(() => {
            state.open = false;
          }),
      ),
    );
  }) as PGlite['transaction'];
}

function trackTransaction(tx: Transaction, inFlight: InFlightQueries): Transaction {
  const query = tx.query.bind(tx);
  const exec = tx.exec.bind(tx);
  return Object.assign(tx, {
    query: ((text: string, ...rest: unknown[]) =>
      inFlight.track(text, () =>
        (query as (...a: unknown[]) => Promise<unknown>)(text, ...rest),
      )) as Transaction['query'],
    exec: ((text: string, ...rest: unknown[]) =>
      inFlight.track(text, () =>
        (exec as (...a: unknown[]) => Promise<unknown>)(text, ...rest),
      )) as Transaction['exec'],
  });
}

/**
 * Lists a pooled PostgreSQL connection's statements in `inFlight` while they run, and sends the
 * repeated ones as prepared statements (named-statements.ts).
 */
function trackClient(client: pg.ClientBase, inFlight: InFlightQueries, names: StatementNames): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (...args: unknown[]) => {
    args[0] = withName(names, args[0], typeof args[1] === 'function' ? undefined : args[1]);
    const q = args[0];
    const end = inFlight.begin(
      (typeof q === 'string' ? q : (q as { text?: string } | undefined)?.text) ?? '(query)',
    );
    // pg-pool's own query passes a callback; drizzle's transactions use the promise.
    const last = args[args.length - 1];
    if (typeof last === 'function') {
      args[args.length - 1] = (...cbArgs: unknown[]) => {
        end();
        return (last as (...a: unknown[]) => unknown)(...cbArgs);
      };
      return query(...args);
    }
    const result = query(...args);
    if (result instanceof Promise) return result.finally(end);
    end();
    return result;
  };
}

/**
 * PostgreSQL's wire protocol counts a statement's parameters in 16 bits: a multi-row insert of more
 * than 65,535 values fails ("bind message has … parameter formats but 0 parameters") on either
 * driver. An insert whose row count grows with the portfolio (a day-end's overdue marks) goes in
 * slices of `rows` that fit. The values a row are counted from the table itself, every column of
 * it (drizzle binds a value or writes `default` for each), so a column added to the table later
 * shrinks the slices with it: a count written by hand once fell one short and the day-end failed
 * at 6,554 overdue items.
 */
export function insertSlices<T>(table: Table, rows: readonly T[]): T[][] {
  const columns = Object.keys(getTableColumns(table)).length;
  return slicesOf(rows, Math.max(1, Math.floor(MAX_STATEMENT_PARAMETERS / columns)));
}

/** Rows in slices of `size` (the last one shorter), each for one statement. */
export function slicesOf<T>(rows: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}
const MAX_STATEMENT_PARAMETERS = 65_535;

/** Raw SQL rows on either driver (both answer `{ rows }`; drizzle's shared type cannot say so). */
export async function queryRows<T>(ex: Executor, query: SQL): Promise<T[]> {
  const res = (await ex.execute(query)) as unknown as { rows: T[] };
  return res.rows;
}

/** One statement outside any transaction (VACUUM cannot run inside one): bulk loads, benchmarks. */
export async function execOutsideTransaction(database: Database, statement: string): Promise<void> {
  await database.db.execute(sql.raw(statement));
}
