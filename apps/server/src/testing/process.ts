import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { serverRoot } from '../server';

/**
 * The real server process for tests (crash, restart, start-up errors, several servers): the
 * built `dist/start.cjs` that `npm start` runs (it sizes the thread pool, then loads
 * `dist/main.js`), built once by test/global-setup.ts.
 */
export const MAIN = join(serverRoot(), 'dist/start.cjs');

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  url: string;
  /** Everything printed so far (stdout and stderr). */
  output(): string;
  /** Resolves with the exit code (null after a signal) once the process has exited. */
  exited(): Promise<number | null>;
  /** Waits until the output contains text (or the process exits first: rejects). */
  waitFor(text: string | RegExp, timeoutMs?: number): Promise<void>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export function freePort(): Promise<number> {
  return new Promise((res) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
  });
}

/** Environment every test server gets: quiet, no rate limits, the given data directory. */
export function serverEnv(
  dataDir: string,
  extra: Record<string, string | undefined> = {},
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '0',
    RATE_LIMIT_PER_IP_PER_MINUTE: '0',
    WEB_DIST: '',
    // A stop answers 503 for this long first (docs/operations.md "Stopping a server"); the tests
    // that need the grace set it.
    DRAIN_GRACE_SECONDS: '0',
  };
  // The test runner's own settings are not the server's.
  delete env.DATABASE_URL;
  delete env.ADMIN_PASSWORD;
  delete env.DEMO_DATA;
  // Redis is given to the tests that mean it (the proxy test), as DATABASE_URL is.
  delete env.REDIS_URL;
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

/** Starts `node dist/start.cjs` (or another entry: the production folder's) without waiting. */
export function spawnServer(env: NodeJS.ProcessEnv, port?: number, main = MAIN): ServerProcess {
  const p = port ?? 0;
  // A server process opens a database: test/database-use.ts keeps such files in the PostgreSQL phase.
  (globalThis as Record<symbol, boolean>)[Symbol.for('portal.test.databaseOpened')] = true;
  const child = spawn(process.execPath, [main], {
    env: { ...env, ...(port !== undefined ? { PORT: String(port) } : {}) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const waiters = new Set<() => void>();
  const onData = (d: Buffer) => {
    out += d.toString();
    for (const w of waiters) w();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exit = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  child.once('exit', () => {
    for (const w of waiters) w();
  });
  const sp: ServerProcess = {
    child,
    port: p,
    url: `http://127.0.0.1:${p}`,
    output: () => out,
    exited: () => exit,
    waitFor: (text, timeoutMs = 90_000) =>
      new Promise<void>((resolve, reject) => {
        const found = () => (typeof text === 'string' ? out.includes(text) : text.test(out));
        const check = () => {
          if (found()) done(resolve);
          else if (child.exitCode !== null || child.signalCode !== null)
            done(() =>
              reject(
                new Error(
                  `server exited (${child.exitCode ?? child.signalCode}) before "${String(text)}":\n${out}`,
                ),
              ),
            );
        };
        const timer = setTimeout(
          () => done(() => reject(new Error(`no "${String(text)}" within ${timeoutMs} ms:\n${out}`))),
          timeoutMs,
        );
        const done = (f: () => void) => {
          clearTimeout(timer);
          waiters.delete(check);
          f();
        };
        waiters.add(check);
        check();
      }),
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exit;
    },
  };
  return sp;
}

/** Starts the server on a free port and waits until it listens. */
export async function startServer(env: NodeJS.ProcessEnv): Promise<ServerProcess> {
  const sp = spawnServer(env, await freePort());
  try {
    await sp.waitFor('Portal listening');
  } catch (err) {
    await sp.stop('SIGKILL');
    throw err;
  }
  return sp;
}

/** A PostgreSQL database of its own for one test (created on TEST_DATABASE_URL's server). */
export async function createPgDatabase(prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is not set');
  const name = `${prefix}_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}
