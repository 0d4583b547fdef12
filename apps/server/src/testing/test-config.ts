import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Config } from '../platform/config';
import type { Database } from '../platform/db/client';
import type { HashCost } from '../platform/auth/password-hash';
import { buildPortal } from '../server';
import { MODULES } from '../modules';

/*
 * A test portal's settings and the demo's first start under them. Kept apart from harness.ts,
 * which reads what vitest provides to a worker: test/global-setup.ts, in vitest's main process,
 * makes the demo template with these too (README "Tests").
 */

export const TEST_ADMIN_PASSWORD = 'Admin@12345678';

/**
 * The password hash cost of test portals and of the users tests make (scrypt N=2^10, r=8: 1 MiB,
 * a thirty-second of a server's CPU a hash). Only test code sets it: a server's config always has
 * PASSWORD_HASH_COST (platform/config.ts), which password-hash.test.ts holds to.
 */
export const TEST_PASSWORD_HASH_COST: HashCost = Object.freeze({ N: 1024, r: 8, p: 1 });

/**
 * The settings every test portal starts with, `env` on top. The demo template (below) is loaded
 * with these alone and DEMO_DATA on: a portal whose `env` changes what the first start writes
 * (FIRST_START_SETTINGS: the admin's password, the business date the demo dates from) loads the
 * demo itself.
 */
export function testConfig(dataDir: string, env: Record<string, string>): Config {
  const config = loadConfig({
    DATA_DIR: dataDir,
    ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
    DEMO_DATA: 'off',
    WEB_DIST: '',
    BUSINESS_DATE: '2026-01-15',
    // Test files sign in dozens of times a minute from one address; the login limits have their
    // own tests (modules/auth/auth.test.ts), which turn them on.
    LOGIN_RATE_PER_IP_PER_MINUTE: '0',
    LOGIN_RATE_PER_USER_PER_MINUTE: '0',
    // No scheduled job runs by itself in a test's portal: a test ticks the scheduler or runs a job
    // (modules/jobs/jobs.test.ts), so a day-end never starts in the middle of another test.
    JOB_TICK_MS: '0',
    ...env,
  });
  return { ...config, passwordHashCost: TEST_PASSWORD_HASH_COST };
}

export const FIRST_START_SETTINGS = ['DEMO_DATA', 'ADMIN_PASSWORD', 'BUSINESS_DATE'];

/**
 * A portal's first start on `database` with the test settings and `env` on top, then closed: the
 * global set-up makes the run's templates with it once (README "Tests") — the plain first start
 * (`env` empty) and the one with the demo (`DEMO_DATA` on).
 */
export async function startOnce(database: Database, env: Record<string, string>): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-template-'));
  try {
    const portal = await buildPortal({
      config: testConfig(dataDir, env),
      database,
      logger: false,
      modules: MODULES,
    });
    await portal.close();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
