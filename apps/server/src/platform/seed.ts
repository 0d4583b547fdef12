import { eq, notInArray, sql } from 'drizzle-orm';
import { ADMIN_CODE, flattenCatalogue } from '@portal/contract/menus';
import { generatePassword } from '@portal/contract/password';
import { queryRows, type Db, type Tx } from './db/client';
import { advisoryXactLock } from './db/advisory';
import type { Config } from './config';
import type { BusinessClock } from './clock';
import type { InitialLogin, PortalModule, Registries, SeedContext } from './module';
import { nextCode } from './db/codes';
import { depts, menus, roleMenus, roles, userRoles, users } from './auth/schema';
import { hashPassword } from './auth/password-hash';

export const ADMIN_USER_NAME = 'admin';
export const ADMIN_ROLE_CODE = 'admin';

/** The catalogue is the source of truth: the menu table follows it at every start. */
export async function seedMenus(db: Db): Promise<void> {
  const entries = flattenCatalogue();
  await db.transaction(async (tx) => {
    // One statement for the whole catalogue (its codes are distinct), not one a code: ≈ 300 round
    // trips at every start, half a second of CPU on PGlite (bench/README.md "Eleventh pass"). A row
    // already as the catalogue says is left as it is.
    await tx
      .insert(menus)
      .values(
        entries.map((e) => ({
          code: e.code,
          title: e.title,
          parentCode: e.parentCode,
          kind: e.kind,
          sort: e.sort,
        })),
      )
      .onConflictDoUpdate({
        target: menus.code,
        set: {
          title: sql`excluded.title`,
          parentCode: sql`excluded.parent_code`,
          kind: sql`excluded.kind`,
          sort: sql`excluded.sort`,
        },
        setWhere: sql`(menus.title, menus.parent_code, menus.kind, menus.sort) is distinct from
          (excluded.title, excluded.parent_code, excluded.kind, excluded.sort)`,
      });
    const codes = entries.map((e) => e.code);
    await tx.delete(menus).where(notInArray(menus.code, codes));
    // Grants of codes that left the catalogue mean nothing any more.
    await tx.delete(roleMenus).where(notInArray(roleMenus.menuCode, [...codes, ADMIN_CODE]));
  });
}

/**
 * The root organisation, the administrator role (menu code `admin`: everything) and the `admin`
 * user with the given password hash, unless an `admin` user exists. Part of the first start.
 */
async function seedAdmin(db: Tx, hash: string): Promise<boolean> {
  const existing = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(${users.userName})`, ADMIN_USER_NAME))
    .limit(1);
  if (existing.length > 0) return false;
  await db.transaction(async (tx) => {
    const [dept] = await tx
      .insert(depts)
      .values({ bizCode: await nextCode(tx, 'dept'), name: '总部', sort: 0 })
      .returning({ id: depts.id });
    let [role] = await tx
      .select({ id: roles.id })
      .from(roles)
      .where(eq(roles.code, ADMIN_ROLE_CODE))
      .limit(1);
    if (!role) {
      [role] = await tx
        .insert(roles)
        .values({
          bizCode: await nextCode(tx, 'role'),
          name: '超级管理员',
          code: ADMIN_ROLE_CODE,
          description: '拥有全部权限',
          dataScope: 'all',
        })
        .returning({ id: roles.id });
      await tx.insert(roleMenus).values({ roleId: role!.id, menuCode: ADMIN_CODE });
    }
    const [user] = await tx
      .insert(users)
      .values({
        userCode: await nextCode(tx, 'user'),
        userName: ADMIN_USER_NAME,
        realName: '系统管理员',
        deptId: dept!.id,
        passwordHash: hash,
        introduction: '系统管理员',
      })
      .returning({ id: users.id });
    await tx.insert(userRoles).values({ userId: user!.id, roleId: role!.id });
  });
  return true;
}

export const FIRST_START_KEY = 'first_start';

export interface FirstStartResult {
  /** True when this start did the first start (false on every later start). */
  created: boolean;
  /** Demo data was loaded (now, or by the first start of this database). */
  demo: boolean;
  /** Users created now, with their passwords (admin first). */
  logins: InitialLogin[];
}

export interface FirstStartOptions {
  db: Db;
  config: Config;
  clock: BusinessClock;
  log: (msg: string) => void;
  modules: readonly PortalModule[];
  registries: Registries;
  /** The modules' reference data (every start): inside the first start's transaction, after admin. */
  seed: (db: Db) => Promise<void>;
  /**
   * Called inside the transaction after everything is written, before it commits: the place to
   * save the passwords, so that a process killed right after the commit has not lost them.
   */
  beforeCommit?: (result: FirstStartResult) => void;
}

/**
 * The first start of a database, all or nothing (docs/operations.md "The first start"): the admin
 * user, the demo data when DEMO_DATA is on, and the `first_start` row that says it happened, in
 * one transaction. A start that dies half-way commits nothing and the next start does it all
 * again; servers starting together on one PostgreSQL queue on an advisory lock and the later
 * ones find the row. Whether the first start happened is read from that row, never guessed from
 * what the tables hold.
 */
export async function runFirstStart(opts: FirstStartOptions): Promise<FirstStartResult> {
  const { config } = opts;
  // Hashing is slow (scrypt): done before the lock is taken.
  const adminPassword = config.adminPassword ?? generatePassword();
  const adminHash = await hashPassword(adminPassword, config.passwordHashCost);
  return opts.db.transaction(async (tx) => {
    await advisoryXactLock(tx, 'portal.firstStart', FIRST_START_KEY);
    const done = await queryRows<{ value: string }>(
      tx,
      sql`select value from portal_settings where key = ${FIRST_START_KEY}`,
    );
    if (done[0]) return { created: false, demo: done[0].value === 'demo', logins: [] };
    // Admin first, as before the first start was one transaction: the admin role and user keep
    // the first codes and ids.
    const adminCreated = await seedAdmin(tx, adminHash);
    await opts.seed(tx);
    const logins: InitialLogin[] = [];
    if (adminCreated) {
      logins.push({
        userName: ADMIN_USER_NAME,
        realName: '系统管理员',
        duty: '超级管理员（全部权限，不参与审批）',
        password: config.adminPassword === undefined ? adminPassword : undefined,
      });
    }
    if (config.demoData) {
      const ctx: SeedContext = {
        db: tx,
        config,
        clock: opts.clock,
        log: opts.log,
        registries: opts.registries,
        addLogin: (l) => logins.push(l),
      };
      for (const m of opts.modules) if (m.demo) await m.demo(ctx);
    }
    await tx.execute(
      sql`insert into portal_settings (key, value) values (${FIRST_START_KEY}, ${config.demoData ? 'demo' : 'no-demo'})`,
    );
    const result: FirstStartResult = { created: true, demo: config.demoData, logins };
    opts.beforeCommit?.(result);
    return result;
  });
}
