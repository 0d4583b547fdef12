import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import multipart from '@fastify/multipart';
import { API_PREFIX } from '@portal/contract/api';
import type { Config } from './platform/config';
import type { Database } from './platform/db/client';
import { lastMigration, migrate } from './platform/db/migrate';
import { createClock, type BusinessClock } from './platform/clock';
import { Keyring } from './platform/envelope/keyring';
import { dbNonceStore, redisNonceStore, type NonceStore } from './platform/envelope/nonces';
import { createHttp } from './platform/http/app';
import { addScopeKinds } from './platform/auth/row-scope';
import { countActiveSessions, SessionCache } from './platform/auth/sessions';
import { installHealth, Readiness } from './platform/http/health';
import { addMetricSource, installHttpMetrics } from './platform/metrics';
import { installWatchdog } from './platform/http/watchdog';
import { installSignInLimits, installSecurity } from './platform/http/security';
import { publishDocs } from './platform/http/docs';
import type { RouteRecord } from './platform/http/route';
import { Registries, type ModuleContext, type PortalModule, type SeedContext } from './platform/module';
import { runFirstStart, seedMenus, type FirstStartResult } from './platform/seed';
import { MODULES } from './modules';
import { LiveParams } from './platform/params';
import { PORTAL_CONFIG_PATH, registerPortalConfig } from './platform/http/portal-config';

/** The server package's root (holds migrations/), from src/ in dev and tests or dist/ when built. */
export function serverRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'migrations'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('cannot find the server migrations folder');
    dir = up;
  }
  return dir;
}

export interface Portal {
  app: FastifyInstance;
  /** Drained on SIGTERM before close (docs/operations.md "Stopping a server"). */
  readiness: Readiness;
  routes: RouteRecord[];
  clock: BusinessClock;
  keyring: Keyring;
  /** This portal's registries (its document types, usage checks): tests read what modules registered. */
  registries: Registries;
  /** What the first start created (`created: false` on every later start). */
  firstStart: FirstStartResult;
  close(): Promise<void>;
}

export interface BuildOptions {
  config: Config;
  database: Database;
  logger?: boolean | object;
  /** Business modules; default every module of the product (tests may add a sample one). */
  modules?: readonly PortalModule[];
  /** Called inside the first start's transaction, before it commits (main.ts saves the passwords). */
  onFirstStart?: (result: FirstStartResult) => void;
}

/** Migrates, seeds and assembles the API (and the SPA when built) on one Fastify instance. */
export async function buildPortal(options: BuildOptions): Promise<Portal> {
  // What a start opened before it failed is closed again: a failed start in a process that goes on
  // (a test, a supervisor's retry) leaves no listener, timer or Redis connection behind.
  const opened: (() => Promise<unknown>)[] = [];
  try {
    return await startPortal(options, opened);
  } catch (err) {
    for (const close of opened.reverse()) await close().catch(() => undefined);
    throw err;
  }
}

async function startPortal(
  { config: given, database, logger, modules = MODULES, onFirstStart }: BuildOptions,
  opened: (() => Promise<unknown>)[],
): Promise<Portal> {
  const webDist = given.webDist ?? resolve(serverRoot(), '../web/dist');
  const config: Config = { ...given, webDist: existsSync(join(webDist, 'index.html')) ? webDist : undefined };
  const log = (msg: string) => console.info(msg);
  const migrations = join(serverRoot(), 'migrations');
  await migrate(database, migrations);
  const { db } = database;
  // 参数设置 before anything reads the session or upload settings (docs/operations.md).
  const params = new LiveParams(config);
  await params.seedDefaults(db);
  await params.load(db);
  const clock = createClock(config.businessDate);
  const keyring = new Keyring(db, config.rsaRotationMs);
  await keyring.init();

  let redis: Redis | undefined;
  let nonces: NonceStore;
  if (config.redisUrl) {
    // Loaded only when configured (most servers and test portals have no Redis).
    const { Redis } = await import('ioredis');
    redis = new Redis(config.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 2 });
    const connection = redis;
    opened.push(() => connection.quit());
    await redis.connect();
    nonces = redisNonceStore(redis);
  } else {
    nonces = dbNonceStore(db);
  }

  const readiness = new Readiness();
  const sessions = new SessionCache(database.changes, () => config.sessionIdleMs);
  const { app, apiOn, routes } = createHttp({
    config,
    db,
    keyring,
    nonces,
    sessions,
    readiness,
    ...(logger !== undefined ? { logger } : {}),
  });
  opened.push(() => app.close());
  installHttpMetrics(app);
  installHealth(app, {
    db,
    readiness,
    lastMigration: lastMigration(migrations),
    metricsToken: config.metricsToken,
  });
  params.follow(database.changes, db, (err) => app.log.error({ err }, 'reading 参数设置 failed'));
  installWatchdog(app, database.inFlight);
  await installSecurity(app, config, redis);
  installSignInLimits(app, config);
  // Uploads (files, xlsx imports) are parsed for every module's calls.
  await app.register(multipart, {
    limits: { fileSize: config.uploadLimitBytes, files: 1, fields: 10, parts: 12, fieldSize: 1024 },
  });
  const registries = new Registries();
  // Every module's row-scope kinds before any route names one (platform/auth/row-scope.ts).
  for (const m of modules) if (m.scopeKinds) addScopeKinds(m.scopeKinds);
  const shared = { db, database, config, keyring, clock, params, registries };
  // Each module is a plugin of its own under /api: what it hooks or decorates stays on its instance.
  for (const m of modules) {
    await app.register(
      async (instance) => {
        const ctx: ModuleContext = { ...shared, app: instance, api: apiOn(instance, m.name) };
        await m.register(ctx);
      },
      { prefix: API_PREFIX },
    );
  }
  publishDocs(app, routes);
  registerPortalConfig(app, config);

  if (config.webDist) {
    const { default: fastifyStatic } = await import('@fastify/static');
    await app.register(fastifyStatic, {
      root: config.webDist,
      wildcard: false,
      index: false,
      maxAge: '1y',
      immutable: true,
      // Rendered from the settings instead (platform/http/portal-config.ts).
      globIgnore: [PORTAL_CONFIG_PATH.slice(1)],
    });
  }

  await seedMenus(db);
  const seed = async (on: SeedContext['db']) => {
    const seedCtx: SeedContext = { db: on, config, clock, log, registries };
    for (const m of modules) if (m.seed) await m.seed(seedCtx);
  };
  const firstStart = await runFirstStart({
    db,
    config,
    clock,
    log,
    modules,
    registries,
    seed,
    ...(onFirstStart ? { beforeCommit: onFirstStart } : {}),
  });
  // Later starts: reference data outside any first start (the first start ran it in its transaction).
  if (!firstStart.created) await seed(db);

  const timers = [
    setInterval(() => void nonces.purge().catch(() => undefined), 60_000),
    setInterval(
      () => void keyring.rotateIfDue().catch((err: unknown) => app.log.error({ err }, 'key rotation failed')),
      // Checked a few times per rotation period, at most every 10 minutes.
      Math.max(1000, Math.min(10 * 60_000, config.rsaRotationMs / 4)),
    ),
  ];
  timers.forEach((t) => t.unref());
  opened.push(async () => timers.forEach((t) => clearInterval(t)));

  await app.ready();
  // Only a portal that started counts in the process's figures: one whose start failed is never
  // closed, and its database may be gone, which would fail every later scrape.
  const dropMetrics = addMetricSource({
    pool: () => database.pool(),
    sessionsActive: () => countActiveSessions(db, config.sessionIdleMs),
    sessionsCached: () => sessions.size,
  });
  return {
    app,
    readiness,
    routes,
    clock,
    keyring,
    registries,
    firstStart,
    close: async () => {
      timers.forEach((t) => clearInterval(t));
      dropMetrics();
      await app.close();
      await redis?.quit();
    },
  };
}
