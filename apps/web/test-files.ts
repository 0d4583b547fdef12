import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/**
 * The web test files that share their workers' modules (the `web-shared` project of
 * vitest.config.ts, `isolate: false`): those that replace no module and no global. A file that
 * calls `vi.mock`, `vi.doMock`, `vi.spyOn`, `vi.stubGlobal`, `vi.stubEnv` or `vi.useFakeTimers`
 * runs in the `web` project, in a fresh worker of its own: with shared modules a `vi.mock` of a
 * module an earlier file loaded does not take, and a spy, a stubbed global or a fake clock would
 * reach the next file. Read from the files' text, so a file moves to `web` by itself when it
 * starts to replace something.
 */
const REPLACES = /\bvi\.(mock|doMock|spyOn|stubGlobal|stubEnv|useFakeTimers)\(/;

const root = import.meta.dirname;

function walk(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (/\.test\.tsx?$/.test(e.name)) out.push(p);
  }
  return out;
}

/** The selected files, relative to apps/web (as the projects' `include` and `exclude` take them). */
export function webSharedFiles(): string[] {
  return walk(resolve(root, 'src'))
    .filter((f) => !REPLACES.test(readFileSync(f, 'utf8')))
    .map((f) => relative(root, f))
    .sort();
}
