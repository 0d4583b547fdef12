import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { addDays } from '@portal/contract/plan/dates';
import type { SeedContext } from '../../platform/module';
import { SYSTEM_ACTOR } from '../../platform/db/audit';
import { bankAccounts } from '../bank/schema';
import { contracts } from '../contract/schema';
import { approveDemoIncomes, insertIncome, postIncome } from '../income';
import { saveDraft, WORKFLOW_REGISTRY } from '../workflow';
import { contractRule, openAsOf, paymentsOf, planItems } from '../contract';
import { ruleAllocation } from './allocation';
import { postPaid } from './posting';
import { savePaid } from './service';

/**
 * Demo money (fresh database only): on the first live demo contract, a receipt from its payer
 * written off against the oldest open item and approved; a second receipt approved and still unallocated;
 * a third awaiting approval. Entered through the service functions; the approvals skip the
 * round, as the demo contracts do.
 */
export async function seedDemoMoney({ db, clock, registries }: SeedContext): Promise<void> {
  const workflow = registries.get(WORKFLOW_REGISTRY);
  const [contract] = await db
    .select()
    .from(contracts)
    .where(and(eq(contracts.status, 'effective'), isNull(contracts.deletedAt)))
    .orderBy(asc(contracts.id))
    .limit(1);
  const [bank] = await db
    .select({ code: bankAccounts.bizCode })
    .from(bankAccounts)
    .where(and(eq(bankAccounts.ownerType, 'self'), isNull(bankAccounts.deletedAt)))
    .limit(1);
  if (!contract || !bank) return;
  const today = clock.today();
  const admin = { dataScope: 'all' as const, deptId: null, userId: 0 };
  const receipt = (serialNo: string, amount: string, valueDate: string) => ({
    bankBizCode: bank.code,
    payerName: '演示核心企业集团有限公司',
    payerAccount: '1001200000000001',
    payerBank: '中国工商银行',
    amount,
    valueDate,
    serialNo,
    remark: '演示数据',
  });
  await db.transaction(async (tx) => {
    const paidOn = addDays(today, -20);
    // Saved through the document pipeline, as the screens save them (audited).
    const income = async (item: ReturnType<typeof receipt>, source: 'manual' | 'import', submit = false) => {
      const saved = await saveDraft(tx, workflow, {
        type: 'income',
        actor: SYSTEM_ACTOR,
        write: () => insertIncome(tx, item, source, SYSTEM_ACTOR),
        submission: submit ? async () => ({ subject: '来款 演示', amount: item.amount }) : undefined,
      });
      return saved.code;
    };
    const first = await income(receipt('DEMO-BS-0001', '60000.00', paidOn), 'import');
    const second = await income(receipt('DEMO-BS-0002', '25000.00', addDays(today, -3)), 'import');
    // The third waits in the checkers' to-do.
    await income(receipt('DEMO-BS-0003', '18000.00', today), 'manual', true);
    await approveDemoIncomes(tx, [first, second]);
    // Approved here without the workflow: their vouchers as the approval would post them (docs/accounting.md).
    for (const code of [first, second]) await postIncome(tx, code, SYSTEM_ACTOR);

    const items = await planItems(tx, contract.id);
    const open = openAsOf(items, await paymentsOf(tx, items), paidOn, contractRule(contract));
    // The oldest open item, whole: the rest stays overdue for the dashboard to show.
    if (!open[0]) return;
    const lines = ruleAllocation(open, open[0].openTotal, paidOn, contractRule(contract)).lines;
    if (lines.length === 0) return;
    const { code } = await saveDraft(tx, workflow, {
      type: 'paid',
      actor: SYSTEM_ACTOR,
      write: () =>
        savePaid(
          tx,
          {
            fiidBizCode: first,
            contBizCode: contract.bizCode,
            paidDate: paidOn,
            kind: 'normal',
            lines: lines.map((l) => ({ itemId: l.itemId, component: l.component, amount: l.amount })),
          },
          SYSTEM_ACTOR,
          admin,
          today,
        ),
    });
    const posted = await postPaid(tx, code, SYSTEM_ACTOR, today);
    await tx.execute(
      sql`update paids set ${sql.join(
        [...posted, sql`state = 'approved'`, sql`submitted_at = now()`, sql`approved_at = now()`],
        sql`, `,
      )} where biz_code = ${code}`,
    );
  });
}
