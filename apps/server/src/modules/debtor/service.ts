import Decimal from 'decimal.js';
import { sql, type SQL } from 'drizzle-orm';
import type {
  Concentration,
  ConcentrationRow,
  DebtorPick,
  debtorResolveSchema,
  UnmatchedRow,
  UnmatchedSource,
} from '@portal/contract/debtor';
import type { z } from 'zod';
import type { Db, Executor } from '../../platform/db/client';
import { queryRows } from '../../platform/db/client';
import type { Actor } from '../../platform/db/audit';
import { runCommand } from '../../platform/db/command';
import type { ScopeUser } from '../../platform/auth/data-scope';
import { rowScopeCondition } from '../../platform/auth/row-scope';
import { badInput } from '../../platform/errors';
import { DEBTOR_ROLE_SQL, linkDebtors, type DebtorLinker } from './link';
import { activeLimits, syncContractDebtors } from './lines';

/** The debtor picker's choices: customers in the buyer or core role, by name. */
export async function debtorDict(ex: Executor, all: boolean): Promise<DebtorPick[]> {
  return queryRows<DebtorPick>(
    ex,
    sql`select c.comp_code as code, c.comp_name as label, c.uscc_code as "usccCode"
          from companies c
         where c.deleted_at is null and ${DEBTOR_ROLE_SQL} ${all ? sql`` : sql`and c.state = 'enabled'`}
         order by c.comp_name limit 5000`,
  );
}

/** The rows with an unlinked debtor name, per place, inside the user's scope (alias r: the owner). */
function unlinked(user: ScopeUser): SQL {
  const credit = rowScopeCondition('credit', user);
  const contract = rowScopeCondition('contract', user);
  return sql`
    select f.debtor_name as name, 'creditFt' as source, r.biz_code as doc
      from credit_ft_items f join credits r on r.id = f.credit_id
     where f.debtor_code is null and r.deleted_at is null and ${credit}
    union all
    select f.debtor_name, 'creditReceivable', r.biz_code
      from credit_receivables f join credits r on r.id = f.credit_id
     where f.debtor_code is null and r.deleted_at is null and ${credit}
    union all
    select f.debtor_name, 'contractReceivable', r.biz_code
      from contract_receivables f join contracts r on r.id = f.contract_id
     where f.debtor_code is null and r.deleted_at is null and ${contract}
    union all
    select f.payer_name, 'contractPayer', r.biz_code
      from contract_payers f join contracts r on r.id = f.contract_id
     where f.payer_code is null and r.deleted_at is null and ${contract}`;
}

/** 债务人待匹配: every unlinked name the user may see, with where it appears. */
export async function listUnmatched(ex: Executor, user: ScopeUser): Promise<UnmatchedRow[]> {
  const rows = await queryRows<{ name: string; source: UnmatchedSource; n: number; docs: string[] }>(
    ex,
    sql`select u.name, u.source, count(*)::int as n, array_agg(distinct u.doc) as docs
          from (${unlinked(user)}) u
         group by u.name, u.source
         order by u.name, u.source`,
  );
  const byName = new Map<string, UnmatchedRow>();
  for (const r of rows) {
    const row = byName.get(r.name) ?? { debtorName: r.name, counts: {}, docs: [] };
    row.counts[r.source] = r.n;
    for (const d of r.docs) if (row.docs.length < 20 && !row.docs.includes(d)) row.docs.push(d);
    byName.set(r.name, row);
  }
  return [...byName.values()];
}

/**
 * Links every unlinked row bearing the name, inside the user's scope, to the chosen customer
 * (buyer or core, enabled). The name as typed stays on the rows. Effective contracts whose
 * receivables now name a debtor with a line occupy it (409 when it has no room: the line is
 * raised first, and nothing is linked meanwhile).
 */
export async function resolveName(
  db: Db,
  linkers: readonly DebtorLinker[],
  input: z.output<typeof debtorResolveSchema>,
  user: ScopeUser,
  actor: Actor,
  today: string,
): Promise<{ linked: number }> {
  const cmd = { entity: 'debtorMatch', action: 'resolve', code: input.debtorCode };
  return runCommand(db, actor, cmd, async (tx, w) => {
    const [customer] = await queryRows<{ name: string }>(
      tx,
      sql`select comp_name as name from companies where comp_code = ${input.debtorCode} and deleted_at is null`,
    );
    if (!customer) throw badInput('债务人不存在');
    await linkDebtors(tx, [{ name: customer.name, code: input.debtorCode }], () => '债务人');
    const name = input.debtorName;
    const code = input.debtorCode;
    let linked = 0;
    const touched: number[] = [];
    for (const link of linkers) {
      const r = await link(tx, name, code, (kind) => rowScopeCondition(kind, user));
      linked += r.linked;
      touched.push(...r.contracts);
    }
    if (linked === 0) throw badInput(`没有待匹配的债务人「${name}」`);
    const contractIds = [...new Set(touched)].sort((a, b) => a - b);
    const effective =
      contractIds.length === 0
        ? []
        : await queryRows<{ id: number; bizCode: string }>(
            tx,
            sql`select id, biz_code as "bizCode" from contracts
                 where status = 'effective' and id in (${sql.join(
                   contractIds.map((i) => sql`${i}`),
                   sql`, `,
                 )}) order by id`,
          );
    for (const c of effective) {
      await syncContractDebtors(tx, Number(c.id), 'receivables', {
        docType: 'contract',
        docCode: c.bizCode,
        date: today,
        actor,
        reason: `债务人「${name}」匹配为 ${customer.name}`,
      });
    }
    await w.audit({ detail: { debtorName: name, debtorCode: code, compName: customer.name, linked } });
    return { linked };
  });
}

const pct = (part: Decimal, total: Decimal) =>
  total.isZero() ? '0.00' : part.div(total).times(100).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2);

/**
 * Exposure by debtor: Σ receivables of the effective contracts the user may see, per linked
 * debtor (unlinked names together as 待匹配), the 10 largest with their share of the portfolio.
 */
export async function concentration(ex: Executor, user: ScopeUser): Promise<Concentration> {
  const rows = await queryRows<{ code: string | null; name: string; exposure: string; contracts: number }>(
    ex,
    sql`select f.debtor_code as code,
               coalesce(min(c.comp_name), min(f.debtor_name)) as name,
               sum(f.amount)::text as exposure, count(distinct r.id)::int as contracts
          from contract_receivables f
          join contracts r on r.id = f.contract_id
          left join companies c on c.comp_code = f.debtor_code
         where r.deleted_at is null and r.status = 'effective' and ${rowScopeCondition('contract', user)}
         group by f.debtor_code`,
  );
  const limits = await activeLimits(ex);
  const total = rows.reduce((s, r) => s.plus(r.exposure), new Decimal(0));
  const linked = rows.filter((r) => r.code !== null);
  const unmatched = rows.find((r) => r.code === null);
  const sorted = linked.sort(
    (a, b) => new Decimal(b.exposure).cmp(a.exposure) || a.name.localeCompare(b.name),
  );
  const top: ConcentrationRow[] = sorted.slice(0, 10).map((r) => ({
    debtorCode: r.code,
    debtorName: r.name,
    exposure: new Decimal(r.exposure).toFixed(2),
    share: pct(new Decimal(r.exposure), total),
    contracts: r.contracts,
    limitAmount: limits.get(r.code!) ?? null,
  }));
  const topSum = top.reduce((s, r) => s.plus(r.exposure), new Decimal(0));
  return {
    total: total.toFixed(2),
    top,
    topShare: pct(topSum, total),
    debtors: linked.length,
    unmatched: new Decimal(unmatched?.exposure ?? 0).toFixed(2),
  };
}
