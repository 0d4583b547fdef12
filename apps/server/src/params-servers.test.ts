import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSPARAM_PATHS, type SysParamsView } from '@portal/contract/sysparams';
import { HttpClient } from './testing/http-client';
import { onPostgres } from './testing/harness';
import { createPgDatabase, freePort, serverEnv, spawnServer, type ServerProcess } from './testing/process';

/**
 * 参数设置 on several servers (docs/operations.md "Settings an administrator changes"): two real
 * server processes on one PostgreSQL; a save through A is in force on B within seconds. B reloads
 * its settings only on the change notice (NOTIFY portal_change 'params') or after a lost
 * connection, so seeing the change there proves the notice path. PostgreSQL only: PGlite is one
 * process.
 */
const ADMIN_PASSWORD = 'Params@Servers2026';
let db: { url: string; drop(): Promise<void> } | undefined;
let dataDir: string;
let a: ServerProcess;
let b: ServerProcess;

async function until(check: () => Promise<boolean>, limitMs: number): Promise<number> {
  const t0 = Date.now();
  while (!(await check())) {
    if (Date.now() - t0 > limitMs) throw new Error(`not seen within ${limitMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return Date.now() - t0;
}

beforeAll(async () => {
  if (!onPostgres) return;
  db = await createPgDatabase('params_servers');
  dataDir = mkdtempSync(join(tmpdir(), 'portal-params-'));
  const env = serverEnv(dataDir, { DATABASE_URL: db.url, DEMO_DATA: 'off', ADMIN_PASSWORD });
  [a, b] = [spawnServer(env, await freePort()), spawnServer(env, await freePort())];
  await Promise.all([a.waitFor('Portal listening'), b.waitFor('Portal listening')]);
}, 240_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  await db?.drop();
});

describe.skipIf(!onPostgres)('参数设置 on two servers', () => {
  it('a save through server A is in force on server B within seconds', async () => {
    const onA = new HttpClient(a.url);
    await onA.login('admin', ADMIN_PASSWORD);
    const onB = await onA.on(b.url);
    const get = `/api${SYSPARAM_PATHS.get}`;
    const before = (await onB.ok<SysParamsView>(get)).params;
    const next = {
      ...before,
      companyName: '两台服务器保理有限公司',
      sessionIdleMinutes: before.sessionIdleMinutes === 30 ? 31 : 30,
      uploadLimitMb: before.uploadLimitMb === 20 ? 21 : 20,
    };
    const saved = await onA.call<SysParamsView>(`/api${SYSPARAM_PATHS.save}`, next);
    expect(saved.status, saved.msg).toBe(200);
    // A answers once its own values are in force.
    expect(saved.data!.params.companyName).toBe(next.companyName);
    const seenMs = await until(async () => {
      const p = (await onB.ok<SysParamsView>(get)).params;
      return (
        p.companyName === next.companyName &&
        p.sessionIdleMinutes === next.sessionIdleMinutes &&
        p.uploadLimitMb === next.uploadLimitMb
      );
    }, 5_000);
    // And back again through B: A follows too.
    const back = await onB.call<SysParamsView>(`/api${SYSPARAM_PATHS.save}`, before);
    expect(back.status, back.msg).toBe(200);
    const backMs = await until(
      async () => (await onA.ok<SysParamsView>(get)).params.companyName === before.companyName,
      5_000,
    );
    console.info(`参数设置: a save on one server in force on the other after ${seenMs} ms / ${backMs} ms`);
  });
});
