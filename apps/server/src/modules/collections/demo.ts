import { sql } from 'drizzle-orm';
import { addDays } from '@portal/contract/plan/dates';
import type { SeedContext } from '../../platform/module';
import { queryRows } from '../../platform/db/client';
import { overdueItems } from '../contract';
import { collectionCases, collectionRecords } from './schema';

/**
 * Demo collections (fresh database only, after the demo contracts, disbursements and write-offs):
 * on the first contract with an item overdue on the business date, a call that reached nobody,
 * then a call that won a promise to pay, and the case's next action (docs/collections.md).
 */
export async function seedDemoCollection({ db, clock, log }: SeedContext): Promise<void> {
  const today = clock.today();
  const overdue = await overdueItems(
    db,
    sql`(select id from contracts where deleted_at is null and status = 'effective' and loan_state = 'loaned')`,
    today,
  );
  const contractId = overdue.map((o) => o.contractId).sort((a, b) => a - b)[0];
  if (contractId === undefined) return;
  const [c] = await queryRows<{ manager: number | null }>(
    db,
    // The demo's contracts are made by the system (no user): the 业务经理 when one is set.
    sql`select u.id::int as manager from contracts c
          join users u on u.id = coalesce(c.manager_id, c.created_by) and u.deleted_at is null
         where c.id = ${contractId}`,
  );
  await db.insert(collectionRecords).values([
    {
      contractId,
      contactDate: addDays(today, -6),
      channel: 'phone',
      contactPerson: '财务部 张会计',
      result: 'unreachable',
      note: '演示数据：电话无人接听',
    },
    {
      contractId,
      contactDate: addDays(today, -2),
      channel: 'visit',
      contactPerson: '财务总监 刘总',
      result: 'promised',
      note: '演示数据：上门催收，客户承诺近期回款',
      promiseDate: addDays(today, 5),
      promiseAmount: '50000.00',
      promiseState: 'open',
    },
  ]);
  await db
    .insert(collectionCases)
    .values({
      contractId,
      assigneeId: c?.manager ?? null,
      nextAction: '承诺日后电话确认回款',
      nextActionDate: addDays(today, 6),
    })
    .onConflictDoNothing();
  log('demo: one overdue contract with its 催收记录 added');
}
