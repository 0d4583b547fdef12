import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { SeedContext } from '../../platform/module';
import { queryRows } from '../../platform/db/client';
import { nextCode } from '../../platform/db/codes';
import { SYSTEM_ACTOR, type Actor } from '../../platform/db/audit';
import { admitCustomer } from '../company';
import { companies } from '../company/schema';
import { defaultAccount } from '../bank';
import { saveDraft, WORKFLOW_REGISTRY } from '../workflow';
import { custAdmissions } from './schema';
import { admissionSubmission, ADMISSION_TYPE, findAdmission } from './service';

/** A demo staff member as an actor (docs/operations.md "Demo users"), or the system without one. */
async function staff(db: SeedContext['db'], userName: string): Promise<Actor> {
  const [u] = await queryRows<{ id: string | number }>(
    db,
    sql`select id from users where lower(user_name) = ${userName} and deleted_at is null`,
  );
  return u ? { userId: Number(u.id), userName } : SYSTEM_ACTOR;
}

/**
 * Demo data (fresh database only): the two customers the company demo leaves pending get a 客户准入单
 * each, raised by 业务部 (maker): the first approved by 风控 (checker), so it is admitted; the second
 * submitted and waiting in the checker's 待办. Entered without KYC uploads (the view shows them
 * missing); the approved one skips the approval round, as the other demos' approved documents do.
 */
export async function seedDemoAdmissions({ db, registries, log }: SeedContext): Promise<void> {
  const workflow = registries.get(WORKFLOW_REGISTRY);
  const pending = await db
    .select({ compCode: companies.compCode, compName: companies.compName })
    .from(companies)
    .where(and(eq(companies.admission, 'pending'), isNull(companies.deletedAt)))
    .orderBy(asc(companies.id))
    .limit(2);
  const maker = await staff(db, 'maker');
  const checker = await staff(db, 'checker');
  for (const [i, c] of pending.entries()) {
    const account = await defaultAccount(db, 'customer', c.compCode, 'collect');
    if (!account) continue;
    await db.transaction(async (tx) => {
      const [v] = await tx
        .select({ version: companies.version })
        .from(companies)
        .where(eq(companies.compCode, c.compCode));
      const { code } = await saveDraft(tx, workflow, {
        type: ADMISSION_TYPE,
        actor: maker,
        write: async () => {
          const bizCode = await nextCode(tx, 'cust_admission');
          await tx.insert(custAdmissions).values({
            bizCode,
            compCode: c.compCode,
            baseVersion: v!.version,
            legalIdNo: i === 0 ? '320502198503150017' : '340104199001010038',
            controllerName: i === 0 ? '陈志远（持股60%）' : '刘芳（持股51%）',
            bankBizCode: account.bizCode,
            remark: '演示数据：未附KYC文件',
            createdBy: maker.userId || null,
            updatedBy: maker.userId || null,
          });
          return { code: bizCode, detail: { compCode: c.compCode, compName: c.compName } };
        },
        submission:
          i === 1 ? async (code) => admissionSubmission(tx, await findAdmission(tx, code)) : undefined,
      });
      if (i === 1) return;
      await tx
        .update(custAdmissions)
        .set({
          state: 'approved',
          submittedAt: sql`now()`,
          submittedBy: maker.userId || null,
          approvedAt: sql`now()`,
          approvedBy: checker.userId || null,
        })
        .where(eq(custAdmissions.bizCode, code));
      await admitCustomer(tx, c.compCode, v!.version, code, checker);
    });
  }
  log('demo: one customer admitted through 客户准入, one waiting for 风控');
}
