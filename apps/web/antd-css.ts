/**
 * antd's prebuilt stylesheet (`antd/dist/antd.css`, ≈ 1 MB: every component's rules, for
 * `zeroRuntime`) without the rules of the components this app never renders (ColorPicker, Tour,
 * Mentions, Transfer, Carousel…: whatever no module imports, nor any component it renders). A
 * selector naming such a component's class can never match, so the page looks the same and every
 * signed-in screen parses and matches less (bench/README.md "First screen", eighth pass).
 *
 * A class belongs to the component whose prefix (`getPrefixCls('btn')` → `.ant-btn…`) is the
 * longest it starts with; a class of no known prefix (motion, icons) belongs to none and stays.
 * What a component renders is the closure of its imports inside antd's own source (Table's filter
 * renders Tree and Checkbox, Pagination renders Select), leaving out imports of helpers only (a
 * context, a colour function, a style's tokens). The app's own class names and stylesheets are
 * checked too: one naming a dropped component's class fails the build.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';

const require = createRequire(import.meta.url);
const ANTD_ROOT = dirname(require.resolve('antd/package.json'));
const ANTD_ES = join(ANTD_ROOT, 'es');

function filesUnder(dir: string, ext: RegExp): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p, ext));
    else if (ext.test(name)) out.push(p);
  }
  return out;
}

/** The antd source directory (`button`, `date-picker`…) a path inside antd/es is in. */
function antdDirOf(path: string): string | undefined {
  const rel = relative(ANTD_ES, path);
  if (rel.startsWith('..')) return undefined;
  return rel.split(sep)[0];
}

/**
 * Whether an import inside antd can render the imported directory's component: it imports a
 * capitalised binding that is not a context (`import Button from '../button'`, `{ Tooltip }`),
 * or re-exports, or loads it dynamically. Helpers do not (`{ generateColor } from
 * '../color-picker/util'`, `{ SiderContext } from '../layout/Sider'`, a style's token helpers).
 */
function rendersImport(statement: string, spec: string): boolean {
  if (/\/(style|locale|hooks?|_util)(\/|$)|\/(color|context|util|utils|interface|token)(\.js)?$/.test(spec))
    return false;
  if (/^export\b|^import\s*\(/.test(statement)) return true;
  if (/^import\s+type\b/.test(statement)) return false;
  const clause = statement.replace(/^import\s*/, '').replace(/\s*from\s*$/, '');
  if (/\*\s+as\s+/.test(clause)) return true;
  const bindings = clause
    .replace(/[{}]/g, ',')
    .split(',')
    .map((b) =>
      b
        .trim()
        .split(/\s+as\s+/)
        .pop()!
        .trim(),
    )
    .filter((b) => b && !b.startsWith('type '));
  return bindings.some((b) => /^[A-Z]/.test(b) && !/Context$/.test(b));
}

const ANTD_IMPORT_RE = /(import\s*\(|(?:import|export)\s[^;'"]*?from\s*)['"]([^'"]+)['"]/g;

/** Each antd directory → the antd directories whose components its files may render. */
function antdDirImports(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of filesUnder(ANTD_ES, /\.js$/)) {
    const from = antdDirOf(file)!;
    const deps = graph.get(from) ?? new Set<string>();
    graph.set(from, deps);
    // The styles of a component do not render anything.
    if (/[\\/]style[\\/]/.test(relative(ANTD_ES, file))) continue;
    for (const m of readFileSync(file, 'utf8').matchAll(ANTD_IMPORT_RE)) {
      const spec = m[2]!;
      if (!spec.startsWith('.') || !rendersImport(m[1]!.trim(), spec)) continue;
      const to = antdDirOf(resolve(dirname(file), spec));
      if (to && to !== from) deps.add(to);
    }
  }
  return graph;
}

/** The class prefixes each antd directory asks for (`getPrefixCls('btn', …)`). */
function antdPrefixes(): Map<string, Set<string>> {
  const byDir = new Map<string, Set<string>>();
  for (const file of filesUnder(ANTD_ES, /\.js$/)) {
    const dir = antdDirOf(file)!;
    for (const m of readFileSync(file, 'utf8').matchAll(/getPrefixCls\(\s*['"]([a-z-]+)['"]/g)) {
      const set = byDir.get(dir) ?? new Set<string>();
      set.add(m[1]!);
      byDir.set(dir, set);
    }
  }
  return byDir;
}

/** antd's exported names → their directories (`DatePicker` → `date-picker`), from its index. */
function antdExports(): Map<string, string> {
  const index = readFileSync(join(ANTD_ES, 'index.js'), 'utf8');
  const out = new Map<string, string>();
  for (const m of index.matchAll(/export\s*\{\s*default as (\w+)\s*\}\s*from\s*['"]\.\/([a-z-]+)['"]/g))
    out.set(m[1]!, m[2]!);
  return out;
}

/** The antd directories the app's `files` import by name from 'antd' or by path from antd/es|lib. */
function antdDirsImportedBy(files: string[], exportsByName: Map<string, string>): Set<string> {
  const dirs = new Set<string>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/import\s+(?!type\b)\{([^}]*)\}\s*from\s*['"]antd['"]/g))
      for (const part of m[1]!.split(',')) {
        const name = part
          .trim()
          .replace(/^type\s+.*/, '')
          .split(/\s+as\s+/)[0]!
          .trim();
        const dir = name && exportsByName.get(name);
        if (dir) dirs.add(dir);
      }
    for (const m of text.matchAll(/from\s*['"]antd\/(?:es|lib)\/([a-z-]+)/g)) dirs.add(m[1]!);
  }
  return dirs;
}

function closure(dirs: Set<string>, graph: Map<string, Set<string>>): Set<string> {
  const out = new Set<string>();
  const queue = [...dirs];
  while (queue.length) {
    const d = queue.pop()!;
    if (out.has(d)) continue;
    out.add(d);
    for (const dep of graph.get(d) ?? []) queue.push(dep);
  }
  return out;
}

/**
 * Walks `text` from `from`, skipping escapes and quoted strings, and calls `at` with every other
 * character; stops where `at` returns true. Returns that index, or the text's length.
 */
function scanCss(text: string, from: number, at: (c: string, i: number) => boolean): number {
  let quote: string | null = null;
  for (let i = from; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\') i++;
    else if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (at(c, i)) return i;
  }
  return text.length;
}

/** The top-level blocks of a stylesheet: rules, at-rules with their bodies, statements. */
function cssBlocks(css: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < css.length) {
    while (i < css.length && /\s/.test(css[i]!)) i++;
    if (i >= css.length) break;
    const start = i;
    let depth = 0;
    i =
      scanCss(css, start, (c) => {
        if (c === '{') depth++;
        else if (c === '}') return --depth === 0;
        else if (c === ';') return depth === 0;
        return false;
      }) + 1;
    out.push(css.slice(start, i));
  }
  return out;
}

/** Splits a selector list at its top-level commas. */
function selectorList(prelude: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  scanCss(prelude, 0, (c, i) => {
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === ',' && depth === 0) {
      out.push(prelude.slice(start, i));
      start = i + 1;
    }
    return false;
  });
  out.push(prelude.slice(start));
  return out;
}

interface TrimmedAntdCss {
  css: string;
  /** Bytes of antd.css, and of the rules dropped. */
  total: number;
  dropped: number;
  /** The antd directories with class prefixes whose rules were dropped. */
  unusedDirs: string[];
}

/** antd.css without the rules of components that no module under `srcRoot` renders. */
export function trimAntdCss(srcRoot: string): TrimmedAntdCss {
  const graph = antdDirImports();
  const prefixesByDir = antdPrefixes();
  const sources = filesUnder(srcRoot, /\.(tsx?|css)$/).filter((f) => !/\.test\.tsx?$/.test(f));
  const usedDirs = closure(
    antdDirsImportedBy(
      sources.filter((f) => !f.endsWith('.css')),
      antdExports(),
    ),
    graph,
  );
  // Helpers every component builds on (wave, motion, the style utilities).
  for (const d of ['_util', 'style', 'theme']) usedDirs.add(d);

  // A prefix asked for by a used directory is used, whichever else asks for it.
  const used = new Set<string>();
  const known = new Set<string>();
  for (const [dir, prefixes] of prefixesByDir)
    for (const p of prefixes) {
      known.add(p);
      if (usedDirs.has(dir)) used.add(p);
    }
  const byLength = [...known].sort((a, b) => b.length - a.length);
  const unusedClass = new Map<string, boolean>();
  const isUnused = (cls: string) => {
    let unused = unusedClass.get(cls);
    if (unused === undefined) {
      const p = byLength.find((k) => cls === `ant-${k}` || cls.startsWith(`ant-${k}-`));
      unused = p !== undefined && !used.has(p);
      unusedClass.set(cls, unused);
    }
    return unused;
  };
  // The app's own mentions of antd classes (a className, a selector of its stylesheets).
  for (const file of sources)
    for (const m of readFileSync(file, 'utf8').matchAll(/\bant-[a-z0-9-]+/g))
      if (isUnused(m[0]))
        throw new Error(
          `${file} names ${m[0]}, of an antd component no module imports: import it, or see antd-css.ts`,
        );

  const keep = (selector: string) =>
    ![...selector.matchAll(/\.(ant-[a-z0-9-]+)/g)].some((m) => isUnused(m[1]!));
  let dropped = 0;
  const trim = (blocks: string[]): string[] => {
    const out: string[] = [];
    for (const block of blocks) {
      const open = block.indexOf('{');
      const prelude = open < 0 ? '' : block.slice(0, open);
      if (
        open < 0 ||
        (prelude.trimStart().startsWith('@') && !/^\s*@(media|supports|container)\b/.test(prelude))
      ) {
        // Statements, @keyframes, @font-face: kept whole.
        out.push(block);
      } else if (prelude.trimStart().startsWith('@')) {
        const inner = trim(cssBlocks(block.slice(open + 1, block.lastIndexOf('}'))));
        if (inner.length) out.push(`${prelude}{${inner.join('')}}`);
        else dropped += prelude.length + 2;
      } else {
        const selectors = selectorList(prelude);
        const kept = selectors.filter(keep);
        if (kept.length)
          out.push(kept.length === selectors.length ? block : `${kept.join(',')}${block.slice(open)}`);
        dropped += block.length - (kept.length ? out[out.length - 1]!.length : 0);
      }
    }
    return out;
  };
  const css = readFileSync(join(ANTD_ROOT, 'dist', 'antd.css'), 'utf8');
  return {
    css: trim(cssBlocks(css)).join('\n'),
    total: css.length,
    dropped,
    unusedDirs: [...prefixesByDir.keys()].filter((d) => !usedDirs.has(d)).sort(),
  };
}
