// The production folder (docs/operations.md "The production build"): what `npm run build` leaves in
// release/, installed on a server with `npm ci --omit=dev` and started with `npm start` there.
//
//   release/package.json       runtime dependencies only, pinned to the versions tested here
//   release/package-lock.json  cut from the repository's lock: the same versions and integrity hashes
//   release/apps/server/dist   start.cjs, main.js, backup-cli.js (workspace code bundled in)
//   release/apps/server/migrations
//   release/apps/web/dist      the built SPA (when built)
//
// The paths inside mirror the repository's, so `node apps/server/dist/start.cjs` starts either.
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const serverDir = dirname(fileURLToPath(import.meta.url));
const repo = resolve(serverDir, '../..');
const SERVER = 'apps/server';
const WORKSPACE_PREFIX = '@portal/';

const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));

/** Where Node finds `name` from the package at lock path `from` (its node_modules, then upwards). */
function locate(packages, from, name) {
  let at = from;
  for (;;) {
    const key = `${at ? `${at}/` : ''}node_modules/${name}`;
    if (packages[key]) return key;
    if (!at) return undefined;
    const i = at.lastIndexOf('node_modules/');
    // apps/server → the root; a/node_modules/b → a (scoped names: a/node_modules/@s/b → a).
    at = i < 0 ? '' : at.slice(0, Math.max(0, i - 1));
  }
}

/** The dependencies a package needs installed: its own, optional ones, and peers not marked optional. */
function edges(entry) {
  const peersOptional = entry.peerDependenciesMeta ?? {};
  return [
    ...Object.keys(entry.dependencies ?? {}).map((name) => ({ name, optional: false })),
    ...Object.keys(entry.optionalDependencies ?? {}).map((name) => ({ name, optional: true })),
    ...Object.keys(entry.peerDependencies ?? {})
      .filter((name) => !peersOptional[name]?.optional)
      .map((name) => ({ name, optional: false })),
  ];
}

/**
 * The release's package.json and package-lock.json, from the server's and the contract package's
 * dependencies (workspace packages are bundled, so left out) and the repository's lock.
 */
export function releaseManifest() {
  const rootPkg = readJson(join(repo, 'package.json'));
  const lock = readJson(join(repo, 'package-lock.json'));
  const { packages } = lock;
  const roots = [SERVER, 'packages/contract'];
  const wanted = new Map(); // name → { key, optional }
  for (const ws of roots) {
    for (const { name, optional } of edges(packages[ws])) {
      if (name.startsWith(WORKSPACE_PREFIX)) continue;
      const key = locate(packages, ws, name);
      if (!key) {
        if (optional) continue;
        throw new Error(`release: ${name} (a dependency of ${ws}) is not in package-lock.json`);
      }
      const before = wanted.get(name);
      if (before && before.key !== key)
        throw new Error(`release: ${name} resolves to two versions (${before.key}, ${key})`);
      wanted.set(name, { key, optional: (before?.optional ?? true) && optional });
    }
  }

  // Every package reachable from the direct ones; `required` are those reached without an optional edge.
  const reach = new Set();
  const required = new Set();
  const walk = (key, optional) => {
    const seen = optional ? reach : required;
    if (seen.has(key)) return;
    seen.add(key);
    reach.add(key);
    for (const edge of edges(packages[key])) {
      const dep = locate(packages, key, edge.name);
      if (dep) walk(dep, optional || edge.optional);
      else if (!edge.optional)
        throw new Error(`release: ${edge.name} (needed by ${key}) is not in package-lock.json`);
    }
  };
  for (const { key, optional } of wanted.values()) walk(key, optional);

  // The server's own node_modules (a version that differs from the hoisted one) becomes the root's.
  const renamed = new Map();
  for (const key of reach) {
    const to = key.startsWith(`${SERVER}/`) ? key.slice(SERVER.length + 1) : key;
    if (renamed.has(to)) throw new Error(`release: ${to} would hold two versions; hoist them apart by hand`);
    renamed.set(to, key);
  }

  const pin = (optional) =>
    Object.fromEntries(
      [...wanted]
        .filter(([, w]) => w.optional === optional)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([name, w]) => [name, packages[w.key].version]),
    );
  const pkg = {
    name: rootPkg.name,
    version: readJson(join(serverDir, 'package.json')).version,
    private: true,
    type: 'module',
    engines: rootPkg.engines,
    scripts: {
      start: 'node apps/server/dist/start.cjs',
      backup: 'node apps/server/dist/backup-cli.js backup',
      restore: 'node apps/server/dist/backup-cli.js restore',
    },
    dependencies: pin(false),
    optionalDependencies: pin(true),
  };
  const lockPackages = {
    '': {
      name: pkg.name,
      version: pkg.version,
      dependencies: pkg.dependencies,
      optionalDependencies: pkg.optionalDependencies,
      engines: pkg.engines,
    },
  };
  for (const to of [...renamed.keys()].sort()) {
    const key = renamed.get(to);
    // The repository's dev/peer/optional flags say nothing about the release: recomputed here.
    const entry = { ...packages[key] };
    for (const flag of ['dev', 'devOptional', 'peer', 'optional']) delete entry[flag];
    lockPackages[to] = required.has(key) ? entry : { ...entry, optional: true };
  }
  return {
    pkg,
    lock: {
      name: pkg.name,
      version: pkg.version,
      lockfileVersion: 3,
      requires: true,
      packages: lockPackages,
    },
  };
}

/**
 * Writes the production folder at `out` from the built apps/server/dist and apps/web/dist
 * (`web: false` leaves the SPA out: the server then serves the API alone).
 */
export function writeRelease(out, { web = true } = {}) {
  const dist = join(serverDir, 'dist');
  for (const file of ['start.cjs', 'main.js', 'backup-cli.js'])
    if (!existsSync(join(dist, file)))
      throw new Error(`release: ${dist}/${file} is missing; build the server first`);
  const webDist = join(repo, 'apps/web/dist');
  if (web && !existsSync(join(webDist, 'index.html')))
    throw new Error(`release: ${webDist}/index.html is missing; build the web first (npm run build)`);
  const { pkg, lock } = releaseManifest();
  rmSync(out, { recursive: true, force: true });
  mkdirSync(join(out, SERVER), { recursive: true });
  cpSync(dist, join(out, SERVER, 'dist'), { recursive: true });
  cpSync(join(serverDir, 'migrations'), join(out, SERVER, 'migrations'), { recursive: true });
  if (web) cpSync(webDist, join(out, 'apps/web/dist'), { recursive: true });
  writeFileSync(join(out, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  writeFileSync(join(out, 'package-lock.json'), `${JSON.stringify(lock, null, 2)}\n`);
}
