import Decimal from 'decimal.js';
import { sql, type SQL } from 'drizzle-orm';
import type { ScopeUser } from '../../platform/auth/data-scope';
import { aliasScope } from '../../platform/auth/row-scope';
import type { ReconcileIncome, ReconcileItem, Reconciliation } from '@portal/contract/accounts';
import { queryRows, type Executor } from '../../platform/db/client';
import { badInput } from '../../platform/errors';
import { registryKey } from '../../platform/module';

const money = (v: string | null | undefined) => new Decimal(v ?? 0).toFixed(2);

/**
 * The other documents that take money from an incoming besides the write-offs (回购款核销): each
 * registers the (income_id, amount) rows of what it holds in force, so that an incoming's allocated
 * figure is checked against every document that moved it (docs/buyback.md).
 */
export const INCOME_ALLOCATIONS = registryKey('paid.incomeAllocations', () => [] as SQL[]);

/**
 * 对账 for incomings dated in the range and the contracts written off
 * in it: received = allocated + unallocated per incoming, where allocated must equal Σ approved
 * write-off lines − Σ lines of approved red entries; and each plan item's paid figure per
 * component must equal the same sums over its lines. The stored figures are recomputed from the
 * documents, so any drift between them is listed.
 */
export async function reconcile(
  ex: Executor,
  dateFrom: string,
  dateTo: string,
  user: ScopeUser,
  allocations: readonly SQL[] = [],
): Promise<Reconciliation> {
  if (dateFrom > dateTo) throw badInput('开始日期不能晚于结束日期');
  // Within the caller's data scope: their incomings, and the contracts (with their write-offs) they see.
  const ownedAs = (alias: string) => aliasScope(user, alias);
  const seenContract = (contractId: SQL) =>
    sql`exists (select 1 from contracts sc where sc.id = ${contractId} and ${ownedAs('sc')})`;
  const posted = sql`select p.income_id, l.plan_item_id, l.component,
                            l.amount * (case when r.state = 'approved' then 0 else 1 end) as amount
                       from paid_lines l
                       join paids p on p.id = l.paid_id and p.deleted_at is null and p.state = 'approved'
                       left join paid_reds r on r.paid_id = p.id and r.deleted_at is null`;
  const incomes = await queryRows<Omit<ReconcileIncome, 'difference'>>(
    ex,
    sql`with posted as (${posted}),
             per_income as (select income_id, sum(amount) as amount
                              from (select income_id, amount from posted
                                    ${sql.join(allocations.map((a) => sql` union all ${a}`))}) as moved
                             group by income_id)
        select i.biz_code as "fiidBizCode", i.payer_name as "payerName", to_char(i.value_date, 'YYYY-MM-DD') as "valueDate",
               i.amount::text as amount, i.allocated::text as allocated, (i.amount - i.allocated)::text as unallocated,
               coalesce(pi.amount, 0)::text as posted
          from incomes i left join per_income pi on pi.income_id = i.id
         where i.deleted_at is null and i.state = 'approved' and i.value_date between ${dateFrom} and ${dateTo}
           and ${ownedAs('i')}
         order by i.value_date, i.biz_code`,
  );
  const items = await queryRows<Omit<ReconcileItem, 'difference'>>(
    ex,
    sql`with posted as (${posted}),
             per_item as (select plan_item_id, component, sum(amount) as amount from posted group by 1, 2),
             touched as (select distinct contract_id from paids
                          where deleted_at is null and state = 'approved' and paid_date between ${dateFrom} and ${dateTo})
        select c.biz_code as "contBizCode", c.contract_no as "contractNo", it.period, comp.component,
               comp.paid::text as paid, coalesce(pi.amount, 0)::text as posted
          from contract_plan_items it
          join touched t on t.contract_id = it.contract_id
          join contracts c on c.id = it.contract_id
          cross join lateral (values ('PRINCIPAL', it.principal_paid), ('INTEREST', it.interest_paid),
                                     ('FEE', it.fee_paid), ('PENALTY', it.penalty_paid)) as comp(component, paid)
          left join per_item pi on pi.plan_item_id = it.id and pi.component = comp.component
         where comp.paid <> coalesce(pi.amount, 0) and ${ownedAs('c')}
         order by c.biz_code, it.period, comp.component`,
  );
  const [flows] = await queryRows<{ written: string | null; reversed: string | null }>(
    ex,
    // A 核销坏账 (and its 冲红) moves no money: left out, as from the ledger's 本期回款 (docs/ledger.md).
    sql`select (select sum(amount) from paids where deleted_at is null and state = 'approved' and kind <> 'badDebt'
                   and paid_date between ${dateFrom} and ${dateTo}
                   and ${seenContract(sql`paids.contract_id`)})::text as written,
               (select sum(p.amount) from paid_reds r join paids p on p.id = r.paid_id
                 where r.deleted_at is null and r.state = 'approved' and p.kind <> 'badDebt'
                   and r.red_date between ${dateFrom} and ${dateTo}
                   and ${seenContract(sql`p.contract_id`)})::text as reversed`,
  );
  const sum = (pick: (r: Omit<ReconcileIncome, 'difference'>) => string) =>
    incomes.reduce((s, r) => s.plus(pick(r)), new Decimal(0)).toFixed(2);
  const incomeDifferences = incomes
    .map((r) => ({ ...r, difference: new Decimal(r.allocated).minus(r.posted).toFixed(2) }))
    .filter(
      (r) =>
        r.difference !== '0.00' || !new Decimal(r.amount).eq(new Decimal(r.allocated).plus(r.unallocated)),
    );
  const itemDifferences = items.map((r) => ({
    ...r,
    paid: money(r.paid),
    posted: money(r.posted),
    difference: new Decimal(r.paid).minus(r.posted).toFixed(2),
  }));
  return {
    dateFrom,
    dateTo,
    incomes: incomes.length,
    received: sum((r) => r.amount),
    allocated: sum((r) => r.allocated),
    unallocated: sum((r) => r.unallocated),
    writtenOff: money(flows?.written),
    reversed: money(flows?.reversed),
    incomeDifferences: incomeDifferences.map((r) => ({ ...r, posted: money(r.posted) })),
    itemDifferences,
    balanced: incomeDifferences.length === 0 && itemDifferences.length === 0,
  };
}
