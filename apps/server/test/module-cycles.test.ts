import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * No import cycle between server modules (docs/architecture.md "Modules"): when module A uses
 * module B's code, B uses none of A's, directly or through others. The graph has an edge A → B for
 * every import (values, types, re-exports, dynamic imports) of a file of modules/A that resolves
 * into modules/B, except B's schema.ts: a table declaration is no code, and reading another
 * module's tables is the declared read of eslint/schema-reads.js, checked by the lint rule. Tests,
 * test kits and fixtures compose the whole app and are left out.
 */
const MODULES = resolve(import.meta.dirname, '../src/modules');

const isProduction = (name: string) =>
  /\.tsx?$/.test(name) &&
  !/\.test\.tsx?$/.test(name) &&
  !/^testkit\.ts$/.test(name) &&
  !/\.fixtures\.ts$/.test(name);

function filesOf(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? filesOf(join(dir, d.name)) : isProduction(d.name) ? [join(dir, d.name)] : [],
  );
}

/** Module → module it imports → the importing files. */
function moduleGraph(root: string = MODULES): Map<string, Map<string, Set<string>>> {
  const graph = new Map<string, Map<string, Set<string>>>();
  const modules = readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
  for (const from of modules) {
    for (const file of filesOf(join(root, from))) {
      const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
      for (const { fileName } of importedFiles) {
        if (!fileName.startsWith('.')) continue;
        const [to, ...rest] = relative(root, resolve(dirname(file), fileName)).split(sep);
        if (!to || to === from || !modules.includes(to)) continue;
        if (rest.join('/').replace(/\.[jt]s$/, '') === 'schema') continue;
        const edges = graph.get(from) ?? new Map<string, Set<string>>();
        graph.set(from, edges);
        const files = edges.get(to) ?? new Set<string>();
        edges.set(to, files);
        files.add(relative(root, file));
      }
    }
  }
  return graph;
}

/** Each group of modules that reach one another (Tarjan), with the imports that tie it, for the message. */
function cyclesOf(graph: Map<string, Map<string, Set<string>>>): string[] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const out: string[] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    for (let w = stack.pop()!; ; w = stack.pop()!) {
      group.push(w);
      if (w === v) break;
    }
    if (group.length < 2) return;
    const ties = group
      .sort()
      .flatMap((a) =>
        group
          .filter((b) => graph.get(a)?.has(b))
          .map((b) => `  ${a} → ${b} (${[...graph.get(a)!.get(b)!].sort().join(', ')})`),
      );
    out.push([`modules ${group.join(', ')} import one another:`, ...ties].join('\n'));
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return out;
}

describe('server modules', () => {
  it('import one another without a cycle', () => {
    expect(cyclesOf(moduleGraph()).join('\n')).toBe('');
  });

  it('see a cycle through several modules, and not a read of another module’s schema.ts', () => {
    const g = (edges: [string, string][]) =>
      new Map(
        [...new Set(edges.map(([a]) => a))].map((a) => [
          a,
          new Map(edges.filter(([x]) => x === a).map(([, b]) => [b, new Set([`${a}/x.ts`])])),
        ]),
      );
    expect(
      cyclesOf(
        g([
          ['a', 'b'],
          ['b', 'c'],
          ['c', 'a'],
          ['c', 'd'],
        ]),
      ),
    ).toEqual([expect.stringContaining('modules a, b, c import one another')]);
    expect(
      cyclesOf(
        g([
          ['a', 'b'],
          ['b', 'c'],
          ['a', 'c'],
        ]),
      ),
    ).toEqual([]);
    // The live graph is read: paid uses contract's code.
    expect(moduleGraph().get('paid')?.has('contract')).toBe(true);
  });
});
