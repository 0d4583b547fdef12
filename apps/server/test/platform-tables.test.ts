import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The platform names no module's table (docs/architecture.md "Modules"): the row-scope kinds are
 * each module's, registered with its plugin (`PortalModule.scopeKinds`), and whatever else the
 * platform does with a module's rows it asks the module. Checked on the SQL text of every
 * platform file (reads after `from`/`join` or a FROM clause on its own, `'contracts r'`; writes
 * after `update`, `insert into`, `delete from`),
 * against the tables each module's schema.ts declares (eslint/table-owners.js).
 */
const repo = resolve(import.meta.dirname, '../../..');
const PLATFORM = resolve(repo, 'apps/server/src/platform');

/**
 * The one exception: 参数设置 are kept in system's table, and every server reads and follows them
 * from its first moment, before any module is registered (platform/params.ts LiveParams).
 */
const ALLOWED: Record<string, readonly string[]> = { 'params.ts': ['system_params'] };

const SQL_WRITE =
  /\b(?:update|insert\s+into|delete\s+from)\s+(?:only\s+)?(?:"?public"?\.)?"?([a-z_][a-z0-9_]*)"?/gi;

async function load<T>(file: string): Promise<T> {
  return (await import(pathToFileURL(resolve(repo, 'eslint', file)).href)) as T;
}

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory()
      ? files(join(dir, d.name))
      : /\.ts$/.test(d.name) && !/\.test\.ts$/.test(d.name)
        ? [join(dir, d.name)]
        : [],
  );
}

/** `file: table (module)` for each module table a platform source names in its SQL text. */
async function moduleTablesNamed(sources: ReadonlyMap<string, string>): Promise<string[]> {
  const { TABLE_OWNERS } = await load<{ TABLE_OWNERS: Record<string, string> }>('table-owners.js');
  const { sqlReads } = await load<{
    sqlReads: (text: string, tables: Record<string, string>, from?: string) => [string, string][];
  }>('module-reads.js');
  const found = new Set<string>();
  for (const [file, text] of sources) {
    const visit = (node: ts.Node) => {
      if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) {
        // A FROM clause kept apart from its `from` (a row-scope kind's `from: 'contracts r'`).
        const lead = /^\s*"?([a-z_][a-z0-9_]*)"?(?:\s+[a-z_]+)?(?:\s+join\b.*)?$/is.exec(node.text)?.[1];
        const named = [
          ...(lead && TABLE_OWNERS[lead] ? [lead] : []),
          ...sqlReads(node.text, TABLE_OWNERS).map(([t]) => t),
          ...[...node.text.matchAll(SQL_WRITE)]
            .map((m) => m[1]!.toLowerCase())
            .filter((t) => TABLE_OWNERS[t]),
        ];
        for (const t of named)
          if (!(ALLOWED[file] ?? []).includes(t)) found.add(`${file}: ${t} (modules/${TABLE_OWNERS[t]})`);
      }
      ts.forEachChild(node, visit);
    };
    visit(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true));
  }
  return [...found].sort();
}

describe('the platform', () => {
  it('names no module’s table', async () => {
    const sources = new Map(files(PLATFORM).map((f) => [relative(PLATFORM, f), readFileSync(f, 'utf8')]));
    expect(await moduleTablesNamed(sources)).toEqual([]);
  });

  it('would be caught naming one, in a row-scope kind or any other SQL', async () => {
    const planted = new Map([
      ['auth/row-scope.ts', "const contract = { from: 'contracts r', code: 'r.biz_code' };"],
      ['http/probe.ts', 'const q = sql`update paids set state = ${"x"} where exists (select 1 from users)`;'],
    ]);
    expect(await moduleTablesNamed(planted)).toEqual([
      'auth/row-scope.ts: contracts (modules/contract)',
      'http/probe.ts: paids (modules/paid)',
    ]);
  });
});
