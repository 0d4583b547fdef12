import type { FastifyInstance } from 'fastify';
import type { Config } from './config';
import type { Database, Db } from './db/client';
import type { Api } from './http/route';
import type { Keyring } from './envelope/keyring';
import type { BusinessClock } from './clock';
import type { LiveParams } from './params';

/** What a business module gets: where to register calls, and the shared services. */
export interface ModuleContext {
  api: Api;
  app: FastifyInstance;
  db: Db;
  database: Database;
  config: Config;
  keyring: Keyring;
  clock: BusinessClock;
  /** 参数设置 as this server applies them now (platform/params.ts). */
  params: LiveParams;
}

/** A sign-in made at the first start, printed and written to DATA_DIR/initial-passwords.txt. */
export interface InitialLogin {
  userName: string;
  realName: string;
  /** What the person does, for the newcomer reading the list (业务部 经办, …). */
  duty: string;
  /** Undefined when the operator chose it (ADMIN_PASSWORD): it is not repeated. */
  password: string | undefined;
}

export interface SeedContext {
  db: Db;
  config: Config;
  clock: BusinessClock;
  log: (msg: string) => void;
  /** Demo only: announces a user the demo created, with the password to print. */
  addLogin?: (login: InitialLogin) => void;
}

/**
 * A business area (one folder per area, docs/module-map.md). `seed` runs at every start and must be
 * idempotent (reference data); `demo` runs once, at the first start, when demo data is on, inside
 * the one transaction of the first start (docs/operations.md "The first start"): its `db` is that
 * transaction, so it must not open connections of its own.
 */
export interface PortalModule {
  name: string;
  register(ctx: ModuleContext): void | Promise<void>;
  seed?(ctx: SeedContext): Promise<void>;
  demo?(ctx: SeedContext): Promise<void>;
}
