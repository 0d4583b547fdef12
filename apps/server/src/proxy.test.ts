import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@portal/contract/api';
import { CONTRACT_PATHS } from '@portal/contract/contract';
import { AUTH_PATHS } from '@portal/contract/session';
import { FILE_PATHS, type FileInfo } from '@portal/contract/files';
import { MONITOR_PATHS, type OnlineSessionView } from '@portal/contract/monitor';
import { PERMISSION_PATHS, type RoleView } from '@portal/contract/permission';
import { SYSPARAM_PATHS } from '@portal/contract/sysparams';
import { HttpClient, type Fetch } from './testing/http-client';
import { onPostgres } from './testing/harness';
import { createPgDatabase, freePort, serverEnv, spawnServer, type ServerProcess } from './testing/process';
import { tlsFetch } from './testing/tls-fetch';
import { parsePasswordFile, PASSWORD_FILE } from './platform/initial-passwords';
import { serverRoot } from './server';

/**
 * Two servers behind a real proxy (docs/operations.md "Deploying behind nginx"): Debian's nginx
 * with deploy/nginx.conf (only its ports and certificate paths changed) ends TLS in front of two
 * real server processes on one PostgreSQL and one Redis. Through the proxy: a session made on one
 * server works on the other, a 强退 and a role change are seen by both, the client address is the
 * one X-Forwarded-For names, HSTS is sent, a file goes up and comes back, and a rolling restart
 * under steady calls fails none of them.
 *
 * Needs TEST_DATABASE_URL, REDIS_URL and /usr/sbin/nginx (.ci/run provides all three, in its
 * PostgreSQL phase). Elsewhere it is skipped, except in CI (CI=true), where a missing one fails.
 */
const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
const redisUrl = process.env.REDIS_URL;
const runs = onPostgres && !!redisUrl && existsSync(NGINX);
const CONFIG = resolve(serverRoot(), '../../deploy/nginx.conf');

/** Connects as a client elsewhere: nginx sees this address, the servers see nginx's 127.0.0.1. */
const CLIENT_ADDRESS = '127.0.0.2';
const FORGED = '198.51.100.7';

let work: string;
let db: { url: string; drop(): Promise<void> } | undefined;
let nginx: ChildProcess | undefined;
let nginxOut = '';
const servers: ServerProcess[] = [];
let ports: number[];
let env: NodeJS.ProcessEnv;
let base: string;
let httpBase: string;
let transport: Fetch;
let passwords: Map<string, string>;

/** deploy/nginx.conf with this test's ports and certificate; each literal must be there to change. */
function renderConfig(httpsPort: number, httpPort: number, cert: string, key: string): string {
  let text = readFileSync(CONFIG, 'utf8');
  const swap = (from: string, to: string) => {
    if (!text.includes(from)) throw new Error(`deploy/nginx.conf no longer has "${from}"`);
    text = text.split(from).join(to);
  };
  swap('127.0.0.1:8081', `127.0.0.1:${ports[0]}`);
  swap('127.0.0.1:8082', `127.0.0.1:${ports[1]}`);
  swap('listen 443 ssl;', `listen 127.0.0.1:${httpsPort} ssl;`);
  swap('listen [::]:443 ssl;', '');
  swap('listen 80;', `listen 127.0.0.1:${httpPort};`);
  swap('listen [::]:80;', '');
  swap('/etc/ssl/portal/portal.crt', cert);
  swap('/etc/ssl/portal/portal.key', key);
  return text;
}

/** The top of an nginx configuration around the site file, everything under `dir`. */
function mainConfig(dir: string): string {
  return `${process.getuid?.() === 0 ? 'user root;\n' : ''}worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
events { worker_connections 512; }
http {
  access_log ${dir}/access.log;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  # Test only: which server answered, so a call can be sent until the other one has taken it.
  add_header X-Test-Upstream $upstream_addr always;
  include ${dir}/portal.conf;
}
`;
}

async function until(check: () => Promise<boolean>, what: string, limitMs = 20_000): Promise<void> {
  const t0 = Date.now();
  while (!(await check())) {
    if (Date.now() - t0 > limitMs) throw new Error(`${what}: not seen within ${limitMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function ready(port: number): Promise<boolean> {
  try {
    return (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200;
  } catch {
    return false;
  }
}

function startInstance(i: number): ServerProcess {
  const s = spawnServer(env, ports[i]);
  servers[i] = s;
  return s;
}

/** The server that answered (after a retry nginx lists every server it tried). */
const lastUpstream = (res: Response) => (res.headers.get('x-test-upstream') ?? '').split(', ').pop() ?? '';

/** A raw call through the proxy with a session: status, message and which server answered. */
async function callVia(token: string | undefined, client: HttpClient, path: string, body: unknown = {}) {
  const sealed = await client.seal(path, body);
  if (token) sealed.headers.authorization = `Bearer ${token}`;
  const res = await transport(base + sealed.url, {
    method: 'POST',
    headers: sealed.headers,
    ...(sealed.body !== undefined ? { body: sealed.body } : {}),
  });
  const json = (await res.json()) as { status: number; msg: string };
  return { status: json.status, msg: json.msg, upstream: lastUpstream(res) };
}

/** Calls until each server has answered once; answers the status each gave. */
async function onBoth(
  client: HttpClient,
  path: string,
): Promise<Map<string, { status: number; msg: string }>> {
  const seen = new Map<string, { status: number; msg: string }>();
  for (let i = 0; i < 20 && seen.size < 2; i++) {
    const r = await callVia(client.token, client, path);
    seen.set(r.upstream, { status: r.status, msg: r.msg });
  }
  expect([...seen.keys()].sort()).toEqual(ports.map((p) => `127.0.0.1:${p}`).sort());
  return seen;
}

const statuses = (m: Map<string, { status: number }>) => [...m.values()].map((v) => v.status);

beforeAll(async () => {
  if (!runs) return;
  work = mkdtempSync(join(tmpdir(), 'portal-proxy-'));
  for (const d of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi', 'data']) mkdirSync(join(work, d));
  const cert = join(work, 'portal.crt');
  const key = join(work, 'portal.key');
  // prettier-ignore
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=localhost',
    '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost', '-keyout', key, '-out', cert,
  ], { stdio: 'ignore' });
  transport = tlsFetch({
    ca: readFileSync(cert, 'utf8'),
    localAddress: CLIENT_ADDRESS,
    headers: { 'x-forwarded-for': FORGED },
  });

  db = await createPgDatabase('proxy');
  ports = [await freePort(), await freePort()];
  env = serverEnv(join(work, 'data'), {
    DATABASE_URL: db.url,
    REDIS_URL: redisUrl,
    TRUST_PROXY: '127.0.0.1',
    CHROMIUM_PATH: 'off',
    // Long enough to be seen draining by the calls of the rolling restart.
    DRAIN_GRACE_SECONDS: '1',
  });
  startInstance(0);
  startInstance(1);
  await Promise.all(servers.map((s) => s.waitFor('Portal listening', 180_000)));
  passwords = parsePasswordFile(readFileSync(join(work, 'data', PASSWORD_FILE), 'utf8'));

  const [httpsPort, httpPort] = [await freePort(), await freePort()];
  writeFileSync(join(work, 'portal.conf'), renderConfig(httpsPort, httpPort, cert, key));
  writeFileSync(join(work, 'nginx.conf'), mainConfig(work));
  nginx = spawn(NGINX, ['-p', work, '-c', join(work, 'nginx.conf'), '-e', join(work, 'error.log')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  nginx.stdout!.on('data', (d: Buffer) => (nginxOut += d.toString()));
  nginx.stderr!.on('data', (d: Buffer) => (nginxOut += d.toString()));
  base = `https://localhost:${httpsPort}`;
  httpBase = `http://localhost:${httpPort}`;
  await until(async () => {
    if (nginx!.exitCode !== null) throw new Error(`nginx exited: ${nginxOut}`);
    try {
      return (await transport(`${base}/healthz`)).status === 200;
    } catch {
      return false;
    }
  }, 'nginx answering');
}, 300_000);

afterAll(async () => {
  if (nginx && nginx.exitCode === null) {
    const gone = new Promise((r) => nginx!.once('exit', r));
    nginx.kill('SIGQUIT');
    await gone;
  }
  await Promise.all(servers.map((s) => s.stop()));
  if (work) rmSync(work, { recursive: true, force: true });
  await db?.drop();
});

describe('prerequisites', () => {
  it.runIf(process.env.CI === 'true')('are all here in CI (nginx, PostgreSQL, Redis)', () => {
    // In CI this test must run, never skip: .ci/run installs nginx and starts Redis for it.
    expect(existsSync(NGINX), `${NGINX} is missing`).toBe(true);
    if (onPostgres) expect(redisUrl, 'REDIS_URL is not set').toBeTruthy();
  });
});

describe.runIf(runs)('two servers behind nginx', () => {
  const list = `/api${CONTRACT_PATHS.list}`;

  it('share a session made on one with the other, over HTTPS with HSTS; plain HTTP is sent to HTTPS', async () => {
    const auditor = new HttpClient(base, transport);
    await auditor.login('auditor', passwords.get('auditor')!);
    const both = await onBoth(auditor, list);
    expect(statuses(both)).toEqual([200, 200]);

    const res = await transport(`${base}/api${AUTH_PATHS.rsaKey}`, { method: 'POST' });
    expect(res.status).toBe(200);
    expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000');
    const plain = await transport(`${httpBase}/`);
    expect(plain.status).toBe(301);
    expect(plain.headers.get('location')).toMatch(/^https:\/\/localhost\//);
    // /metrics is not served through the proxy.
    expect((await transport(`${base}/metrics`)).status).toBe(404);
  });

  it('log the client address from X-Forwarded-For (the one nginx saw, not a forged one)', async () => {
    const admin = new HttpClient(base, transport);
    await admin.login('admin', passwords.get('admin')!);
    const online = await admin.ok<Page<OnlineSessionView>>(`/api${MONITOR_PATHS.onlineList}`, {
      pageSize: 100,
    });
    const mine = online.list.find((s) => s.current)!;
    expect(mine.ip).toBe(CLIENT_ADDRESS);
  });

  it('see a 强退 and a role change made through either server', async () => {
    const admin = new HttpClient(base, transport);
    await admin.login('admin', passwords.get('admin')!);
    const colleague = new HttpClient(base, transport);
    await colleague.login('checker', passwords.get('checker')!);
    expect(statuses(await onBoth(colleague, list))).toEqual([200, 200]);
    const online = await admin.ok<Page<OnlineSessionView>>(`/api${MONITOR_PATHS.onlineList}`, {
      pageSize: 500,
      userName: 'checker',
    });
    const target = online.list.sort((x, y) => y.sessionId - x.sessionId)[0]!;
    await admin.ok(`/api${MONITOR_PATHS.onlineForceLogout}`, { sessionId: target.sessionId });
    await until(async () => statuses(await onBoth(colleague, list)).every((s) => s === 403), '强退 on both');
    for (const answer of (await onBoth(colleague, list)).values()) {
      expect(answer.msg).toBe('您已被管理员强制下线，请重新登录');
    }

    // The read-only role loses every code: the auditor is refused by both servers.
    const auditor = new HttpClient(base, transport);
    await auditor.login('auditor', passwords.get('auditor')!);
    expect(statuses(await onBoth(auditor, list))).toEqual([200, 200]);
    const roles = await admin.ok<Page<RoleView>>(`/api${PERMISSION_PATHS.roleList}`, { pageSize: 100 });
    const viewer = roles.list.find((r) => r.code === 'viewer')!;
    await admin.ok(`/api${PERMISSION_PATHS.roleCfgSave}`, {
      bizCode: viewer.bizCode,
      version: viewer.version,
      menuCodes: [],
    });
    await until(async () => statuses(await onBoth(auditor, list)).every((s) => s === 401), 'role change');
  });

  it('take an upload on one server and give it back on the other', async () => {
    const admin = new HttpClient(base, transport);
    await admin.login('admin', passwords.get('admin')!);
    // Larger than nginx's default 1 MB body limit: deploy/nginx.conf raises it.
    const content = Buffer.concat([
      Buffer.from('%PDF-1.4\n'),
      Buffer.alloc(3 * 1024 * 1024, 0x20),
      Buffer.from('\n%%EOF\n'),
    ]);
    const form = new FormData();
    form.append('file', new Blob([content], { type: 'application/pdf' }), '保理合同.pdf');
    const up = await transport(`${base}/api${FILE_PATHS.upload}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.token!}` },
      body: form,
    });
    const uploaded = (await up.json()) as { status: number; msg: string; data: FileInfo };
    expect(uploaded.status, uploaded.msg).toBe(200);
    const uploadedBy = lastUpstream(up);

    // Downloads until the other server has served one (each token is single-use).
    const servedBy = new Set<string>();
    for (let i = 0; i < 10 && !(servedBy.size === 2); i++) {
      const { downloadToken } = await admin.ok<{ downloadToken: string }>(`/api${FILE_PATHS.downloadToken}`, {
        fileToken: uploaded.data.fileToken,
      });
      // Round robin would pair each download with the same server: a probe between shifts it.
      if (i % 2 === 1) await transport(`${base}/healthz`);
      const q = new URLSearchParams({ fileToken: uploaded.data.fileToken, downloadToken });
      const down = await transport(`${base}/api${FILE_PATHS.download}?${q.toString()}`);
      expect(down.status).toBe(200);
      const bytes = Buffer.from(await down.arrayBuffer());
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(
        createHash('sha256').update(content).digest('hex'),
      );
      servedBy.add(lastUpstream(down));
    }
    expect(servedBy.size).toBe(2);
    expect(servedBy.has(uploadedBy)).toBe(true);
  });

  it('fail no call during a rolling restart under steady traffic', async () => {
    const admin = new HttpClient(base, transport);
    await admin.login('admin', passwords.get('admin')!);
    const failures: string[] = [];
    const answeredBy = new Map<string, number>();
    let calls = 0;
    let running = true;
    const phase = { name: 'before' };
    const perPhase = new Map<string, number>();
    const worker = async () => {
      while (running) {
        try {
          const r = await callVia(admin.token, admin, `/api${SYSPARAM_PATHS.get}`);
          calls++;
          perPhase.set(phase.name, (perPhase.get(phase.name) ?? 0) + 1);
          const by = `${phase.name} by ${r.upstream}`;
          perPhase.set(by, (perPhase.get(by) ?? 0) + 1);
          answeredBy.set(r.upstream, (answeredBy.get(r.upstream) ?? 0) + 1);
          if (r.status !== 200) failures.push(`${phase.name}: ${r.status} ${r.msg} (${r.upstream})`);
        } catch (err) {
          calls++;
          failures.push(`${phase.name}: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
    };
    const workers = Array.from({ length: 4 }, () => worker());
    const enough = async (name: string, n: number) => {
      const from = perPhase.get(name) ?? 0;
      await until(async () => (perPhase.get(name) ?? 0) >= from + n, `${n} calls while ${name}`, 120_000);
    };
    try {
      await enough('before', 20);
      for (const i of [0, 1]) {
        phase.name = `server ${i} stopping`;
        const code = servers[i]!.stop('SIGTERM');
        await enough(phase.name, 10);
        expect(await code).toBe(0);
        phase.name = `server ${i} down`;
        startInstance(i);
        await enough(phase.name, 10);
        await until(() => ready(ports[i]!), `server ${i} ready again`, 180_000);
        // Taken back by nginx (its fail_timeout over), as the rolling restart of the docs waits for.
        phase.name = `server ${i} back`;
        await enough(`${phase.name} by 127.0.0.1:${ports[i]!}`, 10);
      }
    } finally {
      running = false;
      await Promise.all(workers);
    }
    const phases = [...perPhase].filter(([k]) => !k.includes(' by '));
    console.info(
      `rolling restart through nginx: ${calls} calls, ${failures.length} failed; per phase ${JSON.stringify(
        Object.fromEntries(phases),
      )}`,
    );
    expect(failures.length, failures.slice(0, 8).join('\n')).toBe(0);
    // Both restarted servers took calls again.
    expect([...answeredBy.keys()].filter((u) => u).sort()).toEqual(ports.map((p) => `127.0.0.1:${p}`).sort());
  }, 600_000);
});
