import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { buildPortal } from '../../server';
import { loadConfig } from '../config';
import { queryRows } from '../db/client';
import {
  createTestDb,
  createTestPortal,
  TEST_ADMIN_PASSWORD,
  TEST_PASSWORD_HASH_COST,
} from '../../testing/harness';
import { dummyHash, hashPassword, PASSWORD_HASH_COST, verifyPassword } from './password-hash';

/**
 * The password hash cost (SECURITY.md "Sign-in"): every server hashes at N=2^15, r=8, whatever its
 * environment says; test portals hash at a lower cost given in their config, and a hash verifies
 * at the cost it was made with.
 */
const adminHash = async (db: Parameters<typeof queryRows>[0]): Promise<string> =>
  (
    await queryRows<{ hash: string }>(
      db,
      sql`select password_hash as hash from users where user_name = 'admin'`,
    )
  )[0]!.hash;

describe('the password hash cost', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('is N=2^15, r=8, p=1 by default and in every config loadConfig makes', async () => {
    expect(PASSWORD_HASH_COST).toEqual({ N: 32768, r: 8, p: 1 });
    expect((await hashPassword('Secret@123456')).startsWith('scrypt$32768$8$1$')).toBe(true);
    // No setting lowers it: names one might reach for are not read.
    const env = { PASSWORD_HASH_COST: '1024', PASSWORD_HASH_N: '1024', SCRYPT_N: '1024', NODE_ENV: 'test' };
    expect(loadConfig(env).passwordHashCost).toEqual(PASSWORD_HASH_COST);
    expect(loadConfig({}).passwordHashCost).toBe(PASSWORD_HASH_COST);
  });

  it('verifies a hash at the cost it was made with, and refuses a wrong password', async () => {
    for (const cost of [PASSWORD_HASH_COST, TEST_PASSWORD_HASH_COST]) {
      const hash = await hashPassword('Secret@123456', cost);
      expect(hash.split('$').slice(1, 4).map(Number)).toEqual([cost.N, cost.r, cost.p]);
      expect(await verifyPassword('Secret@123456', hash)).toBe(true);
      expect(await verifyPassword('Secret@123457', hash)).toBe(false);
      expect((await dummyHash(cost)).split('$')[1]).toBe(String(cost.N));
    }
    expect(TEST_PASSWORD_HASH_COST.N).toBeLessThan(PASSWORD_HASH_COST.N);
  });

  it("a portal built from loadConfig's settings (a server's start) hashes its admin at the full cost", async () => {
    const t = await createTestDb();
    const dataDir = mkdtempSync(join(tmpdir(), 'portal-hash-'));
    dirs.push(dataDir);
    const portal = await buildPortal({
      config: loadConfig({
        DATA_DIR: dataDir,
        ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
        WEB_DIST: '',
        DEMO_DATA: 'off',
      }),
      database: t.database,
      logger: false,
    });
    try {
      expect((await adminHash(t.database.db)).startsWith('scrypt$32768$8$1$')).toBe(true);
    } finally {
      await portal.close();
      await t.drop();
    }
  });

  it('a test portal hashes at the test cost, and its admin signs in with it', async () => {
    const t = await createTestPortal();
    try {
      expect((await adminHash(t.database.db)).startsWith(`scrypt$${TEST_PASSWORD_HASH_COST.N}$`)).toBe(true);
      expect((await t.login()).token).toBeTruthy();
    } finally {
      await t.close();
    }
  });
});
