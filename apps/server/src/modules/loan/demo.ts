import { and, eq, isNull, sql } from 'drizzle-orm';
import type { SeedContext } from '../../platform/module';
import { SYSTEM_ACTOR } from '../../platform/db/audit';
import type { ScopeUser } from '../../platform/auth/data-scope';
import { contracts } from '../contract/schema';
import { saveDraft, WORKFLOW_REGISTRY } from '../workflow';
import { loanInit, postLoan, saveLoan } from './service';
import { loans } from './schema';

const EVERYTHING: ScopeUser = { userId: SYSTEM_ACTOR.userId, dataScope: 'all', deptId: null };

/**
 * The demo office's first contract (DEMO-BL-001) went out on its start date: an approved 放款单
 * from our default paying account to the supplier's default account, so that 在贷本金, the
 * dashboard and the write-offs of the demo have disbursed money to count. DEMO-BL-002 stays
 * approved and not yet disbursed: the contract list offers its 放款 (and its margin is still open
 * for a 前期款).
 */
export async function seedDemoLoans({ db, clock, registries }: SeedContext): Promise<void> {
  const workflow = registries.get(WORKFLOW_REGISTRY);
  const today = clock.today();
  const rows = await db
    .select()
    .from(contracts)
    .where(
      and(
        eq(contracts.contractNo, 'DEMO-BL-001'),
        eq(contracts.state, 'approved'),
        eq(contracts.status, 'effective'),
        eq(contracts.loanState, 'none'),
        isNull(contracts.deletedAt),
      ),
    );
  for (const [i, c] of rows.entries()) {
    await db.transaction(async (tx) => {
      const init = await loanInit(tx, c, today);
      if (!init.payBankBizCode || !init.payeeBankBizCode) return;
      const body = {
        contBizCode: c.bizCode,
        valueDate: c.startDate,
        payBankBizCode: init.payBankBizCode,
        payeeBankBizCode: init.payeeBankBizCode,
        serialNo: `DEMOFK${c.startDate.replaceAll('-', '')}${String(i + 1).padStart(3, '0')}`,
        remark: '演示数据',
      };
      const { code } = await saveDraft(tx, workflow, {
        type: 'loan',
        actor: SYSTEM_ACTOR,
        write: () => saveLoan(tx, body, SYSTEM_ACTOR, EVERYTHING, today),
      });
      await tx
        .update(loans)
        .set({ state: 'approved', submittedAt: sql`now()`, approvedAt: sql`now()` })
        .where(eq(loans.bizCode, code));
      await postLoan(tx, code, SYSTEM_ACTOR, today);
    });
  }
}
