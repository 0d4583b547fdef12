import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIZDATE_PATHS, type DayEndRun } from '@portal/contract/bizdate';
import { SYSPARAM_PATHS, type SysParamsView } from '@portal/contract/sysparams';
import { queryRows } from '../../platform/db/client';
import { createTestPortal, type TestClient, type TestPortal, served } from '../../testing/harness';

let t: TestPortal;
let admin: TestClient;

beforeAll(async () => {
  t = await createTestPortal();
  admin = await t.login();
});
afterAll(async () => t?.close());

/** Rows aged `days` days and `minutes` minutes (negative: younger than the whole days). */
async function seedAt(tag: string, days: number, minutes: number) {
  const at = sql`now() - make_interval(days => ${days}, mins => ${minutes})`;
  await t.database.db.execute(
    sql`insert into audit_log (at, actor_name, entity, entity_code, action) values (${at}, 'retention', 'user', ${tag}, 'update')`,
  );
  await t.database.db.execute(
    sql`insert into login_attempts (user_name, success, outcome, at) values (${tag}, false, 'badPassword', ${at})`,
  );
}

const left = async () => {
  const oper = await queryRows<{ code: string }>(
    t.database.db,
    sql`select entity_code as code from audit_log where actor_name = 'retention' order by entity_code`,
  );
  const login = await queryRows<{ code: string }>(
    t.database.db,
    sql`select user_name as code from login_attempts where user_name like 'r-%' order by user_name`,
  );
  return { oper: oper.map((r) => r.code), login: login.map((r) => r.code) };
};

describe('log retention at the day-end', () => {
  it('purges 操作日志 and 登录日志 older than the retention, never a younger row', async () => {
    const view = await admin.ok<SysParamsView>(served(SYSPARAM_PATHS.get));
    await admin.ok(served(SYSPARAM_PATHS.save), { ...view.params, logRetentionDays: 30 });
    await seedAt('r-old-1y', 365, 0);
    await seedAt('r-old-by-a-minute', 30, 1);
    await seedAt('r-young-by-a-minute', 30, -1);
    await seedAt('r-young-1d', 1, 0);

    const run = await admin.ok<DayEndRun>(served(BIZDATE_PATHS.runDayEnd));
    expect(run.state).toBe('done');
    expect(await left()).toEqual({
      oper: ['r-young-1d', 'r-young-by-a-minute'],
      login: ['r-young-1d', 'r-young-by-a-minute'],
    });
    const [purge] = await queryRows<{
      detail: { retentionDays: number; operLogs: number; loginLogs: number };
    }>(
      t.database.db,
      sql`select detail from audit_log where entity = 'system' and action = 'purgeLogs' order by id desc limit 1`,
    );
    expect(purge!.detail).toMatchObject({ retentionDays: 30, operLogs: 2, loginLogs: 2 });

    // A longer retention keeps what a shorter one would have cut.
    await admin.ok(served(SYSPARAM_PATHS.save), { ...view.params, logRetentionDays: 60 });
    await seedAt('r-45d', 45, 0);
    await admin.ok<DayEndRun>(served(BIZDATE_PATHS.runDayEnd));
    expect((await left()).oper).toContain('r-45d');
  });
});
