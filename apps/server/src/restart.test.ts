import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HttpClient } from './testing/http-client';
import { onPostgres } from './testing/harness';
import { createPgDatabase, serverEnv, spawnServer, startServer, freePort } from './testing/process';
import { parsePasswordFile, PASSWORD_FILE } from './platform/initial-passwords';

/**
 * The second day: the real server process started three times on one data directory
 * (first start, after SIGTERM, after SIGKILL), each start answering a login, with demo data on and
 * off; and a first start killed while it loads the demo. On PGlite, or on a PostgreSQL database of
 * its own with TEST_DATABASE_URL.
 */
async function withData(
  prefix: string,
  fn: (env: (extra?: Record<string, string>) => NodeJS.ProcessEnv, dataDir: string) => Promise<void>,
) {
  const dataDir = mkdtempSync(join(tmpdir(), `portal-${prefix}-`));
  const pgdb = onPostgres ? await createPgDatabase(prefix) : undefined;
  try {
    await fn(
      (extra = {}) => serverEnv(dataDir, { ...(pgdb ? { DATABASE_URL: pgdb.url } : {}), ...extra }),
      dataDir,
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    await pgdb?.drop();
  }
}

async function login(url: string, user: string, password: string): Promise<void> {
  await new HttpClient(url).login(user, password);
}

describe('starting on the same data again', () => {
  it('starts after SIGTERM and after SIGKILL with demo data (and after a first start killed mid-demo)', async () => {
    await withData('restart_demo', async (env, dataDir) => {
      // Killed while the demo loads: nothing of the first start is committed.
      const dying = spawnServer(env({ LOG_LEVEL: 'info' }), await freePort());
      await dying.waitFor('demo: staff');
      await dying.stop('SIGKILL');

      const first = await startServer(env());
      expect(first.output()).toContain('First start');
      const passwords = parsePasswordFile(readFileSync(join(dataDir, PASSWORD_FILE), 'utf8'));
      expect([...passwords.keys()]).toEqual(['admin', 'maker', 'checker', 'manager', 'finance', 'auditor']);
      await login(first.url, 'admin', passwords.get('admin')!);
      await login(first.url, 'checker', passwords.get('checker')!);
      expect(await first.stop('SIGTERM')).toBe(0);

      const second = await startServer(env());
      expect(second.output()).not.toContain('First start');
      await login(second.url, 'maker', passwords.get('maker')!);
      await second.stop('SIGKILL');

      const third = await startServer(env({ DEMO_DATA: 'off' }));
      expect(third.output()).not.toContain('First start');
      await login(third.url, 'admin', passwords.get('admin')!);
      expect(await third.stop('SIGTERM')).toBe(0);
    });
  }, 300_000);

  it('starts after SIGTERM and after SIGKILL with DEMO_DATA=off', async () => {
    await withData('restart_nodemo', async (env) => {
      const password = 'Restart@12345678';
      const e = env({ DEMO_DATA: 'off', ADMIN_PASSWORD: password });
      const first = await startServer(e);
      expect(first.output()).toContain('First start');
      await login(first.url, 'admin', password);
      expect(await first.stop('SIGTERM')).toBe(0);
      const second = await startServer(e);
      await login(second.url, 'admin', password);
      await second.stop('SIGKILL');
      const third = await startServer(env({ ADMIN_PASSWORD: password }));
      await login(third.url, 'admin', password);
      // No demo staff: the name is unknown, refused like a wrong password.
      await expect(login(third.url, 'maker', 'anything')).rejects.toThrow('login failed: 用户名或密码错误');
      expect(await third.stop('SIGTERM')).toBe(0);
    });
  }, 300_000);
});
