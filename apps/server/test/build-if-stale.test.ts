import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OUTPUTS, SOURCES, staleReason } from '../../../scripts/build-if-stale.mjs';

/** `npm start` builds only when a source is newer than the build (docs/operations.md "The production build"). */
const root = mkdtempSync(join(tmpdir(), 'portal-stale-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const at = (path: string, seconds: number) => utimesSync(join(root, path), seconds, seconds);

describe('scripts/build-if-stale.mjs', () => {
  it('builds when an output is missing or older than a source, and not when the build is current', () => {
    mkdirSync(join(root, 'src/deep'), { recursive: true });
    mkdirSync(join(root, 'dist'));
    writeFileSync(join(root, 'src/deep/a.ts'), '');
    writeFileSync(join(root, 'src/b.ts'), '');
    const sources = ['src'];
    const outputs = ['dist/main.js'];
    expect(staleReason(root, sources, outputs)).toBe('dist/main.js is missing');

    writeFileSync(join(root, 'dist/main.js'), '');
    for (const p of ['src/deep/a.ts', 'src/b.ts', 'src/deep', 'src']) at(p, 1000);
    at('dist/main.js', 2000);
    expect(staleReason(root, sources, outputs)).toBeNull();

    at('src/deep/a.ts', 3000);
    expect(staleReason(root, sources, outputs)).toBe('dist/main.js is older than the sources');
    at('src/deep/a.ts', 1000);

    // A deleted source changes its folder's time.
    rmSync(join(root, 'src/b.ts'));
    expect(staleReason(root, sources, outputs)).toBe('dist/main.js is older than the sources');
  });

  it('watches what npm run build reads and writes', () => {
    expect(SOURCES).toEqual(
      expect.arrayContaining(['apps/server/src', 'apps/web/src', 'packages/contract/src']),
    );
    expect(OUTPUTS).toEqual(
      expect.arrayContaining([
        'apps/server/dist/start.cjs',
        'apps/server/dist/backup-cli.js',
        'release/package-lock.json',
      ]),
    );
  });
});
