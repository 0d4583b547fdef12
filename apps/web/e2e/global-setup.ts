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
 * port with a fresh DATA_DIR for each worker of the e2e project (two files run at a time, each
 * against its worker's server: helpers.ts `base`), provide their base URLs, stop them afterwards.
 */
export const ADMIN_PASSWORD = 'Admin@12345678';

const repo = resolve(import.meta.dirname, '../../..');

declare module 'vitest' {
  export interface ProvidedContext {
    /**
     * One server per worker (VITEST_POOL_ID n uses the n-th): its base URL and its log, written as
     * it runs (a failing test prints its warnings: on-failure.ts; '' for a server given by URL).
     */
    servers: { baseUrl: string; log: string }[];
    adminPassword: string;
  }
}

const serverLog = (n: number) => join(repo, `apps/web/test-results/e2e-server-${n}.log`);

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

async function waitForServer(base: string, child: ChildProcess, timeoutMs = 300_000): Promise<void> {
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

interface Started {
  baseUrl: string;
  log: string;
  stop(): Promise<void>;
}

/** A server of its own (port, DATA_DIR, log), once it answers. */
async function startServer(n: number): Promise<Started> {
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
  const logPath = serverLog(n);
  mkdirSync(dirname(logPath), { recursive: true });
  const log = createWriteStream(logPath);
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
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
    await new Promise((r) => log.end(r));
  };
  try {
    await waitForServer(base, child);
  } catch (err) {
    await stop();
    console.error(readFileSync(logPath, 'utf8'));
    throw err;
  }
  return { baseUrl: base, log: logPath, stop };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  project.provide('adminPassword', process.env.E2E_ADMIN_PASSWORD || ADMIN_PASSWORD);
  // E2E_BASE_URL: test a server that is already running (its admin password in E2E_ADMIN_PASSWORD);
  // the files then run one at a time (vitest.config.ts).
  const given = process.env.E2E_BASE_URL?.replace(/\/+$/, '');
  if (given) {
    project.provide('servers', [{ baseUrl: given, log: '' }]);
    return async () => {};
  }
  buildIfStale();
  // A server per worker, started side by side: a file shares its server only with the files its
  // worker ran before it, as all files shared the one server when they ran one at a time.
  const started = await Promise.allSettled(
    Array.from({ length: project.config.maxWorkers }, (_, i) => startServer(i + 1)),
  );
  const servers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await Promise.all(servers.map((s) => s.stop()));
    throw failed.reason;
  }
  project.provide(
    'servers',
    servers.map(({ baseUrl, log }) => ({ baseUrl, log })),
  );
  return async () => {
    await Promise.all(servers.map((s) => s.stop()));
  };
}
