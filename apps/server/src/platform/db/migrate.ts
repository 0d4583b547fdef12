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
