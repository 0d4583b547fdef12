// Bundles the server into dist/main.js (and dist/start.cjs, dist/backup-cli.js). Workspace code
// (@portal/*) is compiled in; npm dependencies stay external and load from node_modules.
// `node build.mjs --release DIR` then writes the production folder (release.mjs).
import { build } from 'esbuild';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(fileURLToPath(import.meta.url));

/** Bundles one entry (relative to the repository or absolute) into a file under dist/. */
export async function bundleServer(entry, outfile) {
  await build({
    entryPoints: [resolve(root, entry)],
    outfile: resolve(root, outfile),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    sourcemap: true,
    logLevel: 'warning',
    plugins: [
      {
        name: 'externals',
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('@portal/') ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
  });
}

/** dist/start.cjs: sets the thread-pool size, then imports dist/main.js (src/start.ts says why). */
export async function bundleStart() {
  await build({
    entryPoints: [resolve(root, 'src/start.ts')],
    outfile: resolve(root, 'dist/start.cjs'),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['./main.js'],
    logLevel: 'warning',
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await bundleServer('src/main.ts', 'dist/main.js');
  await bundleServer('src/backup-cli.ts', 'dist/backup-cli.js');
  await bundleStart();
  const at = process.argv.indexOf('--release');
  if (at > 0) {
    const { writeRelease } = await import('./release.mjs');
    const out = resolve(process.cwd(), process.argv[at + 1] ?? 'release');
    writeRelease(out);
    console.info(`production folder: ${out} (install with npm ci --omit=dev, start with npm start)`);
  }
}
