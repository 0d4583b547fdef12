import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { sql, type ExtractTablesWithRelations, type SQL } from 'drizzle-orm';
import pg from 'pg';
import { boundHeapGrowth } from './heap';
import { acquireDirLock, type DirLock } from './lock';
import { CHANGE_CHANNEL, listenOnConnect, Notices, type ChangeFeed } from './change-feed';

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
  /** Runs fn in one transaction on a raw connection (migrations, bulk loads). */
  rawTransaction<T>(fn: (conn: RawConn) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface OpenOptions {
  databaseUrl?: string | undefined;
  /** PGlite data directory; undefined = in memory (tests). */
  pgliteDir?: string | undefined;
  /** Directory to lock against a second process (DESIGN.md: two processes corrupt PGlite). */
  lockDir?: string | undefined;
  /** PostgreSQL search_path (tests run each file in its own schema). */
  schema?: string | undefined;
  poolSize?: number;
}

/**
 * PGlite's buffer pool lives in its WebAssembly heap, which only grows: the default 128 MB pool
 * alone keeps a served database near 300 MB at start and 700 MB under load. Its files are read
 * through the operating system's page cache, so a small pool costs little (bench/README.md).
 */
const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.databaseUrl) {
    const notices = new Notices();
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: opts.poolSize ?? 20,
      onConnect: listenOnConnect(notices),
      ...(opts.schema ? { options: `-c search_path=${opts.schema}` } : {}),
    });
    // An idle client's error (server restart) must not crash the process; the pool replaces it.
    pool.on('error', () => undefined);
    await pool.query('select 1');
    return {
      kind: 'postgres',
      db: drizzlePg(pool) as unknown as Db,
      changes: notices,
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
      // A served embedded database (in-memory ones are tests): this process is the whole footprint.
      boundHeapGrowth();
    }
    const client = await PGlite.create(opts.pgliteDir, { startParams: PGLITE_START_PARAMS });
    const notices = new Notices();
    await client.listen(CHANGE_CHANNEL, (payload) => notices.notice(payload));
    notices.started();
    return {
      kind: 'pglite',
      db: drizzlePglite(client) as unknown as Db,
      changes: notices,
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

/** Raw SQL rows on either driver (both answer `{ rows }`; drizzle's shared type cannot say so). */
export async function queryRows<T>(ex: Executor, query: SQL): Promise<T[]> {
  const res = (await ex.execute(query)) as unknown as { rows: T[] };
  return res.rows;
}

/** One statement outside any transaction (VACUUM cannot run inside one): bulk loads, benchmarks. */
export async function execOutsideTransaction(database: Database, statement: string): Promise<void> {
  await database.db.execute(sql.raw(statement));
}
