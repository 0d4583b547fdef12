/**
 * Where the contract list's CPU goes against the floor's (issue 42 §1, bench/README.md "Fifteenth
 * pass"). Usage: BENCH_DATABASE_NAME=<name> npx tsx bench/load/list-profile.ts [--seed]
 * [--seconds N] [--rounds N] [--profile]. Starts the bench server (bench-server.ts) on PostgreSQL
 * (a database seeded at the small scale with `--seed`, or one seeded before), then runs the floor,
 * the plaintext list and the sealed list with a reused key in interleaved windows of 32 connections,
 * and prints for each: calls, the CPU a call of the server process and of its PostgreSQL backends
 * apart, and the database statements a call by their first words. With `--profile` the server
 * runs under `--cpu-prof`, and its profile is split by the windows (the client's and the
 * profile's clocks are both CLOCK_MONOTONIC) into self time a call by function and by package.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { NodeEnvelope } from '../../apps/server/src/testing/node-envelope';
import { FLOOR_PATH, LIST_BODY, LIST_PATH, STATEMENTS_PATH } from './scenarios';
import { checked, load } from './measure';
import { freePort, freshDatabase, signedInAdmin, startServer } from './server';

const arg = (name: string, dflt: number) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : dflt;
};
const seconds = arg('--seconds', 5);
const rounds = arg('--rounds', 2);
const profile = process.argv.includes('--profile');
const seed = process.argv.includes('--seed');
/** `--only floor,plaintext`: those scenarios alone. */
const only =
  process.argv.indexOf('--only') > 0
    ? process.argv[process.argv.indexOf('--only') + 1]!.split(',')
    : undefined;

function procCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

const profDir = mkdtempSync(join(tmpdir(), 'list-profile-'));
if (profile)
  process.env.BENCH_SERVER_NODE_ARGS = `--cpu-prof --cpu-prof-dir=${profDir} --cpu-prof-interval=200`;
const url = await freshDatabase(false, !seed);
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = await startServer(port, url, '0.05', seed);
const backends = new pg.Client({ connectionString: url });
await backends.connect();
const backendCpu = async () => {
  const r = await backends.query<{ pid: number }>(
    'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
  );
  return new Map(r.rows.map((x) => [x.pid, procCpuMs(x.pid)]));
};
const grown = (before: Map<number, number>, after: Map<number, number>) =>
  [...after].reduce((s, [pid, ms]) => s + ms - (before.get(pid) ?? 0), 0);

type Counts = Record<string, { requests: number; statements: number; texts: Record<string, number> }>;
const statements = async (): Promise<Counts> =>
  ((await (await fetch(`${base}${STATEMENTS_PATH}`, { method: 'POST' })).json()) as { data: Counts }).data;

interface Window {
  name: string;
  calls: number;
  serverMs: number;
  backendMs: number;
  fromUs: number;
  toUs: number;
}
const windows: Window[] = [];
try {
  const { auth, key } = await signedInAdmin(base);
  const reused = new NodeEnvelope(key.keyId, key.publicKey);
  const scenarios: [string, () => autocannon.Options['requests']][] = [
    ['floor', () => [{ method: 'POST', path: FLOOR_PATH }]],
    [
      'plaintext',
      () => [
        {
          method: 'POST',
          path: LIST_PATH,
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify(LIST_BODY),
        },
      ],
    ],
    [
      'reused key',
      () => {
        const ready = Array.from({ length: 4000 * seconds }, () => reused.seal('POST', LIST_PATH, LIST_BODY));
        let next = 0;
        return [
          {
            method: 'POST',
            path: LIST_PATH,
            setupRequest: (req) => {
              const s = ready[next++] ?? reused.seal('POST', LIST_PATH, LIST_BODY);
              return { ...req, headers: { ...auth, ...s.headers }, body: s.body };
            },
          },
        ];
      },
    ],
  ];
  if (only) scenarios.splice(0, scenarios.length, ...scenarios.filter(([n]) => only.includes(n)));
  for (const [name, requests] of scenarios)
    await checked(`${name} (warm-up)`, { url: base, connections: 32, duration: 2, requests: requests() });
  await statements();
  const counts = new Map<string, Counts>();
  console.info(`load average before: ${load()}`);
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 ? [...scenarios].reverse() : scenarios;
    for (const [name, requests] of order) {
      const reqs = requests();
      const b = await backendCpu();
      const s = procCpuMs(server.pid!);
      const fromUs = Number(process.hrtime.bigint() / 1000n);
      const { result } = await checked(name, {
        url: base,
        connections: 32,
        duration: seconds,
        requests: reqs,
      });
      const toUs = Number(process.hrtime.bigint() / 1000n);
      windows.push({
        name,
        calls: result.requests.total,
        serverMs: procCpuMs(server.pid!) - s,
        backendMs: grown(b, await backendCpu()),
        fromUs,
        toUs,
      });
      counts.set(name, { ...counts.get(name), ...(await statements()) });
    }
  }
  console.info(`load average after: ${load()}`);
  for (const [name] of scenarios) {
    const w = windows.filter((x) => x.name === name);
    const calls = w.reduce((t, x) => t + x.calls, 0);
    const per = (f: (x: Window) => number) => (w.reduce((t, x) => t + f(x), 0) / calls).toFixed(3);
    console.info(
      `${name.padEnd(11)} ${calls} calls, ${(calls / (seconds * w.length)).toFixed(0)} /s; CPU a call: server ${per((x) => x.serverMs)} ms, PostgreSQL ${per((x) => x.backendMs)} ms, both ${per((x) => x.serverMs + x.backendMs)} ms`,
    );
    for (const [route, r] of Object.entries(counts.get(name) ?? {})) {
      if (!route.includes('contract/list') && !route.includes('floor')) continue;
      console.info(`  ${route}: ${(r.statements / r.requests).toFixed(2)} statements a call`);
      for (const [text, n] of Object.entries(r.texts))
        console.info(`    ${(n / r.requests).toFixed(2)}  ${text.slice(0, 90)}`);
    }
  }
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  await backends.end();
}

if (profile) {
  interface Node {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children?: number[];
  }
  const file = readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'))!;
  const prof = JSON.parse(readFileSync(join(profDir, file), 'utf8')) as {
    nodes: Node[];
    startTime: number;
    samples: number[];
    timeDeltas: number[];
  };
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  /**
   * A sample's part of the call, by the innermost of its frames that names one (a continuation
   * after an await starts a stack of its own, so the async function's frame is its root).
   */
  const PARTS: [string, (n: Node) => boolean][] = [
    ['zod validation', (n) => n.callFrame.url.includes('node_modules/zod')],
    [
      'JSON body read and parse',
      (n) =>
        /^(rawBody|onEnd|onData|ContentTypeParser\.|_parse|defaultJsonParser)/.test(
          n.callFrame.functionName,
        ) || n.callFrame.url.includes('secure-json-parse'),
    ],
    ['drizzle (SQL built, rows mapped)', (n) => n.callFrame.url.includes('node_modules/drizzle-orm')],
    ['pg driver', (n) => /node_modules\/(pg|pg-protocol|pg-pool)\//.test(n.callFrame.url)],
    [
      'fastify',
      (n) => /node_modules\/(fastify|find-my-way|avvio|light-my-request|@fastify)/.test(n.callFrame.url),
    ],
    ['prom-client', (n) => n.callFrame.url.includes('node_modules/prom-client')],
    ['portal code', (n) => n.callFrame.url.includes('bench-server.js')],
    ['node http/net/streams', (n) => /^node:/.test(n.callFrame.url)],
  ];
  const partOf = (id: number): string => {
    const leaf = byId.get(id)!;
    const fn = leaf.callFrame.functionName;
    if (fn === '(garbage collector)' || fn === '(program)' || fn === 'writev' || fn.startsWith('('))
      return fn || '(anonymous)';
    for (let n: Node | undefined = leaf; n; n = byId.get(parent.get(n.id) ?? -1))
      for (const [part, is] of PARTS) if (is(n)) return part;
    return 'other';
  };
  const where = (n: Node) => {
    const u = n.callFrame.url;
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(u)?.[1];
    if (pkg) return pkg;
    if (u.includes('bench-server.js')) return 'portal (bundle)';
    if (u.startsWith('node:')) return u;
    return u ? u.split('/').slice(-1)[0]! : `(${n.callFrame.functionName || 'program'})`;
  };
  const label = (n: Node) =>
    `${n.callFrame.functionName || '(anonymous)'} ${where(n)}${n.callFrame.url ? `:${n.callFrame.lineNumber + 1}` : ''}`;
  const tally = (w: Window[]) => {
    const fn = new Map<string, number>();
    const pkg = new Map<string, number>();
    const part = new Map<string, number>();
    let t = prof.startTime;
    for (let i = 0; i < prof.samples.length; i++) {
      t += prof.timeDeltas[i]!;
      const dt = prof.timeDeltas[i + 1] ?? 0;
      if (!w.some((x) => t >= x.fromUs && t < x.toUs)) continue;
      const n = byId.get(prof.samples[i]!)!;
      if (n.callFrame.functionName === '(idle)') continue;
      fn.set(label(n), (fn.get(label(n)) ?? 0) + dt);
      pkg.set(where(n), (pkg.get(where(n)) ?? 0) + dt);
      const p = partOf(n.id);
      part.set(p, (part.get(p) ?? 0) + dt);
    }
    return { fn, pkg, part, calls: w.reduce((s, x) => s + x.calls, 0) };
  };
  const names = [...new Set(windows.map((w) => w.name))];
  const t = names.map((n) => tally(windows.filter((w) => w.name === n)));
  const show = (title: string, pick: (x: ReturnType<typeof tally>) => Map<string, number>, top: number) => {
    const keys = new Set(t.flatMap((x) => [...pick(x).keys()]));
    const rows = [...keys]
      .map((k) => [k, ...t.map((x) => (pick(x).get(k) ?? 0) / x.calls)] as [string, ...number[]])
      .sort((a, b) => b[2]! - b[1]! - (a[2]! - a[1]!));
    console.info(`\n${title} (µs a call of sampled self time; ${names.join(' | ')}), by plaintext − floor:`);
    for (const r of rows.slice(0, top))
      console.info(
        `  ${r
          .slice(1)
          .map((v) => (v as number).toFixed(1).padStart(7))
          .join(' ')}  ${r[0]}`,
      );
    const sum = t.map((x) => [...pick(x).values()].reduce((s, v) => s + v, 0) / x.calls);
    console.info(`  ${sum.map((v) => v.toFixed(1).padStart(7)).join(' ')}  (all)`);
  };
  show('By part (innermost named frame)', (x) => x.part, 20);
  show('By package', (x) => x.pkg, 25);
  show('By function', (x) => x.fn, 60);
}
