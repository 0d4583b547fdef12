import Decimal from 'decimal.js';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Page } from '@portal/contract/api';
import type {
  BuybackQuote,
  BuybackRedState,
  BuybackRow,
  BuybackSettleRow,
  BuybackSettleView,
  BuybackView,
  buybackListSchema,
  buybackSaveSchema,
  buybackSettleSchema,
} from '@portal/contract/buyback';
import type { DocState } from '@portal/contract/workflow';
import { formatYuan } from '@portal/contract/format';
import type { Db, Executor, Tx } from '../../platform/db/client';
import { nextCode } from '../../platform/db/codes';
import type { Actor } from '../../platform/db/audit';
import { updateVersioned } from '../../platform/db/versioned';
import { badInput, conflict, notFound } from '../../platform/errors';
import { countOf, likePattern, offsetOf, orderClause, page } from '../../platform/http/list';
import type { ScopeUser } from '../../platform/auth/data-scope';
import { contracts } from '../contract/schema';
import { findContract, lockContract, requireEffective, scopeOf, type ContractRow } from '../contract';
import { findIncome, type IncomeRecord } from '../income';
import { incomes } from '../income/schema';
import { checkClosureDate, closureCode, closureLines, closureQuote, quoteValues } from '../paid';
import type { Written } from '../workflow';
import { buybacks, buybackSettlements } from './schema';

export type BuybackRecord = typeof buybacks.$inferSelect;
export type SettleRecord = typeof buybackSettlements.$inferSelect;
export const BUYBACK = '回购单';
export const SETTLE = '回购款核销';
const live = isNull(buybacks.deletedAt);
const liveSettle = isNull(buybackSettlements.deletedAt);

/**
 * A buy-back needs a disbursed contract in force that the seller took with recourse (有追索): a
 * without-recourse contract's risk stays with us (docs/buyback.md).
 */
export function requireBuybackable(contract: ContractRow): void {
  requireEffective(contract, '回购');
  if (contract.loanState !== 'loaned') throw conflict('合同未放款，不能回购');
  if (contract.recourse !== 'with') throw conflict('无追索合同不能回购');
}

/** The quote on a date, or 409 when nothing is open. */
async function quoteOf(ex: Executor, contract: ContractRow, date: string, today: string) {
  requireBuybackable(contract);
  await checkClosureDate(ex, contract, date, today);
  const q = await closureQuote(ex, contract, date);
  if (new Decimal(q.total).lte(0)) throw conflict('该合同没有待还款项，不能回购');
  return q;
}

/** quote: the buy-back amount of a contract on a date, line by line. */
export async function buybackQuote(
  ex: Executor,
  contract: ContractRow,
  date: string,
  today: string,
): Promise<BuybackQuote> {
  const q = await quoteOf(ex, contract, date, today);
  return {
    contBizCode: contract.bizCode,
    contractNo: contract.contractNo,
    custName: contract.custName,
    buybackDate: date,
    principal: q.principal,
    interest: q.interest,
    fee: q.fee,
    penalty: q.penalty,
    amount: q.total,
    interestWaived: q.interestWaived,
    feeWaived: q.feeWaived,
    lines: q.described,
  };
}

/** The live buy-back of a contract not reversed (at most one: a unique index backs this), if any. */
async function liveBuybackOf(ex: Executor, contractId: number, except?: number): Promise<string | null> {
  const rows = await ex
    .select({ id: buybacks.id, code: buybacks.bizCode })
    .from(buybacks)
    .where(and(eq(buybacks.contractId, contractId), live, eq(buybacks.redState, 'none')));
  return rows.find((r) => r.id !== except)?.code ?? null;
}

export async function saveBuyback(
  tx: Tx,
  body: z.output<typeof buybackSaveSchema>,
  actor: Actor,
  user: ScopeUser,
  today: string,
): Promise<Written> {
  const found = await findContract(tx, body.contBizCode, user);
  // Locked: two 回购单 raised for one contract at once queue here, the second sees the first.
  const contract = await lockContract(tx, found.bizCode);
  const q = await quoteOf(tx, contract, body.buybackDate, today);
  const values = {
    contractId: contract.id,
    buybackDate: body.buybackDate,
    ...quoteValues(q),
    remark: body.remark ?? null,
  };
  const existing = body.buybackBizCode ? await findBuyback(tx, body.buybackBizCode) : null;
  const other = await liveBuybackOf(tx, contract.id, existing?.id);
  if (other) throw conflict(`该合同已有回购单 ${other}`);
  if (existing) {
    if (body.version === undefined) throw badInput('版本号不能为空');
    await updateVersioned(
      tx,
      buybacks,
      eq(buybacks.id, existing.id),
      body.version,
      values,
      actor.userId,
      BUYBACK,
    );
    return { code: existing.bizCode, detail: { amount: q.total, buybackDate: body.buybackDate } };
  }
  const code = await nextCode(tx, 'buyback');
  await tx
    .insert(buybacks)
    .values({ ...values, bizCode: code, createdBy: actor.userId, updatedBy: actor.userId });
  return { code, detail: { amount: q.total, buybackDate: body.buybackDate } };
}

export async function findBuyback(ex: Executor, code: string, user?: ScopeUser): Promise<BuybackRecord> {
  const [row] = await ex
    .select({ b: buybacks })
    .from(buybacks)
    .innerJoin(contracts, eq(contracts.id, buybacks.contractId))
    .where(and(eq(buybacks.bizCode, code), live, user ? scopeOf(user) : undefined));
  if (!row) throw notFound(BUYBACK);
  return row.b;
}

export async function deleteBuyback(tx: Tx, row: BuybackRecord, actor: Actor): Promise<void> {
  await tx
    .update(buybacks)
    .set({ deletedAt: sql`now()`, updatedBy: actor.userId, version: sql`${buybacks.version} + 1` })
    .where(eq(buybacks.id, row.id));
}

const rowColumns = {
  buybackBizCode: buybacks.bizCode,
  contBizCode: contracts.bizCode,
  contractNo: contracts.contractNo,
  custName: contracts.custName,
  buybackDate: buybacks.buybackDate,
  principal: buybacks.principal,
  interest: buybacks.interest,
  fee: buybacks.fee,
  penalty: buybacks.penalty,
  amount: buybacks.amount,
  settled: buybacks.settled,
  state: buybacks.state,
  redState: buybacks.redState,
  updatedAt: buybacks.updatedAt,
};

type RawRow = Omit<BuybackRow, 'state' | 'redState' | 'open'> & { state: string; redState: string };
const toRow = (r: RawRow): BuybackRow => ({
  ...r,
  open: new Decimal(r.amount).minus(r.settled).toFixed(2),
  state: r.state as DocState,
  redState: r.redState as BuybackRedState,
});

export async function listBuybacks(
  db: Db,
  q: z.output<typeof buybackListSchema>,
  user: ScopeUser,
): Promise<Page<BuybackRow>> {
  const cond = and(
    live,
    scopeOf(user),
    q.buybackBizCode ? eq(buybacks.bizCode, q.buybackBizCode) : undefined,
    q.contBizCode ? eq(contracts.bizCode, q.contBizCode) : undefined,
    q.contractNo ? sql`${contracts.contractNo} ilike ${likePattern(q.contractNo)}` : undefined,
    q.custName ? sql`${contracts.custName} ilike ${likePattern(q.custName)}` : undefined,
    q.state ? eq(buybacks.state, q.state) : undefined,
    q.redState ? eq(buybacks.redState, q.redState) : undefined,
    q.buybackDateFrom ? sql`${buybacks.buybackDate} >= ${q.buybackDateFrom}` : undefined,
    q.buybackDateTo ? sql`${buybacks.buybackDate} <= ${q.buybackDateTo}` : undefined,
  )!;
  const rows = await db
    .select(rowColumns)
    .from(buybacks)
    .innerJoin(contracts, eq(contracts.id, buybacks.contractId))
    .where(cond)
    .orderBy(
      ...orderClause(
        q,
        { buybackDate: buybacks.buybackDate, amount: buybacks.amount, updatedAt: buybacks.updatedAt },
        [sql`${buybacks.updatedAt} desc`, sql`${buybacks.id} desc`],
      ),
    )
    .limit(q.pageSize)
    .offset(offsetOf(q));
  const total = await countOf(
    db,
    sql`from ${buybacks} inner join ${contracts} on ${contracts.id} = ${buybacks.contractId} where ${cond}`,
  );
  return page(rows.map(toRow), total, q);
}

async function settlementsOf(ex: Executor, buybackId: number): Promise<BuybackSettleRow[]> {
  const rows = await ex
    .select({
      settleBizCode: buybackSettlements.bizCode,
      fiidBizCode: incomes.bizCode,
      payerName: incomes.payerName,
      settleDate: buybackSettlements.settleDate,
      amount: buybackSettlements.amount,
      principal: buybackSettlements.principal,
      released: buybackSettlements.released,
      state: buybackSettlements.state,
    })
    .from(buybackSettlements)
    .innerJoin(incomes, eq(incomes.id, buybackSettlements.incomeId))
    .where(and(eq(buybackSettlements.buybackId, buybackId), liveSettle))
    .orderBy(buybackSettlements.settleDate, buybackSettlements.id);
  return rows.map((r) => ({ ...r, state: r.state as DocState }));
}

export async function viewBuyback(ex: Executor, code: string, user: ScopeUser): Promise<BuybackView> {
  const [r] = await ex
    .select({
      ...rowColumns,
      id: buybacks.id,
      version: buybacks.version,
      remark: buybacks.remark,
      redReason: buybacks.redReason,
      released: buybacks.released,
      paidId: buybacks.paidId,
      contract: contracts,
    })
    .from(buybacks)
    .innerJoin(contracts, eq(contracts.id, buybacks.contractId))
    .where(and(eq(buybacks.bizCode, code), live, scopeOf(user)));
  if (!r) throw notFound(BUYBACK);
  const { id, version, remark, redReason, released, paidId, contract, ...row } = r;
  // Before approval: what approval would close on the saved date, as the plan stands now.
  let lines: BuybackView['lines'] = [];
  if (paidId) lines = await closureLines(ex, paidId);
  else if (contract.status === 'effective' && contract.loanState === 'loaned' && contract.ruleSnapshot)
    lines = (await closureQuote(ex, contract, row.buybackDate)).described;
  return {
    ...toRow(row),
    version,
    remark,
    redReason,
    released,
    paidBizCode: paidId ? await closureCode(ex, paidId) : null,
    lines,
    settlements: await settlementsOf(ex, id),
  };
}

// ---- 回购款核销

const balanceOf = (i: IncomeRecord) => new Decimal(i.amount).minus(i.allocated);

/** A buy-back settled by incomings: approved and not reversed. */
export function requireSettleable(b: BuybackRecord): void {
  if (b.state !== 'approved') throw conflict('回购单未审核通过，不能核销回购款');
  if (b.redState !== 'none') throw conflict('回购单已冲红，不能核销回购款');
}

export function requireApprovedIncome(income: IncomeRecord): void {
  if (income.state !== 'approved') throw conflict('来款未审核通过，不能核销');
}

/** The settlement date: not after the business date, not before the incoming or the buy-back. */
export function checkSettleDate(date: string, income: IncomeRecord, b: BuybackRecord, today: string): void {
  if (date > today) throw badInput(`核销日期不能晚于营业日 ${today}`);
  if (date < income.valueDate) throw badInput(`核销日期不能早于来款日期 ${income.valueDate}`);
  if (date < b.buybackDate) throw badInput(`核销日期不能早于回购日期 ${b.buybackDate}`);
}

/** The amount against what is open on the buy-back and the incoming's balance (409 above either). */
export function checkSettleAmount(amount: string, income: IncomeRecord, b: BuybackRecord): void {
  const open = new Decimal(b.amount).minus(b.settled);
  if (new Decimal(amount).gt(open))
    throw conflict(`核销金额 ${formatYuan(amount)} 超过回购款未收金额 ${formatYuan(open)}`);
  const balance = balanceOf(income);
  if (new Decimal(amount).gt(balance))
    throw conflict(`核销金额 ${formatYuan(amount)} 超过来款可核销余额 ${formatYuan(balance)}`);
}

export async function saveSettle(
  tx: Tx,
  body: z.output<typeof buybackSettleSchema>,
  actor: Actor,
  user: ScopeUser,
  today: string,
): Promise<Written> {
  const b = await findBuyback(tx, body.buybackBizCode, user);
  requireSettleable(b);
  const income = await findIncome(tx, body.fiidBizCode);
  requireApprovedIncome(income);
  checkSettleDate(body.settleDate, income, b, today);
  checkSettleAmount(body.amount, income, b);
  const values = {
    buybackId: b.id,
    incomeId: income.id,
    settleDate: body.settleDate,
    amount: new Decimal(body.amount).toFixed(2),
    remark: body.remark ?? null,
  };
  if (body.settleBizCode) {
    const row = await findSettle(tx, body.settleBizCode);
    if (body.version === undefined) throw badInput('版本号不能为空');
    await updateVersioned(
      tx,
      buybackSettlements,
      eq(buybackSettlements.id, row.id),
      body.version,
      values,
      actor.userId,
      SETTLE,
    );
    return { code: row.bizCode, detail: { amount: values.amount, buyback: b.bizCode } };
  }
  const code = await nextCode(tx, 'buyback_settle');
  await tx
    .insert(buybackSettlements)
    .values({ ...values, bizCode: code, createdBy: actor.userId, updatedBy: actor.userId });
  return { code, detail: { amount: values.amount, buyback: b.bizCode } };
}

export async function findSettle(ex: Executor, code: string, user?: ScopeUser): Promise<SettleRecord> {
  const [row] = await ex
    .select({ s: buybackSettlements })
    .from(buybackSettlements)
    .innerJoin(buybacks, eq(buybacks.id, buybackSettlements.buybackId))
    .innerJoin(contracts, eq(contracts.id, buybacks.contractId))
    .where(and(eq(buybackSettlements.bizCode, code), liveSettle, user ? scopeOf(user) : undefined));
  if (!row) throw notFound(SETTLE);
  return row.s;
}

export async function deleteSettle(tx: Tx, row: SettleRecord, actor: Actor): Promise<void> {
  await tx
    .update(buybackSettlements)
    .set({
      deletedAt: sql`now()`,
      updatedBy: actor.userId,
      version: sql`${buybackSettlements.version} + 1`,
    })
    .where(eq(buybackSettlements.id, row.id));
}

export async function viewSettle(ex: Executor, code: string, user: ScopeUser): Promise<BuybackSettleView> {
  const s = await findSettle(ex, code, user);
  const [b] = await ex
    .select({ b: buybacks, contractNo: contracts.contractNo, custName: contracts.custName })
    .from(buybacks)
    .innerJoin(contracts, eq(contracts.id, buybacks.contractId))
    .where(eq(buybacks.id, s.buybackId));
  const [income] = await ex.select().from(incomes).where(eq(incomes.id, s.incomeId));
  return {
    settleBizCode: s.bizCode,
    fiidBizCode: income!.bizCode,
    payerName: income!.payerName,
    settleDate: s.settleDate,
    amount: s.amount,
    principal: s.principal,
    released: s.released,
    state: s.state as DocState,
    version: s.version,
    remark: s.remark,
    buybackBizCode: b!.b.bizCode,
    contractNo: b!.contractNo,
    custName: b!.custName,
    buybackAmount: b!.b.amount,
    buybackOpen: new Decimal(b!.b.amount).minus(b!.b.settled).toFixed(2),
    incomeBalance: balanceOf(income!).toFixed(2),
  };
}

/** A live 回购款核销 spending the incoming `incomeCode`, or null (an income usage check). */
export async function incomeBuybackSettle(ex: Executor, incomeCode: string): Promise<string | null> {
  const [s] = await ex
    .select({ code: buybackSettlements.bizCode })
    .from(buybackSettlements)
    .innerJoin(incomes, eq(incomes.id, buybackSettlements.incomeId))
    .where(and(eq(incomes.bizCode, incomeCode), liveSettle))
    .limit(1);
  return s?.code ?? null;
}

/** The settlements of a buy-back that took or may take money (pending or approved). */
export async function payingSettlements(ex: Executor, buybackId: number): Promise<string | null> {
  const [s] = await ex
    .select({ code: buybackSettlements.bizCode })
    .from(buybackSettlements)
    .where(
      and(
        eq(buybackSettlements.buybackId, buybackId),
        liveSettle,
        inArray(buybackSettlements.state, ['pending', 'approved']),
      ),
    )
    .limit(1);
  return s?.code ?? null;
}

/** What the approved 回购款核销 hold of each incoming, as (income_id, amount) rows (对账). */
export const settledIncomes = sql`select s.income_id, s.amount from buyback_settlements s
                                    where s.deleted_at is null and s.state = 'approved'`;
