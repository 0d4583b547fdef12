import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * The server test files that open a database: the only ones the PostgreSQL phase runs
 * (`TEST_DATABASE_FILES_ONLY=1`, vitest.config.ts; bench/README.md "Fifth pass"). A file that
 * opens none runs the same code on PostgreSQL as on PGlite and proves nothing new there.
 *
 * The selection is read from the files' text: a file is in it when it, or a helper of
 * `src/testing/` it imports, names a way to a database below. It is kept true by
 * test/database-use.ts: in every run, a file that opened a database (an in-process PGlite, a
 * PostgreSQL connection, a real server process) and is not selected here fails.
 */
const DATABASE_WAYS =
  /\b(createTestPortal|createTestDb|openDatabase|withStartedPortal|spawnServer|startServer|TEST_DATABASE_URL|onPostgres|databaseUrl)\b/;

const root = resolve(import.meta.dirname, '..');
const testing = join(root, 'src/testing');
/** Where the ways are defined: importing them for another export (`served`, `freePort`) opens nothing. */
const DEFINERS = new Set([join(testing, 'harness.ts'), join(testing, 'process.ts')]);

function walk(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== 'node_modules' && e.name !== 'fixtures') walk(p, out);
    } else if (e.name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

/** The helpers of src/testing a file imports by a relative path, as files. */
function testingImports(file: string, text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/from '(\.{1,2}\/[^']+)'/g)) {
    const target = resolve(dirname(file), m[1]!);
    const path = target.endsWith('.ts') ? target : `${target}.ts`;
    if (path.startsWith(`${testing}/`) && !DEFINERS.has(path)) found.push(path);
  }
  return found;
}

function opensDatabase(file: string, seen = new Set<string>()): boolean {
  if (seen.has(file)) return false;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  return DATABASE_WAYS.test(text) || testingImports(file, text).some((f) => opensDatabase(f, seen));
}

/** The selected files, relative to apps/server (as the server project's `include` takes them). */
export function databaseTestFiles(): string[] {
  return [join(root, 'src'), join(root, 'test')]
    .flatMap((d) => walk(d))
    .filter((f) => opensDatabase(f))
    .map((f) => relative(root, f))
    .sort();
}
