import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { SeedContext } from '../../platform/module';
import { nextCode } from '../../platform/db/codes';
import { SYSTEM_ACTOR } from '../../platform/db/audit';
import { runCommand } from '../../platform/db/command';
import { companies } from '../company/schema';
import { applyCredit } from './service';
import { creditCollaterals, creditFtItems, creditGuarantees, credits } from './schema';

/**
 * Demo data on a fresh database: one approved cyclical credit for the first demo customer that
 * has group members, with a factoring sub-limit on another demo customer, so the utilisation
 * chart shows something after `npm start`. It requires a guarantee (须有担保) and has one: an
 * enterprise guarantor (a further demo customer), a person guarantor, and a mortgaged property (docs/credit.md "Guarantees and collateral").
 * Entered as approved (no approval round, but through the approval's own checks).
 */
export async function seedDemoCredit({ db, clock }: SeedContext): Promise<void> {
  const [parent] = await db
    .select({ code: companies.compCode, name: companies.compName })
    .from(companies)
    .where(
      and(
        isNull(companies.deletedAt),
        sql`exists (select 1 from companies c where c.parent_comp_code = ${companies.compCode})`,
      ),
    )
    .orderBy(asc(companies.id))
    .limit(1);
  const [debtor] = await db
    .select({ code: companies.compCode, name: companies.compName })
    .from(companies)
    .where(
      and(
        isNull(companies.deletedAt),
        sql`${companies.parentCompCode} is null`,
        sql`${companies.compCode} <> ${parent?.code ?? ''}`,
      ),
    )
    .orderBy(asc(companies.id))
    .limit(1);
  if (!parent || !debtor) return;
  const [guarantor] = await db
    .select({ code: companies.compCode, name: companies.compName })
    .from(companies)
    .where(
      and(
        isNull(companies.deletedAt),
        sql`${companies.compCode} not in (${parent.code}, ${debtor.code})`,
        sql`${companies.parentCompCode} is distinct from ${parent.code}`,
      ),
    )
    .orderBy(asc(companies.id))
    .limit(1);
  const today = clock.today();
  const year = Number(today.slice(0, 4));
  await runCommand(db, SYSTEM_ACTOR, { entity: 'credit', action: 'demo' }, async (tx, w) => {
    const bizCode = await nextCode(tx, 'credit');
    const [c] = await tx
      .insert(credits)
      .values({
        bizCode,
        custCode: parent.code,
        custName: parent.name,
        limitAmount: '50000000.00',
        startDate: `${year}-01-01`,
        endDate: `${year + 1}-12-31`,
        cycle: 'cyclical',
        product: 'factoring',
        guaranteeMode: 'guaranteed',
        remark: '演示数据',
        state: 'approved',
        approvedAt: sql`now()`,
      })
      .returning({ id: credits.id });
    await tx.insert(creditFtItems).values({
      creditId: c!.id,
      debtorCode: debtor.code,
      debtorName: debtor.name,
      limitAmount: '20000000.00',
      financingRatio: '0.8000',
      recourse: 'with',
    });
    await tx.insert(creditGuarantees).values([
      ...(guarantor
        ? [
            {
              creditId: c!.id,
              guarantorKind: 'enterprise',
              guarantorCode: guarantor.code,
              guarantorName: guarantor.name,
              guaranteeType: 'joint',
              amount: '20000000.00',
              startDate: `${year}-01-01`,
              endDate: `${year + 1}-12-31`,
              sort: 0,
            },
          ]
        : []),
      {
        creditId: c!.id,
        guarantorKind: 'person',
        guarantorName: '张伟',
        idNo: '110101198001010010',
        guaranteeType: 'joint',
        amount: '5000000.00',
        startDate: `${year}-01-01`,
        endDate: `${year + 1}-12-31`,
        remark: '实际控制人个人连带责任保证',
        sort: 1,
      },
    ]);
    await tx.insert(creditCollaterals).values({
      creditId: c!.id,
      kind: 'realEstate',
      name: '办公楼（演示）',
      value: '12000000.00',
      valuationDate: `${year}-01-01`,
      regNo: `京(${year})朝阳区不动产权第0012345号`,
      sort: 0,
    });
    await applyCredit(tx, bizCode, SYSTEM_ACTOR, today);
    await tx
      .update(credits)
      .set({ version: sql`${credits.version} + 1` })
      .where(eq(credits.id, c!.id));
    await w.audit({ code: bizCode });
  });
}
