import Decimal from 'decimal.js';
import { sql, type SQL } from 'drizzle-orm';
import { interestRuleCalc, type InterestRuleCalc } from '@portal/contract/plan/rule';
import { queryRows, type Executor } from '../../platform/db/client';
import { itemAsOf, itemPayment, itemsReadFromLines } from './open-items';

/** An overdue item as of D, with the figures itemAsOf gives it. */
export interface OverdueItem {
  contractId: number;
  /** The plan item (contract_plan_items.id) and its period. */
  itemId: number;
  period: number;
  dueDate: string;
  overdueDays: number;
  /** Open principal + interest + fee. */
  open: string;
  /** Penalty due on D less the penalty paid. */
  penalty: string;
}

interface Candidate {
  id: number;
  contract_id: number;
  period: number;
  due_date: string;
  principal: string;
  interest: string;
  fee: string;
  penalty: string;
  rule_snapshot: unknown;
  payments: { component: string; amount: string; date: string }[];
}

/**
 * The overdue items of `contracts` (a row source with an `id` column: the disbursed contracts in
 * force a reader may see), as of `asOf`. Each item's status, days and penalty come from itemAsOf,
 * the function of the plan view and the write-off screen (docs/money-rules.md "Figures as of a
 * date"), over the item's dated write-off lines. One round trip loads every candidate with its
 * lines; the accrual runs here, never a call per contract. The dashboard's figures and the
 * contract list's 逾期 filter both read this, so they name the same contracts.
 *
 * Candidates are every item itemAsOf can find 逾期 on `asOf`: due before it, and either still
 * owed principal, interest or fee (the indexed open-items path), or with a payment that itemAsOf
 * reads differently from the stored sums: principal paid after the due date (penalty accrued, may
 * be unpaid) or a line dated after `asOf` (not yet paid on that date).
 */
export async function overdueItems(ex: Executor, contracts: SQL, asOf: string): Promise<OverdueItem[]> {
  const d = sql`${asOf}::date`;
  const live = sql`p.state = 'approved' and not p.red and p.deleted_at is null`;
  const rows = await queryRows<Candidate>(
    ex,
    sql`with c as ${contracts},
        cand as (
          select i.id from contract_plan_items i join c on c.id = i.contract_id
           where i.superseded_by is null and i.due_date < ${d}
             and (i.principal_paid < i.principal or i.interest_paid < i.interest or i.fee_paid < i.fee)
          union
          select id from ${itemsReadFromLines(sql`c`, asOf)} as late)
        select i.id::int as id, i.contract_id::int as contract_id, i.period, to_char(i.due_date, 'YYYY-MM-DD') as due_date,
               i.principal::text, i.interest::text, i.fee::text, i.penalty::text, k.rule_snapshot,
               coalesce((select json_agg(json_build_object('component', l.component, 'amount', l.amount::text,
                                                           'date', to_char(p.paid_date, 'YYYY-MM-DD')))
                           from paid_lines l join paids p on p.id = l.paid_id
                          where l.plan_item_id = i.id and ${live}), '[]'::json) as payments
          from cand join contract_plan_items i on i.id = cand.id join contracts k on k.id = i.contract_id`,
  );
  const rules = new Map<number, InterestRuleCalc>();
  const out: OverdueItem[] = [];
  for (const r of rows) {
    let rule = rules.get(r.contract_id);
    if (!rule) {
      rule = interestRuleCalc.parse(r.rule_snapshot);
      rules.set(r.contract_id, rule);
    }
    const item = {
      period: r.period,
      dueDate: r.due_date,
      principal: r.principal,
      interest: r.interest,
      fee: r.fee,
      penalty: r.penalty,
    };
    const payments = r.payments.map((p) => itemPayment(r.period, p.component, p.amount, p.date));
    const f = itemAsOf(item, payments, asOf, rule);
    if (f.status !== '逾期') continue;
    out.push({
      contractId: r.contract_id,
      itemId: r.id,
      period: r.period,
      dueDate: r.due_date,
      overdueDays: f.overdueDays,
      open: new Decimal(f.open.PRINCIPAL).plus(f.open.INTEREST).plus(f.open.FEE).toFixed(2),
      penalty: f.penaltyOwed,
    });
  }
  return out;
}
