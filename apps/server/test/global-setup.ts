import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * Tests that start the real server process (crash, restart, several servers) run the built
 * `dist/start.cjs` and the `dist/main.js` it loads, as `npm start` does. They are built here once,
 * before any test file runs, when missing or older than a source of the server or the contract
 * package: files building them in parallel would write them over each other.
 */
const root = resolve(import.meta.dirname, '..');
const main = join(root, 'dist/main.js');

function newerThanMain(dir: string): boolean {
  const r = spawnSync(
    'find',
    [dir, '-newer', main, '(', '-name', '*.ts', '-o', '-name', '*.sql', ')', '-print', '-quit'],
    {
      encoding: 'utf8',
    },
  );
  return r.stdout.trim() !== '';
}

export default function setup(): void {
  if (
    existsSync(main) &&
    existsSync(join(root, 'dist/start.cjs')) &&
    statSync(main).size > 0 &&
    !newerThanMain(join(root, 'src')) &&
    !newerThanMain(resolve(root, '../../packages/contract/src'))
  ) {
    return;
  }
  const r = spawnSync(process.execPath, ['build.mjs'], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`building apps/server/dist failed: ${r.stderr}`);
}
