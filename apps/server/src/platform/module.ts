import type { FastifyInstance } from 'fastify';
import type { Config } from './config';
import type { Database, Db, Executor } from './db/client';
import type { Api } from './http/route';
import type { Keyring } from './envelope/keyring';
import type { BusinessClock } from './clock';
import type { LiveParams } from './params';
import type { ScopeKindDef } from './auth/row-scope';

/**
 * A registry that lives as long as one portal: a module owns it and others add to it (the usage
 * checks a delete asks, the workflow's document types). Made on first use, once per portal, so two
 * portals built in one process (tests) share nothing (docs/architecture.md "Modules").
 */
export interface RegistryKey<T> {
  readonly name: string;
  create(): T;
}

export function registryKey<T>(name: string, create: () => T): RegistryKey<T> {
  return { name, create };
}

/** The registries of one portal, made in the composition root and handed to every module. */
export class Registries {
  private readonly made = new Map<RegistryKey<unknown>, unknown>();

  get<T>(key: RegistryKey<T>): T {
    if (!this.made.has(key)) this.made.set(key, key.create());
    return this.made.get(key) as T;
  }
}

/**
 * Checks another module registers with the owner of some rows: before deleting a row the owner asks
 * each one, and a reason (e.g. '合同HT0001') refuses the delete.
 */
export type UsageCheck = (ex: Executor, code: string) => Promise<string | null>;

export class UsageChecks {
  private readonly checks: UsageCheck[] = [];

  add(check: UsageCheck): void {
    this.checks.push(check);
  }

  /** The first reason a registered check gives, or null when nothing uses the row. */
  async first(ex: Executor, code: string): Promise<string | null> {
    for (const check of this.checks) {
      const reason = await check(ex, code);
      if (reason) return reason;
    }
    return null;
  }

  /** Every reason the registered checks give. */
  async all(ex: Executor, code: string): Promise<string[]> {
    const reasons: string[] = [];
    for (const check of this.checks) {
      const reason = await check(ex, code);
      if (reason) reasons.push(reason);
    }
    return reasons;
  }
}

/** What a business module gets: where to register calls, and the shared services. */
export interface ModuleContext {
  api: Api;
  /**
   * The module's own plugin context (under the `/api` prefix): its hooks, `onClose` and
   * decorations stay on it, not on the root app.
   */
  app: FastifyInstance;
  /** This portal's registries (not the process's). */
  registries: Registries;
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
  registries: Registries;
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
  /**
   * The row-scope kinds of the module's own tables (its `scope-kinds.ts`), registered before any
   * module declares a route (platform/auth/row-scope.ts).
   */
  scopeKinds?: Readonly<Record<string, ScopeKindDef>>;
  register(ctx: ModuleContext): void | Promise<void>;
  seed?(ctx: SeedContext): Promise<void>;
  demo?(ctx: SeedContext): Promise<void>;
}
