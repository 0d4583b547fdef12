import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECONCILE_PATHS, type Reconciliation } from '@portal/contract/accounts';
import { loadConfig, type Config } from './config';
import { backup, restore } from './backup';
import { onPostgres, withStartedPortal } from '../testing/harness';
import { createPgDatabase } from '../testing/process';

/**
 * Backup and restore round trip (docs/operations.md "Backup and restore"): a database
 * with the demo office's money in it is backed up, restored into an empty target, started, and
 * shows the same reconciliation; a restore over an existing database is refused and changes
 * nothing. PGlite's dump, or pg_dump/pg_restore with TEST_DATABASE_URL.
 */
const PASSWORD = 'Backup@12345678';
let scratch: string;
const drops: (() => Promise<void>)[] = [];
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'portal-backup-'));
});
afterAll(async () => {
  for (const d of drops) await d();
  rmSync(scratch, { recursive: true, force: true });
});

async function target(name: string): Promise<Config> {
  const env: Record<string, string> = {
    DATA_DIR: join(scratch, name),
    ADMIN_PASSWORD: PASSWORD,
    DEMO_DATA: 'on',
    WEB_DIST: '',
    BUSINESS_DATE: '2026-01-15',
  };
  if (onPostgres) {
    const db = await createPgDatabase(`backup_${name}`);
    drops.push(db.drop);
    env.DATABASE_URL = db.url;
  }
  return loadConfig(env);
}

/** Starts the portal on the target and answers its reconciliation of all time. */
function figures(config: Config): Promise<Reconciliation> {
  return withStartedPortal(config, PASSWORD, (admin) =>
    admin.ok<Reconciliation>('/api' + RECONCILE_PATHS.reconcile, {
      dateFrom: '2000-01-01',
      dateTo: '2100-12-31',
    }),
  );
}

describe(`backup and restore (${onPostgres ? 'pg_dump' : 'PGlite dump'})`, () => {
  it('restores into an empty target with the same figures, and refuses a target that holds data', async () => {
    const source = await target('source');
    const before = await figures(source);
    expect(before.balanced).toBe(true);
    const file = join(scratch, 'office.backup');
    await backup(source, file);
    await expect(backup(source, file)).rejects.toThrow('exists already');

    const copy = await target('copy');
    await restore(copy, file);
    expect(await figures(copy)).toEqual(before);

    // Into the source again: refused, and the source still starts with its figures.
    await expect(restore(source, file)).rejects.toThrow(/left untouched/);
    expect(await figures(source)).toEqual(before);

    const junk = join(scratch, 'junk.backup');
    writeFileSync(junk, 'not a backup');
    const empty = await target('empty');
    await expect(restore(empty, junk)).rejects.toThrow('is not a backup made by npm run backup');
    if (!onPostgres)
      expect(
        existsSync(join(empty.dataDir, 'pg')) && readdirSync(join(empty.dataDir, 'pg')).length,
      ).toBeFalsy();
  }, 240_000);
});
