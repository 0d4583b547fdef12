import { relative, resolve } from 'node:path';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, expect } from 'vitest';
import { databaseTestFiles } from './database-files';

/**
 * Keeps the PostgreSQL phase's selection true (test/database-files.ts): a server test file that
 * opens a database — an in-process PGlite, a PostgreSQL connection, or a real server process
 * (testing/process.ts marks those) — and is not in the selection fails here, in every run, on
 * either database, so it cannot silently drop out of the PostgreSQL phase.
 */
const MARK = Symbol.for('portal.test.databaseOpened');
type Marked = { [MARK]?: boolean };
const marked = globalThis as Marked;

const PATCHED = Symbol.for('portal.test.databaseUsePatched');
const patched = globalThis as { [PATCHED]?: boolean };
if (!patched[PATCHED]) {
  patched[PATCHED] = true;
  const create = PGlite.create.bind(PGlite);
  PGlite.create = ((...args: Parameters<typeof PGlite.create>) => {
    marked[MARK] = true;
    return create(...args);
  }) as typeof PGlite.create;
  const connect = pg.Client.prototype.connect;
  pg.Client.prototype.connect = function (this: pg.Client, ...args: unknown[]) {
    marked[MARK] = true;
    return (connect as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof connect;
}

const root = resolve(import.meta.dirname, '..');
let selected: Set<string> | undefined;

beforeAll(() => {
  marked[MARK] = false;
});

afterAll(() => {
  const opened = marked[MARK];
  marked[MARK] = false;
  const path = expect.getState().testPath;
  if (!opened || !path) return;
  selected ??= new Set(databaseTestFiles());
  const file = relative(root, path);
  if (!selected.has(file)) {
    throw new Error(
      `${file} opened a database but the PostgreSQL phase would not run it: name its way to the ` +
        'database (createTestPortal, openDatabase, spawnServer, …) in the file, or add that way to ' +
        'DATABASE_WAYS in test/database-files.ts',
    );
  }
});
