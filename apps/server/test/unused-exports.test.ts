import { describe, expect, it } from 'vitest';
import {
  readBaseline,
  repositorySources,
  unusedExportProblems,
  unusedExports,
} from '../../../scripts/unused-exports';

/**
 * No export that no other file imports (docs/architecture.md "Unused exports"): a name is used
 * there or deleted, or stops being exported. The exports that were so before the rule are listed in
 * scripts/unused-exports.baseline.txt, which only shrinks.
 */
describe('exports', () => {
  it('are each imported by another file, or listed in the baseline that only shrinks', () => {
    const { added, stale } = unusedExportProblems(unusedExports(repositorySources()), readBaseline());
    expect({ added, stale }).toEqual({ added: [], stale: [] });
    // Parsing the whole repository takes seconds alone and half a minute on a loaded machine.
  }, 120_000);

  it('see an export nobody imports, through re-exports, stars, namespaces and dynamic imports', () => {
    const files = [
      {
        path: 'a.ts',
        text: `export const used = 1; export function unused() {} export interface T {}
               export type U = string; export { local as renamed }; const local = 2;`,
      },
      { path: 'b.ts', text: `import { used, type T } from './a'; export { renamed } from './a';` },
      { path: 'c.ts', text: `import { renamed } from './b'; export * from './d';` },
      { path: 'd.ts', text: `export const viaStar = 1; export const notViaStar = 2;` },
      { path: 'e.ts', text: `import { viaStar } from './c'; import * as f from './f';` },
      { path: 'f.ts', text: `export const all = 1;` },
      { path: 'g.ts', text: `export default function g() {} export const late = 1;` },
      { path: 'h.ts', text: `const m = () => import('./g');` },
      { path: 'x.test.ts', text: `export const inTest = 1;` },
    ];
    expect(unusedExports(files, [/\.test\.ts$/])).toEqual(['a.ts: unused', 'd.ts: notViaStar']);
  });

  it('fails on a new unused export and on a baseline line that no longer holds', () => {
    expect(unusedExportProblems(['a.ts: x', 'b.ts: y'], ['b.ts: y', 'c.ts: z'])).toEqual({
      added: ['a.ts: x'],
      stale: ['c.ts: z'],
    });
  });
});
