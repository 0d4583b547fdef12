import Decimal from 'decimal.js';
import { and, asc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type {
  PaidInit,
  PaidKind,
  PaidRow,
  PaidSuggestion,
  PaidView,
  ValidPlan,
  paidListSchema,
  paidSaveSchema,
  paidSuggestSchema,
} from '@portal/contract/accounts';
import type { Page } from '@portal/contract/api';
import type { Db, Executor, Tx } from '../../platform/db/client';
import { queryRows } from '../../platform/db/client';
import { laterOwner, writeLater } from '../../platform/db/command';
import { codeSql } from '../../platform/db/codes';
import type { Actor } from '../../platform/db/audit';
import type { Written } from '../workflow';
import { updateVersioned } from '../../platform/db/versioned';
import { badInput, conflict, notFound } from '../../platform/errors';
import { countOf, likePattern, offsetOf, orderClause, page } from '../../platform/http/list';
import type { ScopeUser } from '../../platform/auth/data-scope';
import { contractPlanItems, contracts } from '../contract/schema';
import { findContract, requireEffective, scopeOf } from '../contract';
import { incomes } from '../income/schema';
import { findIncome, type IncomeRecord } from '../income';
import {
  checkLines,
  describeLines,
  requireRuleOrder,
  ruleAllocation,
  settlementLines,
  type Line,
  type Waiver,
} from './allocation';
import {
  contractRule,
  lastPostingDate,
  openAsOf,
  paymentsOf,
  planItems,
  planItemsAndLastPosting,
  type ItemRow,
} from '../contract';
import type { ItemPayment } from '@portal/contract/plan/accrual';
import { paidLines, paidReds, paids, paidWaivers } from './schema';
import { formatYuan } from '@portal/contract/format';
import { addDays } from '@portal/contract/plan/dates';

type ContractRow = typeof contracts.$inferSelect;
export type PaidRecord = typeof paids.$inferSelect;
export const PAID = '来款核销';
const live = isNull(paids.deletedAt);

const balanceOf = (i: IncomeRecord) => new Decimal(i.amount).minus(i.allocated);

/**
 * A write-off needs an approved contract that is not settled and whose money went out: nothing is
 * due on a contract before its 放款单 is approved (docs/money-lifecycle.md).
 */
export const requireWriteOffable = (contract: ContractRow) => {
  requireEffective(contract, '核销');
  if (contract.loanState !== 'loaned') throw conflict('合同未放款，不能核销');
};

export function requireApprovedIncome(income: Pick<IncomeRecord, 'state'>): void {
  if (income.state !== 'approved') throw conflict('来款未审核通过，不能核销');
}

/**
 * The write-off date's rules: not before the incoming, the contract or the latest posting; not
 * after today. `last` is the latest posting date when the caller read it already (with the plan
 * items, resolveLines); otherwise it is read here.
 */
export async function checkPaidDate(
  ex: Executor,
  date: string,
  income: Pick<IncomeRecord, 'valueDate'>,
  contract: ContractRow,
  today: string,
  known?: { last: string | null },
): Promise<void> {
  checkDateBounds(date, income, contract, today);
  checkAfterLastPosting(date, known ? known.last : await lastPostingDate(ex, contract.id));
}

function checkDateBounds(
  date: string,
  income: Pick<IncomeRecord, 'valueDate'>,
  contract: ContractRow,
  today: string,
): void {
  if (date > today) throw badInput(`核销日期不能晚于营业日 ${today}`);
  if (date < income.valueDate) throw badInput(`核销日期不能早于来款日期 ${income.valueDate}`);
  if (date < contract.startDate) throw badInput(`核销日期不能早于合同起始日 ${contract.startDate}`);
}

function checkAfterLastPosting(date: string, last: string | null): void {
  if (last && date < last) throw badInput(`核销日期不能早于该合同最近一次核销或冲红日期 ${last}`);
}

/** getValidPlanPaid: the contract's open items as of the date. */
export async function validPlan(ex: Executor, contract: ContractRow, date: string): Promise<ValidPlan> {
  const items = await planItems(ex, contract.id);
  const open = openAsOf(items, await paymentsOf(ex, items), date, contractRule(contract));
  return {
    contBizCode: contract.bizCode,
    contractNo: contract.contractNo,
    custName: contract.custName,
    paidDate: date,
    penaltyThrough: addDays(date, -1),
    items: open,
    openTotal: open.reduce((s, o) => s.plus(o.openTotal), new Decimal(0)).toFixed(2),
  };
}

/** initPaidBase / initSpecialPaidBase: the incoming and the contracts it may serve. */
export async function paidInit(
  ex: Executor,
  code: string,
  user: ScopeUser,
  today: string,
): Promise<PaidInit> {
  const income = await findIncome(ex, code);
  requireApprovedIncome(income);
  const balance = balanceOf(income);
  if (balance.lte(0)) throw conflict('该来款已全部核销');
  // The payer's own contracts first (customer or a payer of the contract by name; or, when the
  // payer is a customer, a contract naming it as payer or debtor: docs/credit.md "Debtors"), then the rest.
  const list = await queryRows<PaidInit['contracts'][number] & { match: boolean }>(
    ex,
    sql`with payer as (select comp_code as code from companies where comp_name = ${income.payerName} and deleted_at is null)
        select c.biz_code as "contBizCode", c.contract_no as "contractNo", c.cust_name as "custName",
               c.principal_open::text as "principalOpen",
               (c.cust_name = ${income.payerName} or exists (select 1 from contract_payers p
                  where p.contract_id = c.id and (p.payer_name = ${income.payerName} or p.payer_code in (select code from payer)))
                or exists (select 1 from contract_receivables r
                  where r.contract_id = c.id and r.debtor_code in (select code from payer))) as match
          from contracts c
         where c.deleted_at is null and c.status = 'effective' and c.loan_state = 'loaned' and ${scopeOf(user)}
         order by match desc, c.contract_no limit 200`,
  );
  return {
    income: {
      fiidBizCode: income.bizCode,
      payerName: income.payerName,
      valueDate: income.valueDate,
      amount: income.amount,
      balance: balance.toFixed(2),
      serialNo: income.serialNo,
    },
    contracts: list.map(({ match: _match, ...c }) => c),
    paidDate: income.valueDate > today ? today : income.valueDate,
  };
}

/** getPaiPlanInfo / getSpecialPlanInfo: the allocation the screen starts from. */
export async function suggest(
  ex: Executor,
  body: z.output<typeof paidSuggestSchema>,
  user: ScopeUser,
  today: string,
): Promise<PaidSuggestion> {
  const income = await findIncome(ex, body.fiidBizCode);
  requireApprovedIncome(income);
  const contract = await findContract(ex, body.contBizCode, user);
  requireWriteOffable(contract);
  await checkPaidDate(ex, body.paidDate, income, contract, today);
  const balance = balanceOf(income);
  const amount = body.amount ?? balance.toFixed(2);
  if (new Decimal(amount).gt(balance))
    throw conflict(`核销金额 ${formatYuan(amount)} 超过来款可核销余额 ${formatYuan(balance)}`);
  const rule = contractRule(contract);
  const items = await planItems(ex, contract.id);
  const payments = await paymentsOf(ex, items);
  if (body.mode === 'settlement') {
    const s = settlementLines(items, payments, body.paidDate, rule);
    return {
      kind: 'settlement',
      amount: s.total,
      lines: describeLines(s.lines, items),
      allocated: s.total,
      unallocated: '0.00',
      settlement: { total: s.total, interestWaived: s.interestWaived, feeWaived: s.feeWaived },
    };
  }
  const open = openAsOf(items, payments, body.paidDate, rule);
  const a = ruleAllocation(open, amount, body.paidDate, rule);
  return {
    kind: body.mode === 'manual' ? 'manual' : 'normal',
    amount,
    lines: describeLines(a.lines, items),
    allocated: a.allocated,
    unallocated: a.unallocated,
  };
}

/**
 * The lines a write-off posts, checked against the plan as it is now: a settlement's are the
 * quote's (recomputed, never the client's), a normal one's must follow the rule's order.
 */
export async function resolveLines(
  ex: Executor,
  kind: PaidKind,
  given: readonly Line[],
  contract: ContractRow,
  date: string,
  lock = false,
  /** Checks the contract's latest posting date, read with the items, before anything else is checked. */
  checkLast?: (last: string | null) => void,
  /** The items, payments and latest posting date as the caller read them (planItemsAndLastPosting's, locked with `lock`). */
  read?: { items: ItemRow[]; payments: ItemPayment[]; last: string | null },
): Promise<{
  lines: Line[];
  waivers: Waiver[];
  amount: Decimal;
  principal: Decimal;
  /** The live items and their dated payments as read (locked with `lock`), for the caller's own use. */
  items: ItemRow[];
  payments: ItemPayment[];
  /** The contract's latest posting date (lastPostingDate), read with the items. */
  last: string | null;
}> {
  const rule = contractRule(contract);
  const { items, payments, last } = read ?? (await planItemsAndLastPosting(ex, contract.id, lock));
  checkLast?.(last);
  // A manual allocation is checked item by item against what each item owes (checkLines), so only
  // the items it names are accrued (an item's figures depend on its own payments alone); the
  // rule's order and a settlement need every item. The accrual is most of the save's and the
  // approval's computation in node (bench/README.md "Write-off contention: ninth pass").
  const named = kind === 'manual' ? new Set(given.map((l) => l.itemId)) : undefined;
  const open = openAsOf(named ? items.filter((i) => named.has(i.id)) : items, payments, date, rule);
  let lines = [...given];
  let waivers: Waiver[] = [];
  if (kind === 'settlement') {
    const s = settlementLines(items, payments, date, rule);
    if (s.lines.length === 0) throw conflict('该合同没有待还款项');
    lines = s.lines;
    waivers = s.waivers;
  }
  const totals = checkLines(lines, open, lock ? { items } : undefined);
  if (kind === 'normal') requireRuleOrder(lines, open, date, rule);
  return { lines, waivers, ...totals, items, payments, last };
}

/**
 * The save's incoming (findIncome's row: 404 when it does not exist) and its contract as
 * findContract reads it in the user's scope (null when none), one statement (bench/README.md
 * "Fourteenth pass"); the caller checks them in findIncome's and findContract's order.
 */
async function incomeAndContract(
  ex: Executor,
  incomeCode: string,
  contractCode: string,
  user: ScopeUser,
): Promise<{ income: IncomeRecord; contract: ContractRow | null }> {
  const [row] = await ex
    .select({ income: incomes, contract: contracts })
    .from(incomes)
    .leftJoin(contracts, and(eq(contracts.bizCode, contractCode), isNull(contracts.deletedAt), scopeOf(user)))
    .where(and(eq(incomes.bizCode, incomeCode), isNull(incomes.deletedAt)))
    .limit(1);
  if (!row) throw notFound('来款');
  return row;
}

export async function savePaid(
  tx: Tx,
  body: z.output<typeof paidSaveSchema>,
  actor: Actor,
  user: ScopeUser,
  today: string,
): Promise<Written<PaidRecord>> {
  const { income, contract: found } = await incomeAndContract(tx, body.fiidBizCode, body.contBizCode, user);
  requireApprovedIncome(income);
  if (!found) throw notFound('合同');
  const contract = found;
  requireWriteOffable(contract);
  // The latest posting date is read with the plan items and checked right after them, before the
  // lines (the order of checkPaidDate's refusals as before, a statement less).
  checkDateBounds(body.paidDate, income, contract, today);
  const { lines, waivers, amount, principal } = await resolveLines(
    tx,
    body.kind,
    body.lines,
    contract,
    body.paidDate,
    false,
    (last) => checkAfterLastPosting(body.paidDate, last),
  );
  const balance = balanceOf(income);
  if (amount.gt(balance))
    throw conflict(`核销金额 ${formatYuan(amount)} 超过来款可核销余额 ${formatYuan(balance)}`);
  const values = {
    incomeId: income.id,
    contractId: contract.id,
    paidDate: body.paidDate,
    kind: body.kind,
    amount: amount.toFixed(2),
    principal: principal.toFixed(2),
    remark: body.remark ?? null,
  };
  let id: number;
  let code: string;
  let head: PaidRecord | undefined;
  if (body.paidBizCode) {
    const row = await findPaid(tx, body.paidBizCode);
    if (body.version === undefined) throw badInput('版本号不能为空');
    await updateVersioned(tx, paids, eq(paids.id, row.id), body.version, values, actor.userId, PAID);
    await tx.delete(paidLines).where(eq(paidLines.paidId, row.id));
    await tx.delete(paidWaivers).where(eq(paidWaivers.paidId, row.id));
    id = row.id;
    code = row.bizCode;
  } else {
    // The code given by the insert, and the row answered whole: the pipeline's head without a read.
    [head] = await tx
      .insert(paids)
      .values({ ...values, bizCode: codeSql('paid'), createdBy: actor.userId, updatedBy: actor.userId })
      .returning();
    id = head!.id;
    code = head!.bizCode;
  }
  // The lines (and a settlement's waivers) wait for the statement that ends the save: its
  // submission's state update or its audit rows (writeLater; nothing reads them before the commit).
  const owner = laterOwner('paid', code);
  await writeLater(tx, owner, (gate) => linesInsert(sql`paid_lines`, id, lines, gate));
  if (waivers.length)
    await writeLater(tx, owner, (gate) => linesInsert(sql`paid_waivers`, id, waivers, gate));
  return { code, detail: { amount: values.amount, kind: body.kind, lines: lines.length }, head };
}

/**
 * The insert of a write-off's lines or waivers (`table`), in their order (ids ascending as given), the
 * rows as one JSON parameter; written only when `gate` holds (writeLater).
 */
function linesInsert(table: SQL, paidId: number, rows: readonly (Line | Waiver)[], gate: SQL): SQL {
  const json = JSON.stringify(rows.map((r, n) => ({ n, i: r.itemId, c: r.component, a: r.amount })));
  return sql`insert into ${table} (paid_id, plan_item_id, component, amount)
    select ${paidId}::bigint, x.i, x.c, x.a from jsonb_to_recordset(${json}::jsonb) as x(n int, i bigint, c text, a numeric)
     where ${gate} order by x.n`;
}

export async function findPaid(ex: Executor, code: string, user?: ScopeUser): Promise<PaidRecord> {
  const [row] = await ex
    .select({ p: paids })
    .from(paids)
    .innerJoin(contracts, eq(contracts.id, paids.contractId))
    .where(and(eq(paids.bizCode, code), live, user ? scopeOf(user) : undefined));
  if (!row) throw notFound(PAID);
  return row.p;
}

export async function linesOf(ex: Executor, paidId: number) {
  return ex
    .select({
      itemId: paidLines.planItemId,
      component: paidLines.component,
      amount: paidLines.amount,
      period: contractPlanItems.period,
      dueDate: contractPlanItems.dueDate,
    })
    .from(paidLines)
    .innerJoin(contractPlanItems, eq(contractPlanItems.id, paidLines.planItemId))
    .where(eq(paidLines.paidId, paidId))
    .orderBy(asc(contractPlanItems.period), asc(paidLines.id));
}

const rowColumns = {
  paidBizCode: paids.bizCode,
  fiidBizCode: incomes.bizCode,
  payerName: incomes.payerName,
  contBizCode: contracts.bizCode,
  contractNo: contracts.contractNo,
  custName: contracts.custName,
  paidDate: paids.paidDate,
  kind: paids.kind,
  amount: paids.amount,
  principal: paids.principal,
  state: paids.state,
  red: paids.red,
  updatedAt: paids.updatedAt,
};

const toRow = (r: { kind: string; state: string } & Omit<PaidRow, 'kind' | 'state'>): PaidRow => ({
  ...r,
  kind: r.kind as PaidKind,
  state: r.state as PaidRow['state'],
});

export async function listPaids(
  db: Db,
  q: z.output<typeof paidListSchema>,
  user: ScopeUser,
): Promise<Page<PaidRow>> {
  const cond = and(
    live,
    scopeOf(user),
    q.paidBizCode ? eq(paids.bizCode, q.paidBizCode) : undefined,
    q.fiidBizCode ? eq(incomes.bizCode, q.fiidBizCode) : undefined,
    q.contBizCode ? eq(contracts.bizCode, q.contBizCode) : undefined,
    q.contractNo ? sql`${contracts.contractNo} ilike ${likePattern(q.contractNo)}` : undefined,
    q.state ? eq(paids.state, q.state) : undefined,
    q.red === undefined ? undefined : eq(paids.red, q.red),
    q.paidDateFrom ? sql`${paids.paidDate} >= ${q.paidDateFrom}` : undefined,
    q.paidDateTo ? sql`${paids.paidDate} <= ${q.paidDateTo}` : undefined,
    q.amountStart ? sql`${paids.amount} >= ${q.amountStart}` : undefined,
    q.amountEnd ? sql`${paids.amount} <= ${q.amountEnd}` : undefined,
  )!;
  const rows = await db
    .select(rowColumns)
    .from(paids)
    .innerJoin(incomes, eq(incomes.id, paids.incomeId))
    .innerJoin(contracts, eq(contracts.id, paids.contractId))
    .where(cond)
    .orderBy(
      ...orderClause(q, { paidDate: paids.paidDate, amount: paids.amount, updatedAt: paids.updatedAt }, [
        sql`${paids.updatedAt} desc`,
        sql`${paids.id} desc`,
      ]),
    )
    .limit(q.pageSize)
    .offset(offsetOf(q));
  const total = await countOf(
    db,
    sql`from ${paids} inner join ${incomes} on ${incomes.id} = ${paids.incomeId}
        inner join ${contracts} on ${contracts.id} = ${paids.contractId} where ${cond}`,
  );
  return page(rows.map(toRow), total, q);
}

export async function viewPaid(ex: Executor, code: string, user: ScopeUser): Promise<PaidView> {
  const [r] = await ex
    .select({
      ...rowColumns,
      id: paids.id,
      version: paids.version,
      remark: paids.remark,
      released: paids.released,
      settledContract: paids.settledContract,
      income: incomes,
    })
    .from(paids)
    .innerJoin(incomes, eq(incomes.id, paids.incomeId))
    .innerJoin(contracts, eq(contracts.id, paids.contractId))
    .where(and(eq(paids.bizCode, code), live, scopeOf(user)));
  if (!r) throw notFound(PAID);
  const { id, income, version, remark, released, settledContract, ...row } = r;
  const [red] = await ex
    .select({ code: paidReds.bizCode })
    .from(paidReds)
    .where(and(eq(paidReds.paidId, id), isNull(paidReds.deletedAt)));
  return {
    ...toRow(row),
    version,
    remark,
    released,
    settledContract,
    redBizCode: red?.code ?? null,
    income: {
      fiidBizCode: income.bizCode,
      payerName: income.payerName,
      valueDate: income.valueDate,
      amount: income.amount,
      balance: balanceOf(income).toFixed(2),
      serialNo: income.serialNo,
    },
    lines: (await linesOf(ex, id)).map((l) => ({ ...l, component: l.component as Line['component'] })),
  };
}

export async function deletePaid(tx: Tx, row: PaidRecord, actor: Actor): Promise<void> {
  await tx
    .update(paids)
    .set({ deletedAt: sql`now()`, updatedBy: actor.userId, version: sql`${paids.version} + 1` })
    .where(eq(paids.id, row.id));
}

/**
 * A live write-off that takes money from the incoming `incomeCode` (its code), or null: registered
 * as an income usage check, so an incoming a write-off uses is neither rejected nor revoked.
 */
export async function incomeWriteOff(ex: Executor, incomeCode: string): Promise<string | null> {
  const [p] = await ex
    .select({ code: paids.bizCode })
    .from(paids)
    .innerJoin(incomes, eq(incomes.id, paids.incomeId))
    .where(and(eq(incomes.bizCode, incomeCode), isNull(paids.deletedAt)))
    .limit(1);
  return p?.code ?? null;
}
