import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ValidPlan } from '@portal/contract/accounts';
import { BIZDATE_PATHS } from '@portal/contract/bizdate';
import { queryRows } from '../../platform/db/client';
import { createTestPortal, servedPaths, type TestClient, type TestPortal } from '../../testing/harness';
import { addChecker } from '../credit/testkit';
import { approvedIncome, paidApi, principalWriteOff } from '../paid/testkit';
import { disburse } from '../loan/testkit';
import { itemsReadFromLines } from './open-items';
import { overdueItems } from './overdue';
import { approvedContract, contractFixture, MONTHLY_RULE, type ContractFixture } from './testkit';

let t: TestPortal;
let admin: TestClient;
let checker: TestClient;
let f: ContractFixture;
const bizdateApi = servedPaths(BIZDATE_PATHS);
const db = () => t.database.db;
const setDate = (businessDate: string) => admin.ok(bizdateApi.save, { businessDate });
const everyContract = sql`(select id from contracts)`;
const readFromLines = async (asOf: string) =>
  (
    await queryRows<{ id: number }>(
      db(),
      sql`select id::int as id from ${itemsReadFromLines(everyContract, asOf)} as late order by id`,
    )
  ).map((r) => r.id);

beforeAll(async () => {
  t = await createTestPortal();
  admin = await t.login();
  checker = await addChecker(t);
  f = await contractFixture(t, admin, checker, { limit: '5000000.00', rule: MONTHLY_RULE });
});
afterAll(() => t.close());

/** An approved manual write-off of item `itemId`'s open interest on `paidDate` (the business date). */
async function interestWriteOff(contBizCode: string, paidDate: string, itemId: number) {
  const plan = await admin.ok<ValidPlan>(paidApi.getValidPlanPaid, undefined, {
    query: { contBizCode, paidDate },
  });
  const interest = plan.items.find((i) => i.itemId === itemId)!.open.INTEREST;
  const fiid = await approvedIncome(admin, checker, f.bankBizCode, interest, paidDate);
  const saved = await admin.ok<{ paidBizCode: string }>(paidApi.savePlanPaidInfo, {
    fiidBizCode: fiid,
    contBizCode,
    paidDate,
    kind: 'manual',
    lines: [{ itemId, component: 'INTEREST', amount: interest }],
    submit: true,
  });
  await checker.ok(paidApi.audit, {}, { query: { paidBizCode: saved.paidBizCode } });
}

describe('the items read from their write-off lines (itemsReadFromLines)', () => {
  it('finds an item paid after a date by a line dated after it, though no principal was paid late', async () => {
    // Item 1 (due 02-20): its principal paid on its due date (not late: no principal_late mark),
    // its interest on 03-05. On 02-25 that interest was still owed, so the item was 逾期 that day,
    // although the stored paid sums now read it paid: only the line dated after 02-25 tells.
    await setDate('2026-01-20');
    const { bizCode } = await approvedContract(t, admin, checker, {
      fixture: f,
      over: { startDate: '2026-01-20', maturityDate: '2026-07-20' },
    });
    await disburse(admin, checker, bizCode, { valueDate: '2026-01-20' });
    await setDate('2026-02-20');
    const plan = await admin.ok<ValidPlan>(paidApi.getValidPlanPaid, undefined, {
      query: { contBizCode: bizCode, paidDate: '2026-02-20' },
    });
    const first = plan.items.find((i) => i.period === 1)!;
    const itemId = first.itemId;
    await principalWriteOff(admin, checker, f.bankBizCode, bizCode, '2026-02-20', first.open.PRINCIPAL);
    await setDate('2026-03-05');
    await interestWriteOff(bizCode, '2026-03-05', itemId);
    const [paid] = await queryRows<{ owes: boolean; late: number }>(
      db(),
      sql`select i.principal_paid < i.principal or i.interest_paid < i.interest or i.fee_paid < i.fee as owes,
                 (select count(*)::int from paid_lines l where l.plan_item_id = i.id and l.principal_late) as late
            from contract_plan_items i where i.id = ${itemId}`,
    );
    expect(paid).toEqual({ owes: false, late: 0 });

    expect(await readFromLines('2026-02-25')).toEqual([itemId]);
    expect(await readFromLines('2026-03-05')).toEqual([]);
    const overdue = await overdueItems(db(), everyContract, '2026-02-25');
    expect(overdue.map((o) => [o.itemId, o.overdueDays])).toEqual([[itemId, 5]]);
  });
});
