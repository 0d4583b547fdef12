/**
 * Load scenarios against a real server on loopback (issue 14). Usage: tsx bench/load/run.ts
 * [--scale small|1]. PostgreSQL at BENCH_DATABASE_URL (default the machine's, a fresh database
 * portal_bench), or PGlite with --pglite. Writes bench/results/load.json.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { HttpClient } from '../../apps/server/src/platform/testing/http-client';
import { NodeEnvelope } from '../../apps/server/src/platform/testing/node-envelope';
import { FLOOR_PATH, LIST_BODY, LIST_PATH } from './scenarios';

const scale = process.argv.includes('1') ? 'full' : 'small';
const usePglite = process.argv.includes('--pglite');
const duration = scale === 'full' ? 20 : 6;
const connections = 32;
const PASSWORD = 'Bench@12345678';

async function freePort(): Promise<number> {
  return new Promise((res) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
  });
}

async function freshDatabase(): Promise<string | undefined> {
  if (usePglite) return undefined;
  const base = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  await c.query('drop database if exists portal_bench with (force)');
  await c.query('create database portal_bench');
  await c.end();
  const url = new URL(base);
  url.pathname = '/portal_bench';
  return url.toString();
}

function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : 0;
  } catch {
    return 0;
  }
}

async function startServer(port: number, databaseUrl: string | undefined): Promise<ChildProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-'));
  const child = spawn('npx', ['tsx', 'bench/load/bench-server.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      ADMIN_PASSWORD: PASSWORD,
      API_ENVELOPE: 'optional',
      RATE_LIMIT_PER_MINUTE: '0',
      DEMO_DATA: 'off',
      LOG_LEVEL: 'warn',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('bench server listening') && resolve());
    child.on('exit', (code) => reject(new Error(`bench server exited ${code}`)));
  });
  return child;
}

interface Outcome {
  scenario: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

async function run(name: string, opts: autocannon.Options): Promise<Outcome> {
  const r = await autocannon({ connections, duration, ...opts });
  const o = {
    scenario: name,
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
  };
  console.info(
    `${name.padEnd(34)} ${String(o.rps).padStart(7)} req/s  p50 ${o.p50} ms  p99 ${o.p99} ms  non2xx ${o.non2xx}  errors ${o.errors}`,
  );
  return o;
}

const databaseUrl = await freshDatabase();
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = await startServer(port, databaseUrl);
let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb(server.pid!))), 500);
try {
  const client = new HttpClient(base);
  await client.login('admin', PASSWORD);
  const keyRes = await fetch(`${base}/api/admin/portal/login/user/rsa/secretKey`, { method: 'POST' });
  const { data: key } = (await keyRes.json()) as { data: { keyId: string; publicKey: string } };
  const auth = { authorization: `Bearer ${client.token}` };
  const reused = new NodeEnvelope(key.keyId, key.publicKey);
  const fresh = new NodeEnvelope(key.keyId, key.publicKey);
  const sealed = (env: NodeEnvelope, rotate: boolean) => ({
    method: 'POST' as const,
    path: LIST_PATH,
    setupRequest: (req: autocannon.Request) => {
      if (rotate) env.rotate();
      const s = env.seal('POST', LIST_PATH, LIST_BODY);
      return { ...req, headers: { ...auth, ...s.headers }, body: s.body };
    },
  });

  const results: Outcome[] = [];
  results.push(
    await run('floor: bare route, same SQL', { url: base, requests: [{ method: 'POST', path: FLOOR_PATH }] }),
  );
  results.push(
    await run('list, plaintext (envelope off)', {
      url: base,
      requests: [
        {
          method: 'POST',
          path: LIST_PATH,
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify(LIST_BODY),
        },
      ],
    }),
  );
  results.push(await run('list, envelope, reused key', { url: base, requests: [sealed(reused, false)] }));
  results.push(
    await run('list, envelope, fresh key per call', { url: base, requests: [sealed(fresh, true)] }),
  );

  const by = (s: string) => results.find((r) => r.scenario.startsWith(s))!.rps;
  const ratios = {
    productOverFloor: +(by('list, envelope, reused') / by('floor')).toFixed(2),
    reusedKeyOverPlaintext: +(by('list, envelope, reused') / by('list, plaintext')).toFixed(2),
    freshKeyOverPlaintext: +(by('list, envelope, fresh') / by('list, plaintext')).toFixed(2),
  };
  const report = {
    date: new Date().toISOString(),
    scale,
    database: databaseUrl ? 'postgresql' : 'pglite',
    connections,
    duration,
    results,
    ratios,
    peakServerRssMb: peakRss,
  };
  console.info(JSON.stringify(ratios), `peak server RSS ${peakRss} MB`);
  mkdirSync('bench/results', { recursive: true });
  writeFileSync(`bench/results/load-${report.database}.json`, JSON.stringify(report, null, 2));
} finally {
  clearInterval(sampler);
  server.kill('SIGTERM');
}
