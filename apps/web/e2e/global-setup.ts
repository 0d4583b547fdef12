import { execSync, spawn, type ChildProcess } from 'node:child_process';
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';

/**
 * Browser tests run against the production build served by the real server: build when the
 * output is missing or older than the sources, start `node apps/server/dist/start.cjs` on a free
 * port with a fresh DATA_DIR, provide the base URL, stop it afterwards.
 */
export const ADMIN_PASSWORD = 'Admin@12345678';

const repo = resolve(import.meta.dirname, '../../..');

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    adminPassword: string;
    /** The server's log, written as it runs: a failing test prints its warnings (on-failure.ts). */
    serverLog: string;
  }
}

export const SERVER_LOG = join(repo, 'apps/web/test-results/e2e-server.log');

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const name of readdirSync(path)) {
    if (name === 'node_modules' || name === 'dist' || name === 'test-results') continue;
    newest = Math.max(newest, newestMtime(join(path, name)));
  }
  return newest;
}

function buildIfStale(): void {
  const outputs = [
    join(repo, 'apps/server/dist/main.js'),
    join(repo, 'apps/server/dist/start.cjs'),
    join(repo, 'apps/web/dist/index.html'),
  ];
  const sources = [
    'apps/web/src',
    'apps/web/public',
    'apps/web/index.html',
    'apps/web/vite.config.ts',
    'apps/server/src',
    'apps/server/migrations',
    'packages/contract/src',
  ];
  const newestSource = Math.max(...sources.map((s) => newestMtime(join(repo, s))));
  const oldestOutput = Math.min(...outputs.map((o) => (existsSync(o) ? statSync(o).mtimeMs : 0)));
  if (oldestOutput > newestSource) return;
  console.log('[e2e] building (npm run build)…');
  // vitest sets NODE_ENV=test, which would give a development React in the bundle.
  execSync('npm run build', { cwd: repo, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolvePort(port));
    });
  });
}

async function waitForServer(base: string, child: ChildProcess, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode}`);
    try {
      const res = await fetch(`${base}/api/admin/portal/login/user/rsa/secretKey`, { method: 'POST' });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error('server did not start in time');
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  project.provide('adminPassword', process.env.E2E_ADMIN_PASSWORD || ADMIN_PASSWORD);
  // E2E_BASE_URL: test a server that is already running (its admin password in E2E_ADMIN_PASSWORD).
  const given = process.env.E2E_BASE_URL?.replace(/\/+$/, '');
  if (given) {
    project.provide('baseUrl', given);
    project.provide('serverLog', '');
    return async () => {};
  }
  buildIfStale();
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-e2e-'));
  const child = spawn(process.execPath, ['apps/server/dist/start.cjs'], {
    cwd: repo,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      ADMIN_PASSWORD,
      NODE_ENV: 'production',
      // Every browser test signs in as admin from 127.0.0.1, far more often than a person would;
      // the login limits are tested in apps/server/src/modules/auth/auth.test.ts.
      LOGIN_RATE_PER_IP_PER_MINUTE: '0',
      LOGIN_RATE_PER_USER_PER_MINUTE: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  mkdirSync(dirname(SERVER_LOG), { recursive: true });
  const log = createWriteStream(SERVER_LOG);
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  project.provide('serverLog', SERVER_LOG);
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitForServer(base, child);
  } catch (err) {
    child.kill('SIGTERM');
    await new Promise((r) => log.end(r));
    console.error(readFileSync(SERVER_LOG, 'utf8'));
    throw err;
  }
  project.provide('baseUrl', base);

  return async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise<void>((r) => {
        const t = setTimeout(() => {
          child.kill('SIGKILL');
          r();
        }, 5000);
        child.once('exit', () => {
          clearTimeout(t);
          r();
        });
      });
    }
    rmSync(dataDir, { recursive: true, force: true });
    log.end();
  };
}
