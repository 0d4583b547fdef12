import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIZDATE_PATHS, type BizDateView, type DayEndRun } from '@portal/contract/bizdate';
import { queryRows } from '../../platform/db/client';
import {
  createTestPortal,
  createUserWithCodes,
  type TestClient,
  type TestPortal,
  servedPaths,
} from '../../testing/harness';

/**
 * The business date on 参数设置 (docs/business-date.md): a holder of system-config:save moves it
 * through the same route as 营业日与日终, with the same validation, audit row and day-end.
 */
const bizdateApi = servedPaths(BIZDATE_PATHS);
const PW = 'Params@123456789';

let t: TestPortal;
let settings: TestClient;
let screenOnly: TestClient;

beforeAll(async () => {
  t = await createTestPortal();
  await createUserWithCodes(t.database.db, 'params-admin', PW, ['system-config', 'system-config:save']);
  await createUserWithCodes(t.database.db, 'params-reader', PW, ['system-config']);
  settings = await t.login('params-admin', PW);
  screenOnly = await t.login('params-reader', PW);
});
afterAll(() => t.close());

describe('营业日 on 参数设置', () => {
  it('is moved by system-config:save with the rules, audit and day-end of 营业日与日终', async () => {
    const from = (await settings.ok<BizDateView>(bizdateApi.view)).businessDate;
    expect((await screenOnly.call(bizdateApi.save, { businessDate: '2026-01-20' })).status).toBe(401);
    const bad = await settings.call(bizdateApi.save, { businessDate: '2026-02-30' });
    expect(bad.status).toBe(400);
    expect(bad.msg).toBe('营业日必须是有效日期（YYYY-MM-DD）');
    const moved = await settings.call<{ from: string; to: string; run: DayEndRun }>(bizdateApi.save, {
      businessDate: '2026-01-20',
    });
    expect(moved.status).toBe(200);
    expect(moved.data).toMatchObject({ from, to: '2026-01-20' });
    expect(moved.data!.run).toMatchObject({
      businessDate: '2026-01-20',
      trigger: 'dateChange',
      state: 'done',
    });
    expect(await screenOnly.ok<BizDateView>(bizdateApi.view)).toMatchObject({
      businessDate: '2026-01-20',
      source: 'stored',
    });
    const [audit] = await queryRows<{ actor_name: string; detail: unknown }>(
      t.database.db,
      sql`select actor_name, detail from audit_log
           where entity = 'system' and action = 'setBusinessDate' order by id desc limit 1`,
    );
    expect(audit).toEqual({ actor_name: 'params-admin', detail: { from, to: '2026-01-20' } });
    // The day-end on demand stays with 营业日与日终's button.
    expect((await settings.call(bizdateApi.runDayEnd)).status).toBe(401);
  });
});
