import { and, eq, isNull, sql } from 'drizzle-orm';
import type { SeedContext } from '../../platform/module';
import { SYSTEM_ACTOR } from '../../platform/db/audit';
import { contracts } from '../contract/schema';
import { assignmentNotices } from './schema';

/**
 * Demo notices (fresh database only, after the demo contracts and before the demo disbursement):
 * the debtor of DEMO-BL-001 confirmed the 转让通知书 on the contract's start date, so that its
 * 放款单 may go out; DEMO-BL-002's debtor has not yet confirmed (the contract list shows 明保理
 * 待确认, and its 放款 is refused until someone records the confirmation or a checker waives it).
 */
export async function seedDemoNotices({ db, log }: SeedContext): Promise<void> {
  const [c] = await db
    .select({ id: contracts.id, startDate: contracts.startDate })
    .from(contracts)
    .where(and(eq(contracts.contractNo, 'DEMO-BL-001'), isNull(contracts.deletedAt)));
  if (!c) return;
  await db
    .update(assignmentNotices)
    .set({
      confirmDate: c.startDate,
      confirmedBy: '财务部 陈经理（演示数据）',
      confirmRecordedBy: SYSTEM_ACTOR.userId,
      confirmRecordedAt: sql`now()`,
      version: sql`${assignmentNotices.version} + 1`,
    })
    .where(eq(assignmentNotices.contractId, c.id));
  log('demo: DEMO-BL-001 debtor confirmed the 转让通知书, DEMO-BL-002 pending');
}
