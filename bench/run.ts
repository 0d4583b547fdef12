/**
 * Every benchmark in one command (README): `npm run bench` (small scale, a few minutes) or
 * `npm run bench:full`. Each step prints its numbers and writes bench/results/*.json.
 */
import { spawnSync } from 'node:child_process';

const full = process.argv.includes('1');
const steps: [string, string[]][] = [
  ['plan engine (100,000 plans of 12 periods)', ['npx', 'tsx', 'bench/plan-engine.ts']],
  ['web build', ['npm', 'run', 'build', '-w', '@portal/web']],
  ['web sizes and budgets', ['npx', 'tsx', 'bench/web/sizes.ts']],
  ['first screen: bytes and round trips', ['npx', 'tsx', 'bench/web/first-screen.ts']],
  ['page timings in Chromium', ['npx', 'tsx', 'bench/web/timings.ts', ...(full ? ['--scale', '1'] : [])]],
  ['load scenarios (PostgreSQL)', ['npx', 'tsx', 'bench/load/run.ts', ...(full ? ['--scale', '1'] : [])]],
  [
    'load scenarios (PGlite)',
    ['npx', 'tsx', 'bench/load/run.ts', '--pglite', ...(full ? ['--scale', '1'] : [])],
  ],
];
let failed = 0;
for (const [name, cmd] of steps) {
  console.info(`\n=== ${name}`);
  const r = spawnSync(cmd[0]!, cmd.slice(1), { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
