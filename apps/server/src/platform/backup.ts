import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  openSync,
  readSync,
  closeSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Config } from './config';
import { acquireDirLock } from './db/lock';
import { checkPgliteDir, StartupError } from './startup';

/**
 * Backup and restore of the database (docs/operations.md "Backup and restore"). The embedded
 * database is dumped with PGlite's own dump (a tar.gz of its data directory, taken with the data
 * directory locked, so never while a server runs on it); PostgreSQL with pg_dump/pg_restore in
 * the custom format. A restore goes into an empty target only: nothing is overwritten or deleted.
 * Failures are StartupErrors: one line for the operator.
 */

const pgliteDir = (config: Config) => join(config.dataDir, 'pg');

/** 'pglite' (gzip, PGlite's dump) or 'postgres' (pg_dump custom format, starts with PGDMP). */
export function kindOf(file: string): 'pglite' | 'postgres' | 'unknown' {
  const fd = openSync(file, 'r');
  const head = Buffer.alloc(5);
  readSync(fd, head, 0, 5, 0);
  closeSync(fd);
  if (head[0] === 0x1f && head[1] === 0x8b) return 'pglite';
  if (head.toString('latin1') === 'PGDMP') return 'postgres';
  return 'unknown';
}

function run(tool: string, args: string[]): Promise<void> {
  return new Promise((res, rej) => {
    const child = spawn(tool, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', (e: NodeJS.ErrnoException) =>
      rej(
        e.code === 'ENOENT'
          ? new StartupError(
              `${tool} is not installed; install the PostgreSQL client tools of your server's version or newer (apt-get install postgresql-client).`,
            )
          : e,
      ),
    );
    child.on('exit', (code) =>
      code === 0
        ? res()
        : rej(
            new StartupError(`${tool} failed (exit ${code}): ${err.trim().split('\n').slice(-3).join(' ')}`),
          ),
    );
  });
}

function withLock<T>(config: Config, fn: () => Promise<T>): Promise<T> {
  mkdirSync(config.dataDir, { recursive: true });
  let lock;
  try {
    lock = acquireDirLock(join(config.dataDir, 'portal.lock'));
  } catch (err) {
    throw new StartupError(
      `${(err as Error).message} Stop the server before a backup or restore of the embedded database.`,
    );
  }
  return fn().finally(() => lock.release());
}

export async function backup(config: Config, target: string): Promise<string> {
  const file = resolve(target);
  if (existsSync(file))
    throw new StartupError(`${file} exists already; choose a new file name (nothing was overwritten).`);
  mkdirSync(dirname(file), { recursive: true });
  if (config.databaseUrl) {
    const tmp = `${file}.partial`;
    await run('pg_dump', [
      '--format=custom',
      '--no-owner',
      `--file=${tmp}`,
      `--dbname=${config.databaseUrl}`,
    ]);
    renameSync(tmp, file);
    return `PostgreSQL database written to ${file}`;
  }
  const dir = pgliteDir(config);
  if (!existsSync(join(dir, 'PG_VERSION')))
    throw new StartupError(`DATA_DIR: no embedded database in ${dir}; nothing to back up.`);
  checkPgliteDir(dir);
  return withLock(config, async () => {
    const db = await PGlite.create(dir);
    try {
      const dump = await db.dumpDataDir('gzip');
      const tmp = `${file}.partial`;
      writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()), { mode: 0o600 });
      renameSync(tmp, file);
    } finally {
      await db.close();
    }
    return `embedded database ${dir} written to ${file}`;
  });
}

export async function restore(config: Config, source: string): Promise<string> {
  const file = resolve(source);
  if (!existsSync(file)) throw new StartupError(`${file} does not exist.`);
  const kind = kindOf(file);
  if (kind === 'unknown') throw new StartupError(`${file} is not a backup made by npm run backup.`);
  if (config.databaseUrl) {
    if (kind !== 'postgres')
      throw new StartupError(
        `${file} is a backup of the embedded database; unset DATABASE_URL to restore it into DATA_DIR.`,
      );
    const client = new pg.Client({ connectionString: config.databaseUrl });
    await client.connect();
    try {
      const r = await client.query<{ n: number }>(
        `select count(*)::int as n from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema')`,
      );
      if ((r.rows[0]?.n ?? 0) > 0)
        throw new StartupError(
          'DATABASE_URL: the database already has tables and was left untouched; restore into a new empty database (createdb) and point DATABASE_URL at it.',
        );
    } finally {
      await client.end();
    }
    await run('pg_restore', [
      '--no-owner',
      '--exit-on-error',
      '--single-transaction',
      `--dbname=${config.databaseUrl}`,
      file,
    ]);
    return `${file} restored into the PostgreSQL database`;
  }
  if (kind !== 'pglite')
    throw new StartupError(
      `${file} is a PostgreSQL backup; set DATABASE_URL to an empty database to restore it.`,
    );
  const dir = pgliteDir(config);
  checkPgliteDir(dir);
  if (existsSync(join(dir, 'PG_VERSION')))
    throw new StartupError(
      `DATA_DIR: ${dir} already holds a database and was left untouched; restore into a new DATA_DIR (or move this one away first).`,
    );
  return withLock(config, async () => {
    mkdirSync(dir, { recursive: true });
    const db = await PGlite.create(dir, { loadDataDir: new Blob([readFileSync(file)]) });
    try {
      await db.query('select count(*) from schema_migrations');
    } finally {
      await db.close();
    }
    return `${file} restored into ${dir}`;
  });
}
