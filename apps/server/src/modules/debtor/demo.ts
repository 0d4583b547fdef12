import { sql } from 'drizzle-orm';
import type { SeedContext } from '../../platform/module';
import { queryRows } from '../../platform/db/client';
import { SYSTEM_ACTOR } from '../../platform/db/audit';
import { nextCode } from '../../platform/db/codes';
import { DEBTOR_LINKERS } from './link';
import { syncContractDebtors } from './lines';
import { debtorLedger, debtorLines } from './schema';

const DEMO_DEBTOR = '华东建工集团有限公司';
const DEMO_LIMIT = '20000000.00';
const DEMO_TYPED = '演示核心企业集团有限公司';

/**
 * Demo debtors (fresh database only, after the demo contracts and money): the receivables and
 * payers the demo contracts typed as 「演示核心企业集团有限公司」 are linked to the core enterprise
 * 华东建工集团有限公司 (as 债务人待匹配 would), which gets an approved line of 20,000,000.00,
 * occupied by the receivables of the effective contracts.
 */
export async function seedDemoDebtor({ db, clock, log, registries }: SeedContext): Promise<void> {
  const [debtor] = await queryRows<{ code: string }>(
    db,
    sql`select comp_code as code from companies where comp_name = ${DEMO_DEBTOR} and deleted_at is null`,
  );
  if (!debtor) return;
  const today = clock.today();
  // As 债务人待匹配 would: the demo contracts typed the debtor's name their own way.
  const touched: number[] = [];
  for (const link of registries.get(DEBTOR_LINKERS)) {
    touched.push(...(await link(db, DEMO_TYPED, debtor.code, () => sql`true`)).contracts);
  }
  const linked = touched.length
    ? await queryRows<{ contractId: number; bizCode: string }>(
        db,
        sql`select id as "contractId", biz_code as "bizCode" from contracts
             where status = 'effective' and id in (${sql.join(
               touched.map((i) => sql`${i}`),
               sql`, `,
             )})`,
      )
    : [];
  const bizCode = await nextCode(db, 'debtor_line');
  const [line] = await db
    .insert(debtorLines)
    .values({
      bizCode,
      debtorCode: debtor.code,
      debtorName: DEMO_DEBTOR,
      state: 'active',
      limitAmount: DEMO_LIMIT,
    })
    .returning();
  await db.insert(debtorLedger).values({
    lineId: line!.id,
    movement: 'limit',
    amount: DEMO_LIMIT,
    limitAfter: DEMO_LIMIT,
    occupiedAfter: '0.00',
    docType: 'debtorLine',
    docCode: bizCode,
    reason: '演示数据：债务人额度生效',
    bizDate: today,
    actorId: SYSTEM_ACTOR.userId,
    actorName: SYSTEM_ACTOR.userName,
  });
  const contracts = new Map(linked.map((l) => [Number(l.contractId), l.bizCode]));
  await db.transaction(async (tx) => {
    for (const [id, code] of [...contracts].sort((a, b) => a[0] - b[0])) {
      await syncContractDebtors(tx, id, 'receivables', {
        docType: 'contract',
        docCode: code,
        date: today,
        actor: SYSTEM_ACTOR,
        reason: '演示数据：已有合同占用债务人额度',
      });
    }
  });
  log(`demo: debtor line ${bizCode} for ${DEMO_DEBTOR}, ${contracts.size} contracts linked`);
}
