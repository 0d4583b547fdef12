/**
 * Login flood (bench/README.md): while 120 logins with unknown user names run in
 * parallel from one address (then 180 a minute, the penetration test's pattern), an authenticated
 * file download and a call with a fresh envelope key are started every 100 ms and timed. Three
 * servers, each the production entry (dist/start.cjs) on PGlite:
 *
 *   shipped        the defaults: login limits per IP and per user name, bounded hashing
 *   gate only      login limits off: only the bound on hashes at once protects the pool
 *   unbounded      limits off, hashes unbounded, libuv's default pool of 4 (the old behaviour)
 *
 * `npx tsx bench/login-flood.ts [--seconds 60]`; writes bench/results/login-flood.json.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleServer, bundleStart } from '../apps/server/build.mjs';
import { HttpClient } from '../apps/server/src/testing/http-client';
import { freePort } from './load/server';

const PASSWORD = 'Bench@12345678';
const LOGIN = '/api/admin/portal/api/login/user/mobileNumberLogin';
const INFO = '/api/admin/portal/user/info';
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const FLOOD_SECONDS = arg('seconds', 60);
const PARALLEL = 120;
const PER_MINUTE = 180;

interface Variant {
  name: string;
  env: Record<string, string>;
}

const VARIANTS: Variant[] = [
  { name: 'shipped', env: {} },
  {
    name: 'gate only',
    env: { LOGIN_RATE_PER_IP_PER_MINUTE: '0', LOGIN_RATE_PER_USER_PER_MINUTE: '0' },
  },
  {
    name: 'unbounded',
    env: {
      LOGIN_RATE_PER_IP_PER_MINUTE: '0',
      LOGIN_RATE_PER_USER_PER_MINUTE: '0',
      LOGIN_HASH_CONCURRENCY: '1000',
      LOGIN_HASH_QUEUE: '1000',
      UV_THREADPOOL_SIZE: '4',
    },
  },
];

async function start(
  port: number,
  extra: Record<string, string>,
): Promise<{ child: ChildProcess; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'portal-flood-'));
  const child = spawn(process.execPath, ['apps/server/dist/start.cjs'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      ADMIN_PASSWORD: PASSWORD,
      DEMO_DATA: 'off',
      LOG_LEVEL: 'warn',
      // The measuring client downloads back to back, faster than the API limits allow one
      // address; the login limits are separate settings and stay as each variant says.
      RATE_LIMIT_PER_MINUTE: '0',
      RATE_LIMIT_PER_IP_PER_MINUTE: '0',
      ...extra,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('Portal listening') && resolve());
    child.on('exit', (code) => reject(new Error(`server exited ${code}`)));
  });
  return { child, dir };
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]! : NaN;
};
const summary = (xs: number[]) => ({
  n: xs.length,
  p50: Math.round(pct(xs, 50)),
  p99: Math.round(pct(xs, 99)),
  max: Math.round(Math.max(...xs)),
});

async function timed(f: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await f();
  return performance.now() - t0;
}

async function run(v: Variant) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const { child, dir } = await start(port, v.env);
  try {
    const admin = new HttpClient(base);
    await admin.login('admin', PASSWORD);
    // A 256 KB PDF to download.
    const pdf = Buffer.concat([
      Buffer.from('%PDF-1.4\n'),
      Buffer.alloc(256 * 1024, 0x20),
      Buffer.from('\n%%EOF\n'),
    ]);
    const form = new FormData();
    form.append('file', new Blob([pdf], { type: 'application/pdf' }), 'flood.pdf');
    const up = await fetch(`${base}/api/admin/portal/third/file/store`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.token}` },
      body: form,
    });
    const { data } = (await up.json()) as { data: { fileToken: string } };
    const download = async () => {
      const res = await fetch(`${base}/api/admin/portal/third/file/down/load?fileToken=${data.fileToken}`, {
        headers: { authorization: `Bearer ${admin.token}` },
      });
      const bytes = (await res.arrayBuffer()).byteLength;
      if (res.status !== 200 || bytes !== pdf.length) throw new Error(`download ${res.status} ${bytes}`);
    };
    const freshKey = async () => {
      const c = new HttpClient(base);
      c.token = admin.token;
      await c.ok(INFO);
    };

    // Open loop: a download and a fresh-key call start every 100 ms whether or not the previous
    // ones have answered, so a stall counts once per sample it delays, not once.
    const measure = async (ms: number) => {
      const dl: Promise<number>[] = [];
      const fk: Promise<number>[] = [];
      const end = Date.now() + ms;
      while (Date.now() < end) {
        dl.push(timed(download));
        fk.push(timed(freshKey));
        await new Promise((r) => setTimeout(r, 100));
      }
      return { download: summary(await Promise.all(dl)), freshKey: summary(await Promise.all(fk)) };
    };

    const quiet = await measure(10_000);
    // The flood comes from a process of its own, so its client work does not slow the measuring.
    const flooder = spawn(
      process.execPath,
      ['--import', 'tsx', 'bench/login-flood.ts', '--flood', base, '--seconds', String(FLOOD_SECONDS)],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const exited = new Promise((r) => flooder.once('exit', r));
    let out = '';
    flooder.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    await new Promise<void>((resolve) =>
      flooder.stdout!.on('data', () => out.includes('flooding') && resolve()),
    );
    const flood = await measure(FLOOD_SECONDS * 1000);
    await exited;
    const statuses = JSON.parse(out.slice(out.indexOf('{'))) as Record<string, number>;
    return { variant: v.name, quiet, flood, loginAnswers: statuses };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Child mode: 120 logins at once, then 180 a minute, for the given seconds; prints the answers. */
async function floodFrom(base: string): Promise<void> {
  const statuses: Record<string, number> = {};
  const floodEnd = Date.now() + FLOOD_SECONDS * 1000;
  const clients = await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      const c = new HttpClient(base);
      // Fetches the RSA key and makes K now, not inside the burst.
      await c.call('/api/admin/portal/login/user/rsa/secretKey');
      return c;
    }),
  );
  console.info('flooding');
  const worker = async (c: HttpClient, w: number) => {
    for (let i = 0; Date.now() < floodEnd; i++) {
      const t0 = Date.now();
      const r = await c
        .call(LOGIN, { userName: `nobody-${w}-${i}`, passWord: 'Wrong@1234567', userType: '2' })
        .catch(() => ({ status: 0 }));
      statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      const pause = (PARALLEL / PER_MINUTE) * 60_000 - (Date.now() - t0);
      await new Promise((r) => setTimeout(r, Math.max(0, Math.min(pause, floodEnd - Date.now()))));
    }
  };
  await Promise.all(clients.map((c, w) => worker(c, w)));
  console.info(JSON.stringify(statuses));
}

const floodIndex = process.argv.indexOf('--flood');
if (floodIndex > 0) {
  await floodFrom(process.argv[floodIndex + 1]!);
} else {
  await bundleServer('src/main.ts', 'dist/main.js');
  await bundleStart();
  const results = [];
  for (const v of VARIANTS) {
    const r = await run(v);
    results.push(r);
    console.info(
      `${r.variant.padEnd(10)} quiet: download p50 ${r.quiet.download.p50} ms p99 ${r.quiet.download.p99} ms, fresh key p99 ${r.quiet.freshKey.p99} ms | ` +
        `flood: download p50 ${r.flood.download.p50} ms p99 ${r.flood.download.p99} ms max ${r.flood.download.max} ms (n=${r.flood.download.n}), ` +
        `fresh key p50 ${r.flood.freshKey.p50} ms p99 ${r.flood.freshKey.p99} ms | logins ${JSON.stringify(r.loginAnswers)}`,
    );
  }
  mkdirSync('bench/results', { recursive: true });
  writeFileSync(
    'bench/results/login-flood.json',
    JSON.stringify({ at: new Date().toISOString(), results }, null, 2),
  );
}
