import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import {
  createClientKey,
  importRsaPublicKey,
  isClientKeyFresh,
  sealRequest,
  type ClientEnvelopeKey,
} from '@portal/contract/envelope';
import { API_PREFIX, type ApiResponse } from '@portal/contract/api';
import type { Config } from '../platform/config';
import { openDatabase, type Database } from '../platform/db/client';
import { nextCode } from '../platform/db/codes';
import { isNull } from 'drizzle-orm';
import { depts, roleMenus, roles, userRoles, users } from '../platform/auth/schema';
import { hashPassword, PASSWORD_HASH_COST } from '../platform/auth/password-hash';
import { buildPortal, type Portal } from '../server';
import { MODULES } from '../modules';
import type { PortalModule } from '../platform/module';

import {
  FIRST_START_SETTINGS,
  TEST_ADMIN_PASSWORD,
  TEST_PASSWORD_HASH_COST,
  testConfig,
} from './test-config';

export { TEST_ADMIN_PASSWORD, TEST_PASSWORD_HASH_COST };

/** One contract path as the server serves it (under `/api`). */
export const served = (path: string): string => `${API_PREFIX}${path}`;

/**
 * A contract package's path table as the server serves it, for test calls:
 * `servedPaths(CREDIT_PATHS).list` is `/api` + `CREDIT_PATHS.list`.
 */
export function servedPaths<T extends Record<string, string>>(paths: T): { readonly [K in keyof T]: string } {
  return Object.fromEntries(Object.entries(paths).map(([k, v]) => [k, served(v)])) as {
    [K in keyof T]: string;
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** A tarball of a PGlite data directory with every migration applied ('' on PostgreSQL). */
    pgliteTemplate: string;
    /** A PostgreSQL database with every migration applied, to copy per test database ('' on PGlite). */
    pgTemplate: string;
    /**
     * The migrated template after one first start with the demo and the test settings, made by
     * the global set-up when the run selects a file that asks for the demo ('' otherwise): PGlite,
     * a tarball of its data directory; PostgreSQL, a database to copy.
     */
    demoTemplate: string;
    /**
     * The migrated template after one first start with the test settings alone, made by the global
     * set-up when the run selects a file that calls `createTestPortal()` ('' otherwise): as the demo
     * template is.
     */
    startedTemplate: string;
  }
}

/** Server tests run on PGlite, or on PostgreSQL when TEST_DATABASE_URL is set (README "Tests"). */
export const onPostgres = !!process.env.TEST_DATABASE_URL;

export interface TestDb {
  database: Database;
  /** On PostgreSQL: the URL of this test's own database (another connection to it, as a second server would). */
  url: string | undefined;
  drop(): Promise<void>;
}

/** The templates' tarballs, each read once per worker. */
const pgliteTarballs = new Map<Exclude<Start, 'empty'>, Promise<Blob>>();

/**
 * A tarball held in memory for PGlite's `loadDataDir`, which reads it with `arrayBuffer()` once per
 * database: a plain Blob of the ≈ 47 MB template streamed it through Node's Blob reader in small
 * chunks and joined them each time (≈ 0.25 s of CPU a test database; bench/README.md "Eighth
 * pass"); this one answers the bytes it holds, uncopied: PGlite's untar only reads them and copies
 * each file out (a copy a database was ≈ 40 ms of CPU and 47 MB more to collect; "Twelfth pass").
 */
class HeldTarball extends Blob {
  readonly #held: ArrayBuffer;
  constructor(bytes: Uint8Array) {
    super([]);
    // A buffer of exactly these bytes (a Buffer may be a view on a larger pool).
    this.#held = new Uint8Array(bytes).buffer;
  }
  override get size(): number {
    return this.#held.byteLength;
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(this.#held);
  }
}

/**
 * A database to start from: the migrated template, the same after a first start with the test
 * settings alone or with the demo loaded, or empty.
 */
type Start = 'migrated' | 'started' | 'demo' | 'empty';

/** Each template's tarball or database, as the global set-up provides it ('' when not made). */
const TEMPLATES = {
  migrated: { pglite: 'pgliteTemplate', postgres: 'pgTemplate' },
  started: { pglite: 'startedTemplate', postgres: 'startedTemplate' },
  demo: { pglite: 'demoTemplate', postgres: 'demoTemplate' },
} as const;

/**
 * A fresh database with every migration applied, copied from the template that
 * test/global-setup.ts migrated once (README "Tests"): PGlite in memory loaded from its dumped data
 * directory, or a new PostgreSQL database made with `create database … template`. Without a
 * template (a runner without that set-up) or with `empty`, an empty one (the portal migrates it).
 */
export async function createTestDb(
  opts: {
    poolSize?: number;
    /** An empty database instead, for tests of the migrations themselves (upgrades). */
    empty?: boolean;
  } = {},
): Promise<TestDb> {
  return openTestDb(opts.empty ? 'empty' : 'migrated', opts.poolSize);
}

async function openTestDb(start: Start, poolSize?: number): Promise<TestDb> {
  const url = process.env.TEST_DATABASE_URL;
  const template = start === 'empty' ? '' : inject(TEMPLATES[start][url ? 'postgres' : 'pglite']);
  if (!url) {
    let data: Promise<Blob> | undefined;
    if (start !== 'empty' && template) {
      data = pgliteTarballs.get(start) ?? readFile(template).then((b) => new HeldTarball(b));
      pgliteTarballs.set(start, data);
    }
    const database = await openDatabase(data ? { loadDataDir: await data } : {});
    return { database, url: undefined, drop: () => database.close() };
  }
  const name = `t_${process.pid}_${randomBytes(6).toString('hex')}`;
  await adminQuery(
    url,
    template ? `create database ${name} template ${template}` : `create database ${name}`,
  );
  const own = withDatabase(url, name);
  const database = await openDatabase({ databaseUrl: own, poolSize: poolSize ?? 60 });
  return {
    database,
    url: own,
    drop: async () => {
      await database.close();
      await adminQuery(url, `drop database if exists ${name} with (force)`);
    },
  };
}

/** One statement on TEST_DATABASE_URL's own database (creating and dropping test databases). */
async function adminQuery(url: string, text: string, params?: unknown[]): Promise<pg.QueryResult> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    return await admin.query(text, params);
  } finally {
    await admin.end();
  }
}

/** TEST_DATABASE_URL with another database's name. */
function withDatabase(url: string, name: string): string {
  const own = new URL(url);
  own.pathname = `/${name}`;
  return own.toString();
}

export interface CallOptions {
  query?: Record<string, string>;
  /** Send without the envelope (plaintext JSON body). */
  plain?: boolean;
  method?: 'POST' | 'GET';
  headers?: Record<string, string>;
}

export interface CallResult<T = unknown> extends ApiResponse<T> {
  httpStatus: number;
  headers: Record<string, string | string[] | number | undefined>;
  /** The answer's bytes (files, PDFs, HTML). */
  raw: Buffer;
}

/**
 * A client of the portal speaking the wire protocol (docs/protocol.md) through app.inject, as the web client
 * does.
 */
export class TestClient {
  private key: ClientEnvelopeKey | undefined;

  constructor(
    readonly portal: Portal,
    public token?: string,
  ) {}

  async envelopeKey(): Promise<ClientEnvelopeKey> {
    // A new key before the server refuses the old one, as the web client draws one: a file that
    // runs longer than 10 minutes on a starved machine otherwise fails every later call with 422
    // (loan.test.ts's property test, niced at load 35; bench/README.md "Tenth pass").
    if (!this.key || !isClientKeyFresh(this.key)) {
      const { keyId, publicKey } = this.portal.keyring.publicKey();
      this.key = await createClientKey(keyId, await importRsaPublicKey(publicKey));
    }
    return this.key;
  }

  async call<T = unknown>(path: string, body?: unknown, opts: CallOptions = {}): Promise<CallResult<T>> {
    const method = opts.method ?? 'POST';
    const url = path + (opts.query ? `?${new URLSearchParams(opts.query).toString()}` : '');
    const headers: Record<string, string> = {
      ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
    };
    let payload: string | undefined;
    if (opts.plain) {
      if (body !== undefined) {
        payload = JSON.stringify(body);
        headers['content-type'] = 'application/json';
      }
    } else {
      const sealed = await sealRequest(await this.envelopeKey(), method, url, body);
      Object.assign(headers, sealed.headers);
      payload = sealed.body;
    }
    Object.assign(headers, opts.headers);
    const res = await this.portal.app.inject({
      method,
      url,
      headers,
      ...(payload !== undefined ? { payload } : {}),
    });
    const parsed = res.headers['content-type']?.toString().includes('json')
      ? (res.json() as ApiResponse<T>)
      : ({ status: res.statusCode, ok: false, msg: res.body } as ApiResponse<T>);
    return { ...parsed, httpStatus: res.statusCode, headers: res.headers, raw: res.rawPayload };
  }

  /** Calls and insists on success; returns data. */
  async ok<T = unknown>(path: string, body?: unknown, opts: CallOptions = {}): Promise<T> {
    const res = await this.call<T>(path, body, opts);
    if (res.status !== 200) throw new Error(`${path} answered ${res.status} ${res.msg}`);
    return res.data as T;
  }
}

export interface TestPortal {
  portal: Portal;
  database: Database;
  /** On PostgreSQL: the URL of the portal's own database. */
  databaseUrl: string | undefined;
  config: Config;
  /** An anonymous client. */
  client(): TestClient;
  /** Logs in and returns a client carrying the session. */
  login(userName?: string, password?: string): Promise<TestClient>;
  close(): Promise<void>;
}

export async function createTestPortal(
  env: Record<string, string> = {},
  extraModules: PortalModule[] = [],
  opts: {
    /**
     * Load the demo in this portal's own first start, not from the demo template: for tests of
     * the first start itself (`portal.firstStart`, the demo users' generated passwords).
     */
    ownFirstStart?: boolean;
    /**
     * Hash passwords at the servers' own cost, not the cheap one of tests: for the login gate's
     * tests, whose hashes must still be running when the next logins arrive.
     */
    serverHashCost?: boolean;
  } = {},
): Promise<TestPortal> {
  // The demo, when asked for with the settings it is made with, comes loaded (README "Tests").
  const own = opts.ownFirstStart || extraModules.length > 0 || opts.serverHashCost;
  const demo =
    env.DEMO_DATA === 'on' &&
    !own &&
    !Object.keys(env).some((k) => k !== 'DEMO_DATA' && FIRST_START_SETTINGS.includes(k));
  // A portal of the test settings alone comes first-started: only with no setting of its own, since
  // a first start stores settings a later start keeps (参数设置's defaults, the admin's password).
  const started = Object.keys(env).length === 0 && !own;
  // Without the template (a run the global set-up saw no such file in), the portal's own first
  // start makes it.
  const db = await openTestDb(
    demo && inject('demoTemplate') ? 'demo' : started && inject('startedTemplate') ? 'started' : 'migrated',
  );
  return startTestPortal(db, env, extraModules, opts.serverHashCost === true);
}

/**
 * A second portal on a test portal's own database, started with other settings (`env` on top of
 * the test ones), as a server restarted with a changed setting would be: for tests of what a
 * setting changes (CHROMIUM_PATH), without a database of their own to load (its database and a
 * portal cost seconds of CPU; bench/README.md "Tenth pass"). Its close leaves the database to `t`.
 */
export function secondPortal(t: TestPortal, env: Record<string, string>): Promise<TestPortal> {
  const shared: TestDb = { database: t.database, url: t.databaseUrl, drop: () => Promise.resolve() };
  return startTestPortal(shared, env, [], false);
}

async function startTestPortal(
  db: TestDb,
  env: Record<string, string>,
  extraModules: PortalModule[],
  serverHashCost: boolean,
): Promise<TestPortal> {
  // Uploads and other files go to a directory of this portal's own, never the checkout's ./data.
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-test-'));
  const tested = testConfig(dataDir, env);
  const config = serverHashCost ? { ...tested, passwordHashCost: PASSWORD_HASH_COST } : tested;
  const portal = await buildPortal({
    config,
    database: db.database,
    logger: process.env.DBG ? { level: 'error' } : false,
    modules: [...MODULES, ...extraModules],
  });
  const t: TestPortal = {
    portal,
    database: db.database,
    databaseUrl: db.url,
    config,
    client: () => new TestClient(portal),
    async login(userName = 'admin', password = TEST_ADMIN_PASSWORD) {
      const c = new TestClient(portal);
      const data = await c.ok<{ accessToken: string }>('/api/admin/portal/api/login/user/mobileNumberLogin', {
        userName,
        passWord: password,
        userType: '2',
      });
      c.token = data.accessToken;
      return c;
    },
    async close() {
      await portal.close();
      await db.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return t;
}

/**
 * A user holding one new role with exactly these menu/button codes (for permission tests), in an
 * organisation and with a data scope when given (default: none, and 全部数据).
 */
export async function createUserWithCodes(
  db: Database['db'],
  userName: string,
  password: string,
  codes: readonly string[],
  opts: { deptId?: number; dataScope?: 'all' | 'dept' | 'self' } = {},
): Promise<{ userId: number; roleId: number }> {
  const [role] = await db
    .insert(roles)
    .values({
      bizCode: await nextCode(db, 'role'),
      name: `${userName}-role`,
      code: `${userName}-role`,
      dataScope: opts.dataScope ?? 'all',
    })
    .returning({ id: roles.id });
  for (const menuCode of codes) await db.insert(roleMenus).values({ roleId: role!.id, menuCode });
  const [user] = await db
    .insert(users)
    .values({
      userCode: await nextCode(db, 'user'),
      userName,
      realName: userName,
      passwordHash: await hashPassword(password, TEST_PASSWORD_HASH_COST),
      deptId: opts.deptId ?? null,
    })
    .returning({ id: users.id });
  await db.insert(userRoles).values({ userId: user!.id, roleId: role!.id });
  return { userId: user!.id, roleId: role!.id };
}

/** A new organisation under `parentId` (default: the root, 总部); answers its id and code. */
export async function createDept(
  db: Database['db'],
  name: string,
  parentId?: number,
): Promise<{ id: number; bizCode: string }> {
  const parent =
    parentId ?? (await db.select({ id: depts.id }).from(depts).where(isNull(depts.parentId)))[0]!.id;
  const bizCode = await nextCode(db, 'dept');
  const [row] = await db
    .insert(depts)
    .values({ bizCode, name, parentId: parent })
    .returning({ id: depts.id });
  return { id: row!.id, bizCode };
}

/**
 * A portal on the database a Config names (its DATA_DIR's PGlite, or DATABASE_URL), as a restart
 * would start it: opens it, starts the portal, signs in as admin with `password`, runs `work`, then
 * closes both (backup and restore, object storage).
 */
export async function withStartedPortal<T>(
  config: Config,
  password: string,
  work: (admin: TestClient, portal: Portal) => Promise<T>,
): Promise<T> {
  const database = await openDatabase(
    config.databaseUrl
      ? { databaseUrl: config.databaseUrl }
      : { pgliteDir: join(config.dataDir, 'pg'), lockDir: config.dataDir },
  );
  try {
    const portal = await buildPortal({ config, database, logger: false });
    try {
      const admin = new TestClient(portal);
      const login = await admin.ok<{ accessToken: string }>(
        '/api/admin/portal/api/login/user/mobileNumberLogin',
        {
          userName: 'admin',
          passWord: password,
          userType: '2',
        },
      );
      admin.token = login.accessToken;
      return await work(admin, portal);
    } finally {
      await portal.close();
    }
  } finally {
    await database.close();
  }
}
