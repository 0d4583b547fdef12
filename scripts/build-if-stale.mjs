// `npm start`, `npm run backup` and `npm run restore` in the repository run this first: it runs
// `npm run build` only when an output is missing or older than a source (docs/operations.md
// "The production build"), so a second `npm start` starts at once.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(import.meta.dirname, '..');

/** What `npm run build` reads (a folder: every file and folder in it) … */
export const SOURCES = [
  'package-lock.json',
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/server/src',
  'apps/server/migrations',
  'apps/server/build.mjs',
  'apps/server/release.mjs',
  'packages/contract/src',
];
/** … and what it writes. */
export const OUTPUTS = [
  'apps/server/dist/start.cjs',
  'apps/server/dist/main.js',
  'apps/server/dist/backup-cli.js',
  'apps/web/dist/index.html',
  'release/package-lock.json',
];

/** Newest modification time under path (folders count: deleting a file changes its folder's). */
function newest(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let t = st.mtimeMs;
  for (const name of readdirSync(path))
    if (name !== 'node_modules') t = Math.max(t, newest(join(path, name)));
  return t;
}

/** Why a build is needed (a missing or older output), or null when the outputs are current. */
export function staleReason(root = repo, sources = SOURCES, outputs = OUTPUTS) {
  const source = Math.max(...sources.map((s) => newest(join(root, s))));
  for (const o of outputs) {
    const path = join(root, o);
    if (!existsSync(path)) return `${o} is missing`;
    if (statSync(path).mtimeMs < source) return `${o} is older than the sources`;
  }
  return null;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const reason = staleReason();
  if (reason) {
    console.info(`building (${reason}): npm run build`);
    // A development React would be bundled under NODE_ENV=test/development.
    const r = spawnSync('npm', ['run', 'build'], {
      cwd: repo,
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: 'production' },
    });
    process.exit(r.status ?? 1);
  }
}
