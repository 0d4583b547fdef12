/**
 * The product server plus the framework/database floor of scenario 3: a bare Fastify route that
 * runs the same list SQL on the same pool with no envelope, session or validation.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { constants, monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { loadConfig } from '../../apps/server/src/platform/config';
import { execOutsideTransaction, openDatabase } from '../../apps/server/src/platform/db/client';
import { boundHeapGrowth } from '../../apps/server/src/platform/heap';
import type { PortalModule } from '../../apps/server/src/platform/module';
import { buildPortal } from '../../apps/server/src/server';
import { MODULES } from '../../apps/server/src/modules';
import { listContracts } from '../../apps/server/src/modules/contract/queries';
import { KeysetPages } from '../../apps/server/src/platform/http/list';
import { contractListSchema } from '@portal/contract/contract';
import { seed } from '../seed/seed';
import { AS_OF, FLOOR_ROUTE, LIST_BODY, RUNTIME_ROUTE, STATEMENTS_ROUTE } from './scenarios';

// The same parsed body and scope the product's route hands the service (admin sees everything).
const floorBody = contractListSchema.parse(LIST_BODY);
const admin = { dataScope: 'all' as const, deptId: null, userId: 1 };
// The route's own page boundaries, as the product's list keeps its own (page 1 reads from the start).
const pages = new KeysetPages();

/**
 * Database statements per request, by route (issue 42 §3: round trips are counted, a figure the
 * machine's load does not move). Every statement the server sends passes `inFlight.begin` on
 * either driver; the request it belongs to is the async context the HTTP server's request event
 * started (`enterWith` before Fastify's own listener runs). Counted per statement's first words.
 */
interface RouteStatements {
  requests: number;
  statements: number;
  texts: Map<string, number>;
}
const byRoute = new Map<string, RouteStatements>();
const request = new AsyncLocalStorage<RouteStatements>();

/**
 * Where a request's time goes besides its own work (issue 42 §3's tail): the process's GC pauses
 * (minor and major, as V8 reports them), its event loop's delay (how late a timer of 10 ms
 * resolution ran: the queue every callback waits in), and the pool's queue, sampled every 10 ms
 * (callers waiting for one of its connections, and connections in use).
 */
const runtime = {
  gc: { minor: 0, minorMs: 0, major: 0, majorMs: 0, maxMs: 0 },
  pool: { samples: 0, waiting: 0, waitingMax: 0, inUse: 0, full: 0 },
};
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    const major = (e as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR;
    const g = runtime.gc;
    if (major) {
      g.major++;
      g.majorMs += e.duration;
    } else {
      g.minor++;
      g.minorMs += e.duration;
    }
    g.maxMs = Math.max(g.maxMs, e.duration);
  }
}).observe({ entryTypes: ['gc'] });
function resetRuntime() {
  runtime.gc = { minor: 0, minorMs: 0, major: 0, majorMs: 0, maxMs: 0 };
  runtime.pool = { samples: 0, waiting: 0, waitingMax: 0, inUse: 0, full: 0 };
  loopDelay.reset();
}
const ms = (ns: number) => +(ns / 1e6).toFixed(1);

const floor: PortalModule = {
  name: 'bench-floor',
  register({ app, db }) {
    // The counts so far, then zero (the runner reads them around a scenario).
    app.post(STATEMENTS_ROUTE, { config: { perm: 'public' } }, async () => {
      const out = Object.fromEntries(
        [...byRoute].map(([route, r]) => [
          route,
          {
            requests: r.requests,
            statements: r.statements,
            texts: Object.fromEntries([...r.texts].sort((a, b) => b[1] - a[1])),
          },
        ]),
      );
      byRoute.clear();
      return { status: 200, ok: true, msg: '操作成功', data: out };
    });
    // The runtime figures since the last call, then zero.
    app.post(RUNTIME_ROUTE, { config: { perm: 'public' } }, async () => {
      const { gc, pool } = runtime;
      const n = Math.max(pool.samples, 1);
      const data = {
        gc: {
          ...gc,
          minorMs: +gc.minorMs.toFixed(1),
          majorMs: +gc.majorMs.toFixed(1),
          maxMs: +gc.maxMs.toFixed(1),
        },
        eventLoopDelayMs: {
          p50: ms(loopDelay.percentile(50)),
          p99: ms(loopDelay.percentile(99)),
          max: ms(loopDelay.max),
          mean: ms(loopDelay.mean),
        },
        pool: {
          max: database.pool().max,
          meanInUse: +(pool.inUse / n).toFixed(1),
          meanWaiting: +(pool.waiting / n).toFixed(1),
          maxWaiting: pool.waitingMax,
          fullShare: +(pool.full / n).toFixed(2),
        },
      };
      resetRuntime();
      return { status: 200, ok: true, msg: '操作成功', data };
    });
    app.post(FLOOR_ROUTE, { config: { perm: 'public' } }, async () => ({
      status: 200,
      ok: true,
      msg: '操作成功',
      data: await listContracts(db, floorBody, admin, AS_OF, pages),
    }));
  },
};

const config = loadConfig();
boundHeapGrowth();
const database = await openDatabase(
  config.databaseUrl
    ? { databaseUrl: config.databaseUrl }
    : { pgliteDir: `${config.dataDir}/pg`, lockDir: config.dataDir },
);
setInterval(() => {
  const p = database.pool();
  const r = runtime.pool;
  r.samples++;
  r.waiting += p.waiting;
  r.waitingMax = Math.max(r.waitingMax, p.waiting);
  r.inUse += p.inUse;
  if (p.inUse >= p.max) r.full++;
}, 10).unref();
const portal = await buildPortal({ config, database, modules: [...MODULES, floor], logger: false });
const begin = database.inFlight.begin.bind(database.inFlight);
database.inFlight.begin = (statement: unknown) => {
  const r = request.getStore();
  if (r) {
    r.statements++;
    const words = String(statement).replace(/\s+/g, ' ').trim().slice(0, 100);
    r.texts.set(words, (r.texts.get(words) ?? 0) + 1);
  }
  return begin(statement);
};
portal.app.server.prependListener('request', (req: { url?: string }) => {
  const route = (req.url ?? '').split('?')[0]!;
  if (route.endsWith(STATEMENTS_ROUTE) || route.endsWith(RUNTIME_ROUTE)) return;
  let r = byRoute.get(route);
  if (!r) byRoute.set(route, (r = { requests: 0, statements: 0, texts: new Map() }));
  r.requests++;
  request.enterWith(r);
});
// BENCH_PHASE=seed loads the dataset and exits; =serve serves a dataset loaded before. Apart, the
// server's memory is what serving costs, not the bulk load (PGlite never returns its heap).
const phase = process.env.BENCH_PHASE ?? 'both';
if (phase !== 'serve') {
  const scale = Number(process.env.BENCH_SEED_SCALE ?? '0.05');
  await database.rawTransaction((conn) => seed({ query: (q, p) => conn.query(q, p) }, scale, AS_OF));
  // Index-only scans need the visibility map a bulk load leaves unset (VACUUM runs outside a transaction).
  await execOutsideTransaction(database, 'vacuum analyze');
}
if (phase === 'seed') {
  await portal.close();
  await database.close();
  console.info('bench dataset loaded');
  process.exit(0);
}
await portal.app.listen({ port: config.port, host: '127.0.0.1' });
console.info(`bench server listening on ${config.port}`);
process.on(
  'SIGTERM',
  () =>
    void portal
      .close()
      .then(() => database.close())
      .then(() => process.exit(0)),
);
