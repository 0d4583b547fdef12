import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, extname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/**
 * What a server module reads of other modules' tables (docs/architecture.md "Modules"), found in
 * its code the way the lint rule of boundaries.js finds it file by file: the tables it imports from
 * another module's schema.ts (drizzle), and the tables its SQL text names after `from` or `join`
 * (`tables` naming each table's owner: eslint/table-owners.js). The rule uses it to refuse a
 * declaration in eslint/schema-reads.js that no file uses any more; scripts/module-map.ts to list
 * the tables each module reads.
 */

export const MODULES_DIR = join(import.meta.dirname, '../apps/server/src/modules');

/** A read in SQL text and the table it reads: `from <table>`, `join <table>`, not `delete from`. */
export const SQL_READ =
  /(?<!\bdelete\s+)\b(from|join)\s+(?:only\s+)?(?:"?public"?\.)?"?([a-z_][a-z0-9_]*)"?(?![a-z0-9_(])/gi;

/** Tests and test kits compose the whole app and are exempt from the walls (boundaries.js). */
export const isTest = (path) => /\.test\.tsx?$/.test(path) || basename(path, extname(path)) === 'testkit';

/** The tables of other modules this SQL text reads: [table, owner] pairs. */
export function sqlReads(text, tables, fromModule) {
  const out = [];
  for (const [, , name] of text.matchAll(SQL_READ)) {
    const table = name.toLowerCase();
    const to = tables[table];
    if (to && to !== fromModule) out.push([table, to]);
  }
  return out;
}

/** A module's drizzle table names (exported constants) → their SQL names, from its schema.ts. */
function schemaTables(module) {
  const schema = join(MODULES_DIR, module, 'schema.ts');
  if (!existsSync(schema)) return new Map();
  const text = readFileSync(schema, 'utf8');
  return new Map(
    [...text.matchAll(/export\s+const\s+(\w+)\s*=\s*pgTable\(\s*'([a-z0-9_]+)'/g)].map((m) => [m[1], m[2]]),
  );
}

function productionFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return productionFiles(path);
    return /\.tsx?$/.test(d.name) && !isTest(path) ? [path] : [];
  });
}

/**
 * What `module`'s production files read of other modules' tables: owner → table → the files
 * reading it. `override` gives one file's text in place of the disk's (the file being linted).
 */
export function moduleReads(module, tables, override) {
  const reads = new Map();
  const note = (to, table, file) => {
    const byTable = reads.get(to) ?? new Map();
    reads.set(to, byTable);
    const files = byTable.get(table) ?? new Set();
    byTable.set(table, files);
    files.add(relative(MODULES_DIR, file).split(sep).join('/'));
  };
  const root = join(MODULES_DIR, module);
  if (!existsSync(root)) return reads;
  for (const file of productionFiles(root)) {
    const text = override && resolve(override.file) === file ? override.text : readFileSync(file, 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
    const visit = (node) => {
      if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
        const spec = node.moduleSpecifier.text;
        const target = spec.startsWith('.')
          ? relative(MODULES_DIR, resolve(dirname(file), spec)).split(sep)
          : [];
        const to = target[0];
        if (target.length === 2 && target[1].replace(/\.[jt]s$/, '') === 'schema' && to !== module) {
          const names = schemaTables(to);
          const bindings = ts.isImportDeclaration(node)
            ? node.importClause?.namedBindings
            : node.exportClause;
          const elements = bindings && 'elements' in bindings ? bindings.elements : undefined;
          if (!elements) names.forEach((table) => note(to, table, file));
          for (const e of elements ?? []) {
            const table = names.get((e.propertyName ?? e.name).text);
            if (table) note(to, table, file);
          }
        }
      } else if (
        ts.isStringLiteral(node) ||
        ts.isNoSubstitutionTemplateLiteral(node) ||
        node.kind === ts.SyntaxKind.TemplateHead ||
        node.kind === ts.SyntaxKind.TemplateMiddle ||
        node.kind === ts.SyntaxKind.TemplateTail
      ) {
        for (const [table, to] of sqlReads(node.text, tables, module)) note(to, table, file);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return reads;
}
