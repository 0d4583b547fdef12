import Decimal from 'decimal.js';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { REPAY_PURPOSES } from '@portal/contract/bank';
import { addDays, addMonths } from '@portal/contract/plan/dates';
import type { SeedContext } from '../../platform/module';
import { SYSTEM_ACTOR } from '../../platform/db/audit';
import { bankAccounts } from '../bank/schema';
import { creditLines, credits } from '../credit/schema';
import { interestRules } from '../ruler/schema';
import { infoSaveSchema } from '@portal/contract/contract';
import { approveContract } from './approval';
import { saveScheme } from './plan-save';
import { findContract } from './queries';
import { writeInfo } from './service';
import { contracts } from './schema';
import { saveDraft, WORKFLOW_REGISTRY } from '../workflow';

/**
 * Demo contracts on the demo credit (fresh database only): two live ones started months ago
 * (so the plan shows items due, paid-for-nothing and overdue), one awaiting approval, one draft.
 * Entered through the service functions; the approved ones skip the approval round, as the demo
 * credit does.
 */
export async function seedDemoContracts({ db, clock, registries }: SeedContext): Promise<void> {
  const workflow = registries.get(WORKFLOW_REGISTRY);
  const [credit] = await db
    .select()
    .from(credits)
    .where(and(eq(credits.state, 'approved'), isNull(credits.deletedAt)))
    .orderBy(asc(credits.id))
    .limit(1);
  const [line] = credit
    ? await db
        .select()
        .from(creditLines)
        .where(and(eq(creditLines.creditId, credit.id), eq(creditLines.kind, 'platform')))
    : [];
  const rules = await db
    .select({ code: interestRules.bizCode, method: interestRules.method })
    .from(interestRules)
    .where(and(isNull(interestRules.deletedAt), isNull(interestRules.contBizCode)))
    .orderBy(asc(interestRules.id));
  const [bank] = await db
    .select({ code: bankAccounts.bizCode })
    .from(bankAccounts)
    .where(
      and(
        eq(bankAccounts.ownerType, 'self'),
        // A 还款账户, never a 付款账户 (contract/service.ts).
        inArray(bankAccounts.purpose, [...REPAY_PURPOSES]),
        isNull(bankAccounts.deletedAt),
      ),
    )
    .orderBy(asc(bankAccounts.id))
    .limit(1);
  if (!credit || !line || rules.length === 0 || !bank) return;
  const today = clock.today();
  const ruleOf = (method: string) => (rules.find((r) => r.method === method) ?? rules[0]!).code;
  const demos = [
    {
      no: 'DEMO-BL-001',
      months: -4,
      term: 6,
      amount: '3000000.00',
      rule: ruleOf('INTEREST_MONTHLY'),
      state: 'approved',
    },
    {
      no: 'DEMO-BL-002',
      months: -2,
      term: 12,
      amount: '1200000.00',
      rule: ruleOf('ANNUITY'),
      state: 'approved',
    },
    { no: 'DEMO-BL-003', months: 0, term: 6, amount: '800000.00', rule: ruleOf('BULLET'), state: 'pending' },
    { no: 'DEMO-BL-004', months: 0, term: 3, amount: '500000.00', rule: ruleOf('BULLET'), state: 'draft' },
  ];
  let invoice = 0;
  for (const d of demos) {
    const start = addMonths(today, d.months);
    await db.transaction(async (tx) => {
      const body = infoSaveSchema.parse({
        contractNo: d.no,
        recourse: 'with',
        disclosure: 'disclosed',
        product: 'factoring',
        custCode: credit.custCode,
        platCredBizCode: credit.bizCode,
        lineCode: line.bizCode,
        financingRatio: '0.8',
        financingAmount: d.amount,
        marginRatio: '0.05',
        startDate: start,
        maturityDate: addMonths(start, d.term),
        ruleBizCode: d.rule,
        bankBizCode: bank.code,
        remark: '演示数据',
        receivables: [1, 2].map(() => {
          invoice++;
          return {
            invoiceCode: `31002${start.slice(2, 4)}130`,
            invoiceNo: String(20_000_000 + invoice),
            invoiceDate: addDays(start, -5),
            amount: new Decimal(d.amount).times('0.75').toFixed(2),
            debtorName: '演示核心企业集团有限公司',
            dueDate: addMonths(start, d.term),
          };
        }),
        payers: [{ payerName: '演示核心企业集团有限公司', bankName: '中国工商银行' }],
      });
      // Saved (with its plan and dues) and, for a pending one, submitted through the pipeline.
      const { code } = await saveDraft(tx, workflow, {
        type: 'contract',
        actor: SYSTEM_ACTOR,
        write: async () => {
          const written = await writeInfo(tx, body, SYSTEM_ACTOR, today);
          const row = await findContract(tx, written.code);
          // Its plan, and with it the dues it implies (the 5 % margin): the contract list's 生成前期款
          // has something to collect.
          await saveScheme(tx, workflow, { contBizCode: row.bizCode, version: row.version }, SYSTEM_ACTOR);
          return written;
        },
        submission:
          d.state === 'pending'
            ? async () => ({ subject: `合同 ${d.no} ${credit.custName}`, amount: d.amount })
            : undefined,
      });
      if (d.state === 'draft' || d.state === 'pending') return;
      await tx
        .update(contracts)
        .set({ state: d.state, submittedAt: sql`now()` })
        .where(eq(contracts.bizCode, code));
      await approveContract(tx, code, SYSTEM_ACTOR, start < credit.startDate ? credit.startDate : today);
      await tx
        .update(contracts)
        .set({ approvedAt: sql`now()` })
        .where(eq(contracts.bizCode, code));
    });
  }
}
