/**
 * Production build sizes per chunk (raw and gzip) with their budgets (bench/README.md): the login page's
 * initial JavaScript under 150 KB gzip (issue 42 §4; the login route's own chunk is counted by
 * first-screen.ts); no route chunk over 150 KB gzip beyond the shared vendor
 * chunks (vite.config.ts's groups, `vendor-*`). Exits 1 when a budget is broken. Writes bench/results/web-sizes.json.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = 'apps/web/dist';
if (!existsSync(join(dist, 'index.html'))) {
  console.error('apps/web/dist is missing: run `npm run build -w @portal/web` first');
  process.exit(1);
}
const KB = 1024;
const INITIAL_BUDGET = 150 * KB;
const ROUTE_BUDGET = 150 * KB;

const assets = join(dist, 'assets');
const chunks = readdirSync(assets)
  .filter((f) => f.endsWith('.js'))
  .map((file) => {
    const buf = readFileSync(join(assets, file));
    return { file, raw: buf.length, gzip: gzipSync(buf, { level: 9 }).length };
  })
  .sort((a, b) => b.gzip - a.gzip);

// What index.html loads before any route: its module script and modulepreloads, transitively
// through static imports.
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const initial = new Set<string>();
const queue = [...html.matchAll(/(?:src|href)="\/?assets\/([^"]+\.js)"/g)].map((m) => m[1]!);
while (queue.length) {
  const f = queue.pop()!;
  if (initial.has(f)) continue;
  initial.add(f);
  const code = readFileSync(join(assets, f), 'utf8');
  for (const m of code.matchAll(/(?:^|[;\n])\s*import\s*(?:[^'"()]*?from\s*)?["']\.\/([^"']+\.js)["']/g))
    queue.push(m[1]!);
}
// The shared vendor chunks are the groups of apps/web/vite.config.ts, all named `vendor-<group>-<hash>`
// (React, TanStack Query, zod, echarts, and antd with its rc-components, icons and helpers): a chunk
// is exempt from the route budget by that name only, not by a library's name appearing in it (the
// route chunks are named after their screens and modules). vendor-antd (≈ 380 KB gzip) is over
// 150 KB by design: it is every screen's antd in one file instead of ≈ 70 small ones, and what a
// screen fetches in all is held by first-screen.ts (bench/README.md "First screen").
const vendor = (f: string) => /^vendor-[a-z]+-[\w-]{8}\.js$/.test(f);
const initialGzip = chunks.filter((c) => initial.has(c.file)).reduce((s, c) => s + c.gzip, 0);
const overBudget = chunks.filter((c) => !initial.has(c.file) && !vendor(c.file) && c.gzip > ROUTE_BUDGET);

const fmt = (n: number) => `${(n / KB).toFixed(1)} KB`;
for (const c of chunks)
  console.info(
    `${initial.has(c.file) ? '*' : vendor(c.file) ? 'v' : ' '} ${c.file.padEnd(48)} ${fmt(c.raw).padStart(10)} ${fmt(c.gzip).padStart(10)} gzip`,
  );
console.info('* the login page loads it (index.html graph); v a shared vendor chunk (no route budget)');
console.info(`initial JavaScript (login page): ${fmt(initialGzip)} gzip (budget ${fmt(INITIAL_BUDGET)})`);
mkdirSync('bench/results', { recursive: true });
writeFileSync(
  'bench/results/web-sizes.json',
  JSON.stringify({ date: new Date().toISOString(), initialGzip, chunks, initial: [...initial] }, null, 2),
);
let failed = false;
if (initialGzip > INITIAL_BUDGET) {
  console.error(`budget broken: initial JavaScript ${fmt(initialGzip)} > ${fmt(INITIAL_BUDGET)}`);
  failed = true;
}
for (const c of overBudget) {
  console.error(`budget broken: route chunk ${c.file} ${fmt(c.gzip)} > ${fmt(ROUTE_BUDGET)}`);
  failed = true;
}
process.exit(failed ? 1 : 0);
