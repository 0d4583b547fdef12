import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/**
 * Exports nobody imports (docs/architecture.md "Unused exports"): every name a source file of the
 * repository exports, less the names some other file imports, re-exports or reaches through a
 * namespace or dynamic import. Tests count as users: a function exported for its own test is used.
 * Syntax only (no type checker), so the whole repository reads in about a second:
 *
 *   npx tsx scripts/unused-exports.ts        # lists them, exits 1 when any is not allowed
 */
const ROOT = resolve(import.meta.dirname, '..');

/** Where the product's and its tools' sources are. */
const DIRS = ['apps/server', 'apps/web', 'packages/contract', 'bench', 'scripts', 'eslint'];
const SKIP = new Set(['node_modules', 'dist', 'build', 'results', 'coverage', 'migrations']);
const SOURCE = /\.(ts|tsx|mts|js|mjs)$/;

/**
 * Files run or loaded by a tool rather than imported (entry points, configs, setups): what they
 * export is read by that tool. Paths relative to the repository, as regular expressions.
 */
const ENTRIES: readonly RegExp[] = [
  /\.test\.tsx?$/,
  /\.e2e\.ts$/,
  /\.d\.mts$/,
  /(^|\/)vite(st)?\.config\.ts$/,
  /^eslint\.config\.js$/,
  /global-setup\.ts$/,
  /^apps\/web\/e2e\/on-failure\.ts$/,
  /^apps\/web\/src\/test\/jsdom\.ts$/,
  // Read by apps/server/test/schema-drift.test.ts through a dynamic import of every schema file.
  /^apps\/server\/src\/modules\/[^/]+\/schema\.ts$/,
  /^apps\/server\/src\/platform\/db\/audit\.ts$/,
];

/**
 * The exports that no other file imported when the rule came in (issue 45), each used in its own
 * file: `path: name`, one a line. The list only shrinks: a new unused export fails the test, and so
 * does a line here that no longer holds (the name is imported now, no longer exported, or gone);
 * `npx tsx scripts/unused-exports.ts --prune` drops those lines.
 */
const BASELINE_PATH = join(ROOT, 'scripts/unused-exports.baseline.txt');

export function readBaseline(path: string = BASELINE_PATH): string[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
}

/** What breaks the rule: exports unused and not in the baseline, baseline lines no longer true. */
export function unusedExportProblems(
  found: readonly string[],
  baseline: readonly string[],
): { added: string[]; stale: string[] } {
  const f = new Set(found);
  const b = new Set(baseline);
  return { added: found.filter((e) => !b.has(e)), stale: baseline.filter((e) => !f.has(e)) };
}

export interface SourceFile {
  path: string;
  text: string;
}

interface Parsed {
  /**
   * Values this file declares and exports itself (`export const x`, `export { x }`, default).
   * Types are left out: they cost nothing at run time, and a type named in an exported
   * function's signature is exported with it whether or not a caller names it.
   */
  own: Set<string>;
  /** Types this file declares (interfaces, type aliases). */
  types: Set<string>;
  /** Names this file re-exports from another: name → [file, name there]. */
  reexports: Map<string, [string, string]>;
  /** Files whose every export this file passes on (`export * from`). */
  stars: string[];
  /** Imports of names: [file, name]; '*' for a namespace or dynamic import. */
  uses: [string, string][];
}

function resolveFrom(from: string, spec: string, files: ReadonlySet<string>): string | undefined {
  let base: string;
  if (spec.startsWith('@portal/contract/')) base = `packages/contract/src/${spec.slice(17)}`;
  else if (spec.startsWith('.')) base = join(dirname(from), spec);
  else return undefined;
  const bare = base.replace(/\.(js|mjs|ts|tsx)$/, '');
  for (const c of [
    base,
    `${bare}.ts`,
    `${bare}.tsx`,
    `${bare}.mts`,
    `${bare}.mjs`,
    `${bare}.js`,
    `${bare}/index.ts`,
    `${bare}/index.tsx`,
  ])
    if (files.has(c)) return c;
  return undefined;
}

const isExported = (n: ts.Node) =>
  ts.canHaveModifiers(n) && (ts.getModifiers(n) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
const isDefault = (n: ts.Node) =>
  ts.canHaveModifiers(n) && (ts.getModifiers(n) ?? []).some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);

function bindingNames(b: ts.BindingName): string[] {
  if (ts.isIdentifier(b)) return [b.text];
  return b.elements.flatMap((e) => (ts.isOmittedExpression(e) ? [] : bindingNames(e.name)));
}

function parse(file: SourceFile, files: ReadonlySet<string>): Parsed {
  const sf = ts.createSourceFile(
    file.path,
    file.text,
    ts.ScriptTarget.Latest,
    false,
    /x$/.test(file.path) ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const types = new Set<string>();
  const p: Parsed = { own: new Set(), types, reexports: new Map(), stars: [], uses: [] };
  for (const s of sf.statements)
    if (ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s)) types.add(s.name.text);
  const target = (spec: ts.Expression | undefined) =>
    spec && ts.isStringLiteralLike(spec) ? resolveFrom(file.path, spec.text, files) : undefined;

  for (const s of sf.statements) {
    if (ts.isImportDeclaration(s)) {
      const to = target(s.moduleSpecifier);
      const c = s.importClause;
      if (!to || !c) continue;
      if (c.name) p.uses.push([to, 'default']);
      const nb = c.namedBindings;
      if (nb && ts.isNamespaceImport(nb)) p.uses.push([to, '*']);
      else if (nb) for (const e of nb.elements) p.uses.push([to, (e.propertyName ?? e.name).getText(sf)]);
    } else if (ts.isExportDeclaration(s)) {
      const to = target(s.moduleSpecifier);
      const clause = s.exportClause;
      if (s.moduleSpecifier) {
        if (!to) continue;
        if (!clause) p.stars.push(to);
        else if (ts.isNamespaceExport(clause)) {
          p.own.add(clause.name.text);
          p.uses.push([to, '*']);
        } else
          for (const e of clause.elements)
            if (!s.isTypeOnly && !e.isTypeOnly)
              p.reexports.set(e.name.text, [to, (e.propertyName ?? e.name).getText(sf)]);
      } else if (clause && ts.isNamedExports(clause) && !s.isTypeOnly) {
        for (const e of clause.elements)
          if (!e.isTypeOnly && !types.has((e.propertyName ?? e.name).getText(sf))) p.own.add(e.name.text);
      }
    } else if (ts.isExportAssignment(s)) {
      p.own.add('default');
    } else if (isExported(s)) {
      if (isDefault(s)) p.own.add('default');
      else if (ts.isVariableStatement(s))
        for (const d of s.declarationList.declarations) for (const n of bindingNames(d.name)) p.own.add(n);
      else if (
        (ts.isFunctionDeclaration(s) ||
          ts.isClassDeclaration(s) ||
          ts.isEnumDeclaration(s) ||
          ts.isModuleDeclaration(s)) &&
        s.name
      )
        p.own.add(s.name.text);
    }
  }
  // import('x') anywhere, and vi.mock('x') / vi.importActual('x'): the whole file is used.
  const visit = (n: ts.Node) => {
    if (
      ts.isCallExpression(n) &&
      (n.expression.kind === ts.SyntaxKind.ImportKeyword ||
        /^vi\.(mock|importActual|doMock)$/.test(n.expression.getText(sf)))
    ) {
      const to = target(n.arguments[0]);
      if (to) p.uses.push([to, '*']);
    }
    // `typeof import('x')` / `import('x').T` in types.
    if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument)) {
      const to = target(n.argument.literal as ts.Expression);
      if (to) p.uses.push([to, n.qualifier ? n.qualifier.getText(sf).split('.')[0]! : '*']);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return p;
}

/** The exports of `files` that no other file uses, as `path: name`, sorted. */
export function unusedExports(files: readonly SourceFile[], entries: readonly RegExp[] = ENTRIES): string[] {
  const paths = new Set(files.map((f) => f.path));
  const parsed = new Map(files.map((f) => [f.path, parse(f, paths)]));
  const used = new Set<string>();
  const whole = new Set<string>();
  /** Marks `name` of `path` used, following re-exports and `export *` to where it is declared. */
  const use = (path: string, name: string, seen = new Set<string>()) => {
    if (seen.has(path)) return;
    seen.add(path);
    const p = parsed.get(path);
    if (!p) return;
    if (name === '*') {
      whole.add(path);
      for (const [n, [to, there]] of p.reexports) use(to, there, new Set(seen).add(`${n}`));
      for (const s of p.stars) use(s, '*', seen);
      return;
    }
    used.add(`${path}\0${name}`);
    const re = p.reexports.get(name);
    if (re) return use(re[0], re[1], seen);
    if (!p.own.has(name)) for (const s of p.stars) use(s, name, seen);
  };
  for (const p of parsed.values()) for (const [to, name] of p.uses) use(to, name);
  /** Whether a re-exported name is, where it is declared, a type. */
  const isType = (path: string, name: string, depth = 0): boolean => {
    const p = parsed.get(path);
    if (!p || depth > 20) return false;
    if (p.types.has(name)) return true;
    const re = p.reexports.get(name);
    if (re) return isType(re[0], re[1], depth + 1);
    return !p.own.has(name) && p.stars.some((s) => isType(s, name, depth + 1));
  };
  const out: string[] = [];
  for (const [path, p] of parsed) {
    if (whole.has(path) || entries.some((e) => e.test(path))) continue;
    const names = [...p.own, ...[...p.reexports].filter(([, [to, n]]) => !isType(to, n)).map(([n]) => n)];
    for (const name of names) if (!used.has(`${path}\0${name}`)) out.push(`${path}: ${name}`);
  }
  return out.sort();
}

function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    if (SKIP.has(name) || name.startsWith('.')) return [];
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return walk(full);
    return SOURCE.test(name) ? [full] : [];
  });
}

/** Every source file of the repository, with its path relative to the root. */
export function repositorySources(root: string = ROOT): SourceFile[] {
  return [
    ...DIRS.flatMap((d) => walk(join(root, d))),
    join(root, 'eslint.config.js'),
    join(root, 'vitest.config.ts'),
  ]
    .filter((f) => existsSync(f))
    .map((f) => ({ path: relative(root, f).split('\\').join('/'), text: readFileSync(f, 'utf8') }));
}

const HEADER = `# Exports no other file imports, kept from before the rule (scripts/unused-exports.ts).
# Only shrinks: delete a line once its export is used or gone (--prune does it); never add one.
`;

if (import.meta.url === `file://${process.argv[1]}`) {
  const found = unusedExports(repositorySources());
  const baseline = readBaseline();
  const { added, stale } = unusedExportProblems(found, baseline);
  if (process.argv.includes('--prune')) {
    const keep = baseline.filter((e) => !stale.includes(e));
    writeFileSync(BASELINE_PATH, HEADER + keep.map((e) => `${e}\n`).join(''));
    console.info(`dropped ${stale.length} line(s) that no longer hold`);
  } else if (stale.length > 0) console.info(`no longer true, drop (--prune):\n  ${stale.join('\n  ')}`);
  if (added.length > 0) console.info(`exported, imported by no other file:\n  ${added.join('\n  ')}`);
  console.info(`${found.length} unused export(s), ${baseline.length} in the baseline`);
  process.exitCode = added.length > 0 || (stale.length > 0 && !process.argv.includes('--prune')) ? 1 : 0;
}
