import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { is, sql, SQL } from 'drizzle-orm';
import { getTableConfig, PgDialect, PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/platform/db/client';
import { migrate } from '../src/platform/db/migrate';
import { createTestDb, type TestDb } from '../src/testing/harness';
import { serverRoot } from '../src/server';

/**
 * The drizzle tables are written by hand beside the SQL migrations, which are what the database
 * really holds (docs/architecture.md "Schema and migrations"). This test reads the migrated
 * catalogue and compares it with every drizzle table column by column: type, nullability,
 * default, and the checks a drizzle table declares. On PGlite, or PostgreSQL with
 * TEST_DATABASE_URL.
 */

/** Tables the migrations create that no drizzle table describes, each read and written by raw SQL. */
const RAW_SQL_TABLES: Record<string, string> = {
  schema_migrations: 'the migration runner’s own record (platform/db/migrate.ts)',
  portal_settings: 'facts about the database as key and value (first start, business date, seeded templates)',
  book_months:
    'the month close’s lock row per month, read and written in SQL by voucher/close.ts and the posting',
  book_close_requests:
    'the four-eyes requests of the month close, in SQL beside book_months (voucher/close.ts)',
  ledger_kept_dates: 'the dates whose 台账 figures the day-end kept, in SQL (ledger/keep.ts, ledger/kept.ts)',
  ledger_kept: 'each contract’s 台账 figures of a kept date, in SQL (ledger/keep.ts)',
  ledger_kept_sums:
    'the kept figures summed per organisation, owner, state and class, in SQL (ledger/keep.ts)',
  ledger_kept_org_sums: 'the kept figures summed per organisation, state and class, in SQL (ledger/keep.ts)',
  ledger_kept_book_sums: 'the kept figures of the whole book per state and class, in SQL (ledger/keep.ts)',
  ledger_touches:
    'the contracts touched since their figures were kept, written by triggers (migrations/0064)',
  guarantee_reminders: 'the day-end’s once-only record of guarantee reminders, in SQL (credit/guarantees.ts)',
};

interface CatalogColumn {
  table: string;
  column: string;
  type: string;
  notNull: boolean;
  default: string | null;
}
interface CatalogCheck {
  table: string;
  name: string;
  definition: string;
}
interface Catalog {
  columns: CatalogColumn[];
  checks: CatalogCheck[];
}

async function readCatalog(t: TestDb): Promise<Catalog> {
  const columns = await queryRows<CatalogColumn>(
    t.database.db,
    sql`select c.relname as "table", a.attname as "column", format_type(a.atttypid, a.atttypmod) as "type",
               a.attnotnull as "notNull", pg_get_expr(d.adbin, d.adrelid) as "default"
          from pg_attribute a
          join pg_class c on c.oid = a.attrelid
          join pg_namespace n on n.oid = c.relnamespace
          left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
         where n.nspname = current_schema() and c.relkind in ('r', 'p')
           and a.attnum > 0 and not a.attisdropped`,
  );
  const checks = await queryRows<CatalogCheck>(
    t.database.db,
    sql`select c.relname as "table", k.conname as "name", pg_get_constraintdef(k.oid) as "definition"
          from pg_constraint k
          join pg_class c on c.oid = k.conrelid
          join pg_namespace n on n.oid = c.relnamespace
         where n.nspname = current_schema() and k.contype = 'c'`,
  );
  return { columns, checks };
}

/** Drizzle's SQL type spelled the way PostgreSQL's format_type spells it. */
function catalogType(drizzleType: string): string {
  const t = drizzleType
    .trim()
    .toLowerCase()
    .replace(/\s*,\s*/g, ',');
  const serial: Record<string, string> = { bigserial: 'bigint', serial: 'integer', smallserial: 'smallint' };
  if (serial[t]) return serial[t]!;
  const sized = /^(varchar|char)\((\d+)\)$/.exec(t);
  if (sized) return `${sized[1] === 'varchar' ? 'character varying' : 'character'}(${sized[2]})`;
  if (t === 'varchar') return 'character varying';
  if (t === 'timestamp') return 'timestamp without time zone';
  if (/^timestamp\s*\(\d\)$/.test(t)) return t.replace(/^timestamp\s*/, 'timestamp') + ' without time zone';
  return t;
}

/** A default as PostgreSQL prints it, without the casts it adds to literals. */
function plainDefault(expr: string): string {
  return expr
    .replace(/::[a-z ]+(\(\d+(,\d+)?\))?(\[\])?/gi, '')
    .replace(/^\((.*)\)$/, '$1')
    .replace(/^'(.*)'$/, '$1')
    .replace(/\s+/g, '')
    .toLowerCase();
}

const dialect = new PgDialect();
function drizzleDefault(value: unknown): string {
  if (is(value, SQL)) return plainDefault(dialect.sqlToQuery(value).sql);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') return plainDefault(JSON.stringify(value));
  return plainDefault(String(value));
}

/** Every difference between the drizzle tables and the catalogue, one line each. */
function schemaDrift(tables: PgTable[], catalog: Catalog): string[] {
  const drift: string[] = [];
  const described = new Set<string>();
  for (const table of tables) {
    const config = getTableConfig(table);
    described.add(config.name);
    const inDb = new Map(catalog.columns.filter((c) => c.table === config.name).map((c) => [c.column, c]));
    if (inDb.size === 0) {
      drift.push(`${config.name}: no such table in the migrations`);
      continue;
    }
    for (const column of config.columns) {
      const where = `${config.name}.${column.name}`;
      const db = inDb.get(column.name);
      inDb.delete(column.name);
      if (!db) {
        drift.push(`${where}: not in the migrations`);
        continue;
      }
      const type = catalogType(column.getSQLType());
      if (type !== db.type) drift.push(`${where}: type ${type} in drizzle, ${db.type} in the migrations`);
      if (column.notNull !== db.notNull)
        drift.push(`${where}: ${column.notNull ? 'not null' : 'nullable'} in drizzle, not in the migrations`);
      const dbDefault = db.default?.startsWith('nextval(') ? null : db.default;
      if (column.default !== undefined) {
        if (dbDefault === null) drift.push(`${where}: default in drizzle, none in the migrations`);
        else if (drizzleDefault(column.default) !== plainDefault(dbDefault))
          drift.push(
            `${where}: default ${drizzleDefault(column.default)} in drizzle, ${dbDefault} in the migrations`,
          );
      } else if (dbDefault !== null && !column.defaultFn && !column.generated) {
        drift.push(`${where}: default ${dbDefault} in the migrations, none in drizzle`);
      }
    }
    for (const column of inDb.keys())
      drift.push(`${config.name}.${column}: in the migrations, not in drizzle`);
    for (const check of config.checks) {
      const db = catalog.checks.find((c) => c.table === config.name && c.name === check.name);
      if (!db) drift.push(`${config.name}: check ${check.name} not in the migrations`);
    }
  }
  const tablesInDb = new Set(catalog.columns.map((c) => c.table));
  for (const table of tablesInDb) {
    if (!described.has(table) && !(table in RAW_SQL_TABLES))
      drift.push(`${table}: in the migrations, no drizzle table (or list it in RAW_SQL_TABLES with why)`);
  }
  return drift.sort();
}

/** The server's source files that define drizzle tables: every schema.ts, and the audit log. */
function schemaFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return schemaFiles(path);
    return entry.name === 'schema.ts' || path.endsWith(join('platform', 'db', 'audit.ts')) ? [path] : [];
  });
}

/** Every drizzle table the server defines. */
async function drizzleTables(): Promise<PgTable[]> {
  const tables = new Set<PgTable>();
  for (const file of schemaFiles(join(serverRoot(), 'src'))) {
    const exports = (await import(file)) as Record<string, unknown>;
    for (const value of Object.values(exports)) if (is(value, PgTable)) tables.add(value);
  }
  return [...tables];
}

let t: TestDb;
let catalog: Catalog;
let tables: PgTable[];
beforeAll(async () => {
  tables = await drizzleTables();
  t = await createTestDb();
  await migrate(t.database, join(serverRoot(), 'migrations'));
  catalog = await readCatalog(t);
});
afterAll(async () => {
  await t.drop();
});

describe('drizzle tables against the migrations', () => {
  it('agree column by column: type, nullability and default', () => {
    expect(tables.length).toBeGreaterThan(60);
    expect(schemaDrift(tables, catalog)).toEqual([]);
  });

  it('a deliberately altered column is reported', () => {
    const paids = tables.find((x) => getTableConfig(x).name === 'paids')!;
    const altered: Catalog = {
      checks: catalog.checks,
      columns: catalog.columns.map((c) => {
        if (c.table !== 'paids') return c;
        if (c.column === 'amount') return { ...c, type: 'numeric(18,4)' };
        if (c.column === 'remark') return { ...c, notNull: true };
        if (c.column === 'red') return { ...c, default: 'true' };
        return c;
      }),
    };
    const amountType = catalogType(
      getTableConfig(paids)
        .columns.find((c) => c.name === 'amount')!
        .getSQLType(),
    );
    expect(schemaDrift(tables, altered)).toEqual([
      `paids.amount: type ${amountType} in drizzle, numeric(18,4) in the migrations`,
      'paids.red: default false in drizzle, true in the migrations',
      'paids.remark: nullable in drizzle, not in the migrations',
    ]);
    const withoutColumn: Catalog = {
      checks: catalog.checks,
      columns: catalog.columns.filter((c) => !(c.table === 'paids' && c.column === 'posting_seq')),
    };
    expect(schemaDrift(tables, withoutColumn)).toEqual(['paids.posting_seq: not in the migrations']);
  });
});
