import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIZDATE_PATHS, type DayEndRun } from '@portal/contract/bizdate';
import { queryRows } from '../../platform/db/client';
import {
  createTestPortal,
  onPostgres,
  servedPaths,
  type TestClient,
  type TestPortal,
} from '../../testing/harness';
import { addChecker } from '../credit/testkit';
import { approvedContract, contractFixture, MONTHLY_RULE } from '../contract/testkit';
import { disburse } from '../loan/testkit';

/**
 * A day-end with more overdue marks than one insert can bind (65,535 parameters: 6,553 marks of ten
 * values). A column count kept by hand beside the insert once fell one short, and every such
 * day-end failed (docs/architecture.md "Schema and migrations").
 */
const bizdateApi = servedPaths(BIZDATE_PATHS);
const EXTRA_ITEMS = 7_000;

// On PostgreSQL only: the bound is the wire protocol's, the same on PGlite, and the PostgreSQL lane
// has the room for a day-end of 7,000 marks.
describe.runIf(onPostgres)('日终 with many overdue items', () => {
  let t: TestPortal;
  let admin: TestClient;
  beforeAll(async () => {
    t = await createTestPortal();
    admin = await t.login();
    const checker = await addChecker(t);
    const f = await contractFixture(t, admin, checker, { limit: '5000000.00', rule: MONTHLY_RULE });
    expect((await admin.call(bizdateApi.save, { businessDate: '2026-01-20' })).status).toBe(200);
    const { bizCode } = await approvedContract(t, admin, checker, {
      fixture: f,
      over: { startDate: '2026-01-20', maturityDate: '2026-07-20' },
    });
    await disburse(admin, checker, bizCode, { valueDate: '2026-01-20' });
    expect((await admin.call(bizdateApi.save, { businessDate: '2026-02-22' })).status).toBe(200);
    // Small items beside the contract's own plan, due on 2026-02-20: each one more overdue mark.
    await t.database.db.execute(sql`
      insert into contract_plan_items (contract_id, period, start_date, due_date, days, principal, interest, fee)
      select c.id, 1000 + g, '2026-01-20', '2026-02-20', 31, 1.00, 0.10, 0
        from contracts c, generate_series(1, ${EXTRA_ITEMS}) g where c.biz_code = ${bizCode}`);
  });
  afterAll(() => t.close());

  it('writes every mark when they do not fit one statement', async () => {
    const run = await admin.ok<DayEndRun>(bizdateApi.runDayEnd);
    expect(run.state).toBe('done');
    expect(run.overdueItems).toBe(EXTRA_ITEMS + 1);
    const [marks] = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from day_end_items where business_date = '2026-02-22'`,
    );
    expect(marks!.n).toBe(EXTRA_ITEMS + 1);
  });
});
