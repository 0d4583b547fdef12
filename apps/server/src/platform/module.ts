import type { FastifyInstance } from 'fastify';
import type { Config } from './config';
import type { Database, Db } from './db/client';
import type { Api } from './http/route';
import type { Keyring } from './envelope/keyring';
import type { BusinessClock } from './clock';

/** What a business module gets: where to register calls, and the shared services. */
export interface ModuleContext {
  api: Api;
  app: FastifyInstance;
  db: Db;
  database: Database;
  config: Config;
  keyring: Keyring;
  clock: BusinessClock;
}

export interface SeedContext {
  db: Db;
  config: Config;
  clock: BusinessClock;
  log: (msg: string) => void;
}

/**
 * A business area (DESIGN.md: one folder per area). `seed` runs at every start and must be
 * idempotent (reference data); `demo` runs once, on a fresh database, when demo data is on.
 */
export interface PortalModule {
  name: string;
  register(ctx: ModuleContext): void | Promise<void>;
  seed?(ctx: SeedContext): Promise<void>;
  demo?(ctx: SeedContext): Promise<void>;
}
