import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from './client';

/** The migration files of a folder, in the order they apply. */
function migrationFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort();
}

/** The name of the last migration of a folder: a database without it is not ready (/readyz). */
export function lastMigration(dir: string): string {
  const files = migrationFiles(dir);
  const last = files[files.length - 1];
  if (!last) throw new Error(`no migrations in ${dir}`);
  return last;
}

/**
 * Applies migrations/*.sql in name order, each once and whole (one transaction per file).
 * On PostgreSQL an advisory lock serialises instances that start together.
 */
export async function migrate(database: Database, dir: string): Promise<string[]> {
  const files = migrationFiles(dir);
  // Every start but an upgrade's finds them all applied: one read says so, instead of a transaction
  // a file (≈ 60 of them, bench/README.md "Eleventh pass"). No lock is needed for it: a migration
  // once recorded stays applied, so a start that finds any missing goes the locked way below.
  if (await allApplied(database, files)) return [];
  const applied: string[] = [];
  for (const name of files) {
    const script = readFileSync(join(dir, name), 'utf8');
    const ran = await database.rawTransaction(async (conn) => {
      if (database.kind === 'postgres') await conn.query('select pg_advisory_xact_lock(727274)');
      await conn.exec(
        'create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())',
      );
      const done = await conn.query('select 1 from schema_migrations where name = $1', [name]);
      if (done.length > 0) return false;
      await conn.exec(script);
      await conn.query('insert into schema_migrations (name) values ($1)', [name]);
      return true;
    });
    if (ran) applied.push(name);
  }
  return applied;
}

/** Whether schema_migrations lists every one of `files` (false when it does not exist yet). */
async function allApplied(database: Database, files: readonly string[]): Promise<boolean> {
  return database.rawTransaction(async (conn) => {
    const [table] = await conn.query<{ exists: boolean }>(
      "select to_regclass('schema_migrations') is not null as exists",
    );
    if (!table?.exists) return false;
    const done = new Set(
      (await conn.query<{ name: string }>('select name from schema_migrations')).map((r) => r.name),
    );
    return files.every((f) => done.has(f));
  });
}
