import Decimal from 'decimal.js';
import { and, asc, eq, inArray, isNull, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { OpenPlanItem } from '@portal/contract/accounts';
import { accrueItem, type ItemPayment, type ItemStatus } from '@portal/contract/plan/accrual';
import { fromDayNumber, toDayNumber } from '@portal/contract/plan/dates';
import { interestRuleCalc, type Component, type InterestRuleCalc } from '@portal/contract/plan/rule';
import { queryRows, type Executor, type Tx } from '../../platform/db/client';
import { conflict } from '../../platform/errors';
import { prebuilt } from '../../platform/db/prebuilt';
import { contractPlanItems, type contracts } from './schema';
import { paidLines, paidReds, paids } from '../paid/schema';

type ContractRow = typeof contracts.$inferSelect;
export type ItemRow = typeof contractPlanItems.$inferSelect;

/** The rule the contract's plan follows (frozen at approval). */
export function contractRule(contract: ContractRow): InterestRuleCalc {
  if (!contract.ruleSnapshot) throw conflict('合同尚无计息规则快照，不能核销');
  return interestRuleCalc.parse(contract.ruleSnapshot);
}

/** The live plan items, locked when `lock` (a posting's transaction). */
export async function planItems(ex: Executor | Tx, contractId: number, lock = false): Promise<ItemRow[]> {
  const q = ex
    .select()
    .from(contractPlanItems)
    .where(and(eq(contractPlanItems.contractId, contractId), isNull(contractPlanItems.supersededBy)))
    .orderBy(asc(contractPlanItems.period));
  return lock ? q.for('update') : q;
}

/**
 * The dated payments to these items: the lines of approved write-offs not reversed, each on its
 * write-off's date (penalty depends on when principal came in), plus those of `posting` (the
 * write-off being approved, whose state changes only after its approval hook).
 */
export async function paymentsOf(
  ex: Executor,
  items: readonly Pick<ItemRow, 'id' | 'period'>[],
  posting?: number,
): Promise<ItemPayment[]> {
  if (items.length === 0) return [];
  const period = new Map(items.map((i) => [i.id, i.period]));
  const rows = await paidLinesOf(ex, [...period.keys()], posting);
  return rows.map((r) => itemPayment(period.get(r.itemId)!, r.component, r.amount, r.date));
}

/**
 * paymentsOf for the items of many contracts in one read, each contract's payments apart (itemAsOf
 * tells an item's payments by period, so another contract's would count as its own): the day-end
 * reads a slice of contracts at a time instead of a statement per contract.
 */
export async function paymentsByContract(
  ex: Executor,
  items: readonly Pick<ItemRow, 'id' | 'period' | 'contractId'>[],
): Promise<Map<number, ItemPayment[]>> {
  const out = new Map<number, ItemPayment[]>();
  if (items.length === 0) return out;
  const byId = new Map(items.map((i) => [i.id, i]));
  for (const r of await paidLinesOf(ex, [...byId.keys()])) {
    const it = byId.get(r.itemId)!;
    const mine = out.get(it.contractId) ?? [];
    mine.push(itemPayment(it.period, r.component, r.amount, r.date));
    out.set(it.contractId, mine);
  }
  return out;
}

/** The write-off lines paymentsOf counts, with their write-off's date. */
function paidLinesOf(ex: Executor, itemIds: number[], posting?: number) {
  return ex
    .select({
      itemId: paidLines.planItemId,
      component: paidLines.component,
      amount: paidLines.amount,
      date: paids.paidDate,
    })
    .from(paidLines)
    .innerJoin(paids, eq(paids.id, paidLines.paidId))
    .where(
      and(
        inArray(paidLines.planItemId, itemIds),
        posting === undefined
          ? eq(paids.state, 'approved')
          : or(eq(paids.state, 'approved'), eq(paids.id, posting)),
        eq(paids.red, false),
        isNull(paids.deletedAt),
      ),
    );
}

const COMPONENT_KEY: Record<string, keyof ItemPayment> = {
  PRINCIPAL: 'principal',
  INTEREST: 'interest',
  FEE: 'fee',
  PENALTY: 'penalty',
};

/** One write-off line as the accrual engine reads it: `amount` of `component`, dated `date`. */
export function itemPayment(period: number, component: string, amount: string, date: string): ItemPayment {
  return { period, valueDate: date, [COMPONENT_KEY[component]!]: amount };
}

const ZERO = '0.00';

/** What itemAsOf reads of a plan item. */
export type PlanFigures = Pick<ItemRow, 'period' | 'dueDate' | 'principal' | 'interest' | 'fee' | 'penalty'>;

/** An item's figures as of a business date (docs/money-rules.md "Figures as of a date"). */
export interface ItemAsOf {
  status: ItemStatus;
  overdueDays: number;
  /** Penalty accrued through the end of `asOf`: the item's penalty due on that date. */
  penaltyDue: string;
  /** Penalty accrued through the day before `asOf`: what a payment dated `asOf` may pay. */
  penaltyPayable: string;
  /** penaltyDue less the penalty paid: the penalty owed on `asOf` (the ledger's, the reminders'). */
  penaltyOwed: string;
  /** Outstanding per component for a payment dated `asOf` (penalty: payable less paid). */
  open: Record<Component, string>;
  /** Due − paid over the four components as of the end of `asOf` (penalty: due less paid). */
  outstanding: string;
}

/**
 * The one function for an item's status and penalty as of a business date: the plan view, the
 * write-off screen and the settlement check all call it. Payments count on their own value
 * dates (those after `asOf` are ignored), so an item paid in full after its due date stays
 * 已结清 on every later date, and its penalty stops accruing on the payment's value date.
 */
export function itemAsOf(
  it: PlanFigures,
  payments: readonly ItemPayment[],
  asOf: string,
  rule: InterestRuleCalc,
): ItemAsOf {
  const mine = payments.filter((p) => p.period === it.period);
  const item = {
    dueDate: it.dueDate,
    principal: it.principal,
    interest: it.interest,
    fee: it.fee,
    penalty: it.penalty,
  };
  const now = accrueItem({ item, payments: mine, asOf, rule });
  const before = accrueItem({
    item,
    payments: mine.filter((p) => p.valueDate < asOf),
    asOf: fromDayNumber(toDayNumber(asOf) - 1),
    rule,
  });
  const penaltyPaid = mine
    .filter((p) => p.valueDate <= asOf)
    .reduce((s, p) => s.plus(p.penalty ?? ZERO), new Decimal(0));
  const penaltyOpen = Decimal.max(0, new Decimal(before.penaltyAccrued).minus(penaltyPaid));
  const open: Record<Component, string> = {
    PENALTY: penaltyOpen.toFixed(2),
    INTEREST: now.interestOutstanding,
    FEE: now.feeOutstanding,
    PRINCIPAL: now.principalOutstanding,
  };
  const outstanding = new Decimal(now.principalOutstanding)
    .plus(now.interestOutstanding)
    .plus(now.feeOutstanding)
    .plus(now.penaltyOutstanding);
  return {
    status: now.status,
    overdueDays: now.overdueDays,
    penaltyDue: now.penaltyAccrued,
    penaltyPayable: before.penaltyAccrued,
    penaltyOwed: now.penaltyOutstanding,
    open,
    outstanding: outstanding.toFixed(2),
  };
}

/**
 * Each item as of a payment dated `date` (itemAsOf): principal, interest and fee outstanding,
 * and the penalty payable — accrued through date − 1 (a payment stops accrual on its value date
 * for what it covers) less the penalty paid so far. Items with nothing open are left out unless
 * `all`.
 */
export function openAsOf(
  items: readonly ItemRow[],
  payments: readonly ItemPayment[],
  date: string,
  rule: InterestRuleCalc,
  all = false,
): OpenPlanItem[] {
  const out: OpenPlanItem[] = [];
  for (const it of items) {
    const f = itemAsOf(it, payments, date, rule);
    const openTotal = Object.values(f.open).reduce((s, v) => s.plus(v), new Decimal(0));
    if (!all && openTotal.isZero()) continue;
    out.push({
      itemId: it.id,
      period: it.period,
      dueDate: it.dueDate,
      status: f.status,
      overdueDays: f.overdueDays,
      principal: it.principal,
      interest: it.interest,
      fee: it.fee,
      penaltyAccrued: f.penaltyDue,
      open: f.open,
      openTotal: openTotal.toFixed(2),
    });
  }
  return out;
}

/**
 * The plan items of `contracts` (a row source with an `id` column) due before `asOf` whose dated
 * write-off lines itemAsOf reads differently from the stored paid sums: principal paid after the
 * due date (penalty accrued, perhaps still owed although principal, interest and fee are paid), or
 * a line dated after `asOf` (not yet paid on that date). With the items still owed principal,
 * interest or fee they are every item itemAsOf can find 逾期 on `asOf` (the dashboard, the day-end).
 *
 * Read from the two marks that find them without reading every line: `paid_lines.principal_late`
 * (kept by the triggers of migration 0038, a partial index holds the marked lines) and the
 * write-offs dated after `asOf` (by `paids_approved_date_idx`, their lines by their key). Joining
 * every write-off line to its write-off and item instead grew with the book's history, not with
 * the day: 1.5 million lines at 100,000 contracts (bench/README.md "The deep page and the
 * day-end's candidates").
 */
export function itemsReadFromLines(contracts: SQL, asOf: string): SQL {
  const d = sql`${asOf}::date`;
  const live = sql`p.state = 'approved' and not p.red and p.deleted_at is null`;
  return sql`(select i.id
                from (select l.plan_item_id from paid_lines l join paids p on p.id = l.paid_id
                       where l.principal_late and ${live}
                      union
                      select l.plan_item_id from paids p join paid_lines l on l.paid_id = p.id
                       where p.paid_date > ${d} and ${live}) as marked
                join contract_plan_items i on i.id = marked.plan_item_id join ${contracts} as lc on lc.id = i.contract_id
               where i.superseded_by is null and i.due_date < ${d})`;
}

/**
 * Whether the contract `contractId` (SQL naming its id) stands written off (核销坏账) at the end of
 * `asOf`: an approved closing write-off of kind `badDebt` dated by then, with no 冲红 dated by then
 * (as postedLines reads write-offs; docs/ledger.md "Written-off contracts").
 */
export function writtenOffBy(contractId: SQL, asOf: string): SQL {
  return sql`exists (select 1 from paids bp
                      where bp.contract_id = ${contractId} and bp.kind = 'badDebt' and bp.state = 'approved'
                        and bp.deleted_at is null and bp.paid_date <= ${asOf}::date
                        and not exists (select 1 from paid_reds br
                                         where br.paid_id = bp.id and br.state = 'approved'
                                           and br.deleted_at is null and br.red_date <= ${asOf}::date))`;
}

/**
 * The date of the latest posting on the contract: the latest of its live write-offs' dates and of
 * the dates of the approved 冲红 of its write-offs. A new write-off (核销, 回购单, 核销坏账) may not be
 * dated before it: one dated before a 冲红 would read, as of the days between, both the reversed
 * write-off and itself as paid (docs/ledger.md "As posted on a date").
 */
export async function lastPostingDate(ex: Executor, contractId: number): Promise<string | null> {
  const [last] = await queryRows<{ d: string | null }>(ex, sql`select ${lastPostingOf(ex, contractId)} as d`);
  return last?.d ?? null;
}

/**
 * The live plan items (locked when `lock`), their dated payments (paymentsOf) and the contract's
 * latest posting date (lastPostingDate) in one statement: a write-off's save and approval read
 * all three, the approval while the contract's row is locked (bench/README.md "Write-off
 * contention: ninth pass" and "eleventh pass"). The date is a column of every item's row (an
 * uncorrelated subquery, run once), each item's payments a column of its row; a contract without
 * live items reads the date on its own. Built once (prebuilt). The payments are those committed
 * when the statement starts: a caller that must see every posting holds the contract's row first
 * (every posting locks it before its items), as the approval does.
 */
export async function planItemsAndLastPosting(
  ex: Executor | Tx,
  contractId: number,
  lock = false,
): Promise<{ items: ItemRow[]; payments: ItemPayment[]; last: string | null }> {
  const rows = await (lock ? planForPostingLocked : planForPosting)(ex, { contractId });
  return planOf(ex, contractId, rows);
}

/** A write-off's stored line with its item's period and re-planning mark (`by`: the document, or null). */
export interface StoredLine {
  itemId: number;
  component: string;
  amount: string;
  period: number;
  by: string | null;
}

/**
 * planItemsAndLastPosting locked, with the stored lines of the write-off `paidId` read by the same
 * statement (an uncorrelated column of every item's row, run once): the approval reads them after
 * its contract's lock, so as current as a statement of their own (bench/README.md "Fourteenth
 * pass"). `lines` is undefined when the contract has no live item (no row to carry them).
 */
export async function planAndLinesForPosting(
  tx: Tx,
  contractId: number,
  paidId: number,
): Promise<{ items: ItemRow[]; payments: ItemPayment[]; last: string | null; lines?: StoredLine[] }> {
  const rows = await planForPostingLines(tx, { contractId, paidId });
  const plan = await planOf(tx, contractId, rows);
  return rows[0] ? { ...plan, lines: rows[0].lines } : plan;
}

async function planOf(
  ex: Executor | Tx,
  contractId: number,
  rows: { item: ItemRow; last: string | null; payments: { c: string; a: string; d: string }[] }[],
): Promise<{ items: ItemRow[]; payments: ItemPayment[]; last: string | null }> {
  if (rows.length === 0) return { items: [], payments: [], last: await lastPostingDate(ex, contractId) };
  const payments = rows.flatMap((r) => r.payments.map((p) => itemPayment(r.item.period, p.c, p.a, p.d)));
  return { items: rows.map((r) => r.item), payments, last: rows[0]!.last };
}

/** planItemsAndLastPosting's columns: the item, the contract's latest posting date, the item's payments. */
function planColumns(ex: Executor, contractId: SQLWrapper) {
  return {
    item: contractPlanItems,
    last: sql<string | null>`${lastPostingOf(ex, contractId)}`,
    // paidLinesOf's rows of this item (amount and date as text: exact, and as drizzle reads them).
    // The item's id by its table's name: drizzle names a one-table select's columns bare.
    payments: sql<{ c: string; a: string; d: string }[]>`(select coalesce(json_agg(json_build_object(
          'c', l.component, 'a', l.amount::text, 'd', p.paid_date::text) order by l.id), '[]'::json)
        from paid_lines l join paids p on p.id = l.paid_id
       where l.plan_item_id = contract_plan_items.id and p.state = 'approved' and p.red = false
         and p.deleted_at is null)`,
  };
}

/** planItemsAndLastPosting's statement, `lock` or not. */
function planForPostingQuery(ex: Executor, lock: boolean) {
  const contractId = sql.placeholder('contractId');
  const q = ex
    .select(planColumns(ex, contractId))
    .from(contractPlanItems)
    .where(and(eq(contractPlanItems.contractId, contractId), isNull(contractPlanItems.supersededBy)))
    .orderBy(asc(contractPlanItems.period));
  return lock ? q.for('update') : q;
}
const planForPosting = prebuilt('plan_for_posting', (ex) => planForPostingQuery(ex, false));
const planForPostingLocked = prebuilt('plan_for_posting_locked', (ex) => planForPostingQuery(ex, true));
/** planAndLinesForPosting's statement: planForPostingLocked with the write-off's stored lines. */
const planForPostingLines = prebuilt('plan_for_posting_lines', (ex) => {
  const contractId = sql.placeholder('contractId');
  return ex
    .select({
      ...planColumns(ex, contractId),
      lines: sql<StoredLine[]>`(select coalesce(json_agg(json_build_object(
            'itemId', l.plan_item_id, 'component', l.component, 'amount', l.amount::text,
            'period', i.period, 'by', i.superseded_by) order by l.id), '[]'::json)
          from paid_lines l join contract_plan_items i on i.id = l.plan_item_id
         where l.paid_id = ${sql.placeholder('paidId')})`,
    })
    .from(contractPlanItems)
    .where(and(eq(contractPlanItems.contractId, contractId), isNull(contractPlanItems.supersededBy)))
    .orderBy(asc(contractPlanItems.period))
    .for('update');
});

/** lastPostingDate's expression (greatest ignores a null side), as text. */
function lastPostingOf(ex: Executor, contractId: number | SQLWrapper): SQL {
  const posted = ex
    .select({ d: sql`max(${paids.paidDate})` })
    .from(paids)
    .where(
      and(
        eq(paids.contractId, contractId),
        eq(paids.state, 'approved'),
        eq(paids.red, false),
        isNull(paids.deletedAt),
      ),
    );
  const reversed = ex
    .select({ d: sql`max(${paidReds.redDate})` })
    .from(paidReds)
    .innerJoin(paids, eq(paids.id, paidReds.paidId))
    .where(and(eq(paids.contractId, contractId), eq(paidReds.state, 'approved'), isNull(paidReds.deletedAt)));
  return sql`(greatest((${posted}), (${reversed}))::text)`;
}
