/**
 * The node side of the contract list against the floor, in one process without the network
 * (bench/README.md "Fifteenth pass"): the real portal (buildPortal) on a database the load bench
 * seeded before (BENCH_DATABASE_NAME, PostgreSQL), a floor route as bench-server.ts's, and calls by
 * Fastify's inject, 32 at a time, floor and plaintext list alternately. Prints this process's CPU a
 * call of each (the database's backends are not counted: the same statement for both).
 * Usage: BENCH_DATABASE_NAME=<name> npx tsx bench/load/list-inject.ts [--calls N] [--rounds N]
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../apps/server/src/platform/config';
import { openDatabase } from '../../apps/server/src/platform/db/client';
import type { PortalModule } from '../../apps/server/src/platform/module';
import { buildPortal } from '../../apps/server/src/server';
import { MODULES } from '../../apps/server/src/modules';
import { listContracts } from '../../apps/server/src/modules/contract/queries';
import { KeysetPages } from '../../apps/server/src/platform/http/list';
import { createSession } from '../../apps/server/src/platform/auth/sessions';
import { contractListSchema } from '@portal/contract/contract';
import { AS_OF, FLOOR_PATH, FLOOR_ROUTE, LIST_BODY, LIST_PATH } from './scenarios';
import { load } from './measure';

const arg = (name: string, dflt: number) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : dflt;
};
const calls = arg('--calls', 3000);
const rounds = arg('--rounds', 6);
const base = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const url = new URL(base);
url.pathname = `/${process.env.BENCH_DATABASE_NAME ?? 'portal_bench'}`;
const config = loadConfig({
  ...process.env,
  DATABASE_URL: url.toString(),
  DATA_DIR: mkdtempSync(join(tmpdir(), 'list-inject-')),
  API_ENVELOPE: 'optional',
  RATE_LIMIT_PER_MINUTE: '0',
  RATE_LIMIT_PER_IP_PER_MINUTE: '0',
  DEMO_DATA: 'off',
  LOG_LEVEL: 'warn',
  BUSINESS_DATE: AS_OF,
});
const floorBody = contractListSchema.parse(LIST_BODY);
const admin = { dataScope: 'all' as const, deptId: null, userId: 1 };
const pages = new KeysetPages();
const floor: PortalModule = {
  name: 'bench-floor',
  register({ app, db, api }) {
    // The product's route machinery one part at a time (`--parts`): a body and its validation
    // without a session, and a session without a body.
    const floorData = async () => listContracts(db, floorBody, admin, AS_OF, pages);
    api.post(
      '/bench/parts/body',
      {
        perm: 'public',
        scope: { none: 'the bench floor reads as admin' },
        body: contractListSchema,
        envelope: false,
      },
      floorData,
    );
    api.post(
      '/bench/parts/session',
      { perm: 'session', scope: { none: 'the bench floor reads as admin' }, envelope: false },
      floorData,
    );
    app.post(FLOOR_ROUTE, { config: { perm: 'public' } }, async () => ({
      status: 200,
      ok: true,
      msg: '操作成功',
      data: await listContracts(db, floorBody, admin, AS_OF, pages),
    }));
  },
};
const database = await openDatabase({ databaseUrl: config.databaseUrl! });
const portal = await buildPortal({ config, database, modules: [...MODULES, floor], logger: false });
const token = await createSession(database.db, 1, 3_600_000);
const payload = JSON.stringify(LIST_BODY);
const scenarios: [string, () => Promise<{ statusCode: number; body: string }>][] = [
  ['floor', () => portal.app.inject({ method: 'POST', url: FLOOR_PATH })],
  [
    'plaintext',
    () =>
      portal.app.inject({
        method: 'POST',
        url: LIST_PATH,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        payload,
      }),
  ],
];
if (process.argv.includes('--parts'))
  scenarios.push(
    [
      'body+zod',
      () =>
        portal.app.inject({
          method: 'POST',
          url: '/api/bench/parts/body',
          headers: { 'content-type': 'application/json' },
          payload,
        }),
    ],
    [
      'session',
      () =>
        portal.app.inject({
          method: 'POST',
          url: '/api/bench/parts/session',
          headers: { authorization: `Bearer ${token}` },
        }),
    ],
  );
async function window(call: () => Promise<{ statusCode: number; body: string }>, n: number) {
  let next = 0;
  const worker = async () => {
    while (next++ < n) {
      const r = await call();
      if (r.statusCode !== 200 || !r.body.startsWith('{"status":200,"ok":true')) throw new Error(r.body);
    }
  };
  const c = process.cpuUsage();
  await Promise.all(Array.from({ length: 32 }, worker));
  const d = process.cpuUsage(c);
  return (d.user + d.system) / 1000 / n;
}
for (const [, call] of scenarios) await window(call, calls / 2);
const sums = new Map<string, number[]>();
console.info(`load average before: ${load()}`);
for (let r = 0; r < rounds; r++) {
  const order = r % 2 ? [...scenarios].reverse() : scenarios;
  for (const [name, call] of order) sums.set(name, [...(sums.get(name) ?? []), await window(call, calls)]);
}
console.info(`load average after: ${load()}`);
const mean = (v: number[]) => v.reduce((s, x) => s + x, 0) / v.length;
for (const [name, v] of sums)
  console.info(
    `${name.padEnd(10)} ${mean(v).toFixed(3)} ms a call (rounds: ${v.map((x) => x.toFixed(3)).join(' ')})`,
  );
const [f, p] = [mean(sums.get('floor')!), mean(sums.get('plaintext')!)];
console.info(`plaintext − floor ${((p - f) * 1000).toFixed(1)} µs, floor / plaintext ${(f / p).toFixed(3)}`);
await portal.close();
await database.close();
