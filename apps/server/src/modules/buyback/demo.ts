import { and, eq, isNull } from 'drizzle-orm';
import type { SeedContext } from '../../platform/module';
import { SYSTEM_ACTOR } from '../../platform/db/audit';
import type { ScopeUser } from '../../platform/auth/data-scope';
import { contracts } from '../contract/schema';
import { saveDraft, WORKFLOW_REGISTRY } from '../workflow';
import { saveBuyback } from './service';

const EVERYTHING: ScopeUser = { userId: SYSTEM_ACTOR.userId, dataScope: 'all', deptId: null };

/**
 * The demo office's disbursed contract DEMO-BL-001 (有追索, items overdue) gets a 回购单 dated
 * the business date, saved as a draft: the screen shows the buy-back amount line by line, and
 * a maker may submit it for a checker to approve (docs/buyback.md). Left a draft, it changes
 * none of the demo's figures.
 */
export async function seedDemoBuyback({ db, clock, registries }: SeedContext): Promise<void> {
  const workflow = registries.get(WORKFLOW_REGISTRY);
  const today = clock.today();
  const [c] = await db
    .select()
    .from(contracts)
    .where(
      and(
        eq(contracts.contractNo, 'DEMO-BL-001'),
        eq(contracts.status, 'effective'),
        eq(contracts.loanState, 'loaned'),
        eq(contracts.recourse, 'with'),
        isNull(contracts.deletedAt),
      ),
    );
  if (!c || c.startDate > today) return;
  await db.transaction(async (tx) => {
    await saveDraft(tx, workflow, {
      type: 'buyback',
      actor: SYSTEM_ACTOR,
      write: () =>
        saveBuyback(
          tx,
          { contBizCode: c.bizCode, buybackDate: today, remark: '演示数据：债务人逾期未付，卖方回购' },
          SYSTEM_ACTOR,
          EVERYTHING,
          today,
        ),
    });
  });
}
