/**
 * The product server plus the framework/database floor of scenario 3: a bare Fastify route that
 * runs the same list SQL on the same pool with no envelope, session or validation.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
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
import { AS_OF, FLOOR_ROUTE, LIST_BODY, STATEMENTS_ROUTE } from './scenarios';

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
  if (route.endsWith(STATEMENTS_ROUTE)) return;
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
