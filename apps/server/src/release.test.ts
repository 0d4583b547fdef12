import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeRelease } from '../release.mjs';
import { HttpClient } from './testing/http-client';
import { freePort, serverEnv, spawnServer } from './testing/process';

/**
 * The production folder (docs/operations.md "The production build"): written as `npm run build`
 * writes it (the SPA left out), installed with `npm ci --omit=dev` from the npm cache, started,
 * backed up and restored there, with none of the development tools installed.
 */
const PASSWORD = 'Admin@12345678';
let out: string;
beforeAll(() => {
  out = mkdtempSync(join(tmpdir(), 'portal-release-'));
});
afterAll(() => rmSync(out, { recursive: true, force: true }));

function run(
  cmd: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: out, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

describe('the production folder', { timeout: 600_000 }, () => {
  it('installs with runtime dependencies only, starts, and backs up and restores', async () => {
    writeRelease(out, { web: false });
    const pkg = JSON.parse(readFileSync(join(out, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      devDependencies?: unknown;
    };
    expect(pkg.devDependencies).toBeUndefined();
    expect(Object.keys(pkg.dependencies)).toContain('fastify');
    expect(Object.keys(pkg.dependencies).filter((d) => d.startsWith('@portal/'))).toEqual([]);

    const npmEnv = { ...process.env, NODE_ENV: 'production' };
    const install = await run(
      'npm',
      ['ci', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund'],
      npmEnv,
    );
    expect(install.code, install.output).toBe(0);
    for (const tool of ['vite', 'esbuild', 'tsx', 'vitest', 'typescript', 'unpdf'])
      expect(existsSync(join(out, 'node_modules', tool)), tool).toBe(false);

    const dataDir = join(out, 'data');
    const env = serverEnv(dataDir, { DEMO_DATA: 'off', ADMIN_PASSWORD: PASSWORD });
    const sp = spawnServer(env, await freePort(), join(out, 'apps/server/dist/start.cjs'));
    try {
      await sp.waitFor('Portal listening', 200_000);
      await new HttpClient(sp.url).login('admin', PASSWORD);
    } finally {
      await sp.stop();
    }

    const file = join(out, 'portal.backup');
    const backup = await run('npm', ['run', 'backup', '--', file], env);
    expect(backup.code, backup.output).toBe(0);
    expect(statSync(file).size).toBeGreaterThan(0);
    const restored = join(out, 'restored');
    const restore = await run('npm', ['run', 'restore', '--', file], serverEnv(restored));
    expect(restore.code, restore.output).toBe(0);
    expect(readFileSync(join(restored, 'pg/PG_VERSION'), 'utf8').trim()).toMatch(/^\d+$/);
  });
});
