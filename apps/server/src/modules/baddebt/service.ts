import Decimal from 'decimal.js';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Page } from '@portal/contract/api';
import type {
  BadDebtQuote,
  BadDebtRedState,
  BadDebtRow,
  BadDebtView,
  badDebtListSchema,
  badDebtSaveSchema,
} from '@portal/contract/baddebt';
import { ASSET_CLASS_LABELS, UNCLASSIFIED_LABEL, type AssetClass } from '@portal/contract/classification';
import type { DocState } from '@portal/contract/workflow';
import { queryRows, type Db, type Executor, type Tx } from '../../platform/db/client';
import { nextCode } from '../../platform/db/codes';
import type { Actor } from '../../platform/db/audit';
import { updateVersioned } from '../../platform/db/versioned';
import { badInput, conflict, notFound } from '../../platform/errors';
import { countOf, likePattern, offsetOf, orderClause, page } from '../../platform/http/list';
import type { ScopeUser } from '../../platform/auth/data-scope';
import { classAsOf } from '../classification';
import { contracts } from '../contract/schema';
import { findContract, lockContract, requireEffective, scopeOf, type ContractRow } from '../contract';
import {
  checkClosureDate,
  closureCode,
  closureLines,
  closureQuote,
  quoteValues,
  type ClosureQuote,
} from '../paid';
import { isClosed, lastProvisionDate, reserveHeld } from '../voucher';
import type { Written } from '../workflow';
import { badDebts } from './schema';

export type BadDebtRecord = typeof badDebts.$inferSelect;
export const BAD_DEBT = '核销坏账';
const live = isNull(badDebts.deletedAt);

/** The class of a contract in force on `date` (the latest day-end's record on or before it), or null. */
async function classOn(ex: Executor, contractId: number, date: string): Promise<AssetClass | null> {
  const [r] = await queryRows<{ asset_class: AssetClass }>(
    ex,
    sql`select cl.asset_class from ${classAsOf(sql`${contractId}::bigint`, date)} as cl`,
  );
  return r?.asset_class ?? null;
}

/**
 * Whether `contract` may be written off on `date` (docs/accounting.md "Bad-debt write-off"): in
 * force and disbursed, classified 损失 on the date, the date a valid posting date in an open month.
 * Answers the closing quote; 409 naming why not.
 */
export async function writeOffQuote(
  ex: Executor,
  contract: ContractRow,
  date: string,
  today: string,
): Promise<ClosureQuote> {
  requireEffective(contract, '核销坏账');
  if (contract.loanState !== 'loaned') throw conflict('合同未放款，不能核销坏账');
  await checkClosureDate(ex, contract, date, today, '核销日期');
  // What is held is read on the date: a provisioning dated later would be left out of it.
  const provided = await lastProvisionDate(ex, contract.contractNo);
  if (provided && date < provided)
    throw badInput(`核销日期不能早于该合同最近一次计提坏账准备的日期 ${provided}`);
  const cls = await classOn(ex, contract.id, date);
  if (cls !== 'loss')
    throw conflict(
      `合同 ${contract.contractNo} 在 ${date} 的五级分类为「${cls ? ASSET_CLASS_LABELS[cls] : UNCLASSIFIED_LABEL}」，只有「损失」类合同可以核销坏账`,
    );
  const period = date.slice(0, 7);
  if (await isClosed(ex, period))
    throw conflict(
      `核销日期${date}所在的会计期间${period}已结账，不能核销坏账；请改到未结账的月份或先反结账`,
    );
  const q = await closureQuote(ex, contract, date);
  if (new Decimal(q.principal).lte(0)) throw conflict('该合同没有未还本金，不能核销坏账');
  return q;
}

/** The principal split between the 坏账准备 held on `date` and 信用减值损失 (the shortfall). */
export async function reserveSplit(ex: Executor, contract: ContractRow, date: string, principal: string) {
  const held = new Decimal(await reserveHeld(ex, contract.contractNo, date));
  const used = Decimal.min(Decimal.max(held, 0), principal);
  return {
    reserveHeld: held.toFixed(2),
    reserveUsed: used.toFixed(2),
    lossCharged: new Decimal(principal).minus(used).toFixed(2),
  };
}

/** quote: what a 核销坏账 of a contract on a date writes off, line by line. */
export async function badDebtQuote(
  ex: Executor,
  contract: ContractRow,
  date: string,
  today: string,
): Promise<BadDebtQuote> {
  const q = await writeOffQuote(ex, contract, date, today);
  return {
    contBizCode: contract.bizCode,
    contractNo: contract.contractNo,
    custName: contract.custName,
    writeOffDate: date,
    principal: q.principal,
    interest: q.interest,
    fee: q.fee,
    penalty: q.penalty,
    amount: q.total,
    ...(await reserveSplit(ex, contract, date, q.principal)),
    lines: q.described,
  };
}

/** The live write-off of a contract not reversed (at most one: a unique index backs this), if any. */
async function liveWriteOffOf(ex: Executor, contractId: number, except?: number): Promise<string | null> {
  const rows = await ex
    .select({ id: badDebts.id, code: badDebts.bizCode })
    .from(badDebts)
    .where(and(eq(badDebts.contractId, contractId), live, eq(badDebts.redState, 'none')));
  return rows.find((r) => r.id !== except)?.code ?? null;
}

export async function saveBadDebt(
  tx: Tx,
  body: z.output<typeof badDebtSaveSchema>,
  actor: Actor,
  user: ScopeUser,
  today: string,
): Promise<Written> {
  const found = await findContract(tx, body.contBizCode, user);
  // Locked: two write-offs raised for one contract at once queue here, the second sees the first.
  const contract = await lockContract(tx, found.bizCode);
  const q = await writeOffQuote(tx, contract, body.writeOffDate, today);
  const values = {
    contractId: contract.id,
    writeOffDate: body.writeOffDate,
    ...quoteValues(q),
    remark: body.remark ?? null,
  };
  const detail = { amount: q.total, writeOffDate: body.writeOffDate };
  const existing = body.badDebtBizCode ? await findBadDebt(tx, body.badDebtBizCode) : null;
  const other = await liveWriteOffOf(tx, contract.id, existing?.id);
  if (other) throw conflict(`该合同已有核销坏账单 ${other}`);
  if (existing) {
    if (body.version === undefined) throw badInput('版本号不能为空');
    await updateVersioned(
      tx,
      badDebts,
      eq(badDebts.id, existing.id),
      body.version,
      values,
      actor.userId,
      BAD_DEBT,
    );
    return { code: existing.bizCode, detail };
  }
  const code = await nextCode(tx, 'bad_debt');
  await tx
    .insert(badDebts)
    .values({ ...values, bizCode: code, createdBy: actor.userId, updatedBy: actor.userId });
  return { code, detail };
}

export async function findBadDebt(ex: Executor, code: string, user?: ScopeUser): Promise<BadDebtRecord> {
  const [row] = await ex
    .select({ b: badDebts })
    .from(badDebts)
    .innerJoin(contracts, eq(contracts.id, badDebts.contractId))
    .where(and(eq(badDebts.bizCode, code), live, user ? scopeOf(user) : undefined));
  if (!row) throw notFound(BAD_DEBT);
  return row.b;
}

export async function deleteBadDebt(tx: Tx, row: BadDebtRecord, actor: Actor): Promise<void> {
  await tx
    .update(badDebts)
    .set({ deletedAt: sql`now()`, updatedBy: actor.userId, version: sql`${badDebts.version} + 1` })
    .where(eq(badDebts.id, row.id));
}

const columns = {
  badDebtBizCode: badDebts.bizCode,
  contBizCode: contracts.bizCode,
  contractNo: contracts.contractNo,
  custName: contracts.custName,
  writeOffDate: badDebts.writeOffDate,
  principal: badDebts.principal,
  interest: badDebts.interest,
  fee: badDebts.fee,
  penalty: badDebts.penalty,
  amount: badDebts.amount,
  state: badDebts.state,
  redState: badDebts.redState,
  updatedAt: badDebts.updatedAt,
};

const asRow = <T extends { state: string; redState: string }>(r: T) => ({
  ...r,
  state: r.state as DocState,
  redState: r.redState as BadDebtRedState,
});

export async function listBadDebts(
  db: Db,
  q: z.output<typeof badDebtListSchema>,
  user: ScopeUser,
): Promise<Page<BadDebtRow>> {
  const where = and(
    live,
    scopeOf(user),
    q.badDebtBizCode ? eq(badDebts.bizCode, q.badDebtBizCode) : undefined,
    q.contBizCode ? eq(contracts.bizCode, q.contBizCode) : undefined,
    q.contractNo ? sql`${contracts.contractNo} ilike ${likePattern(q.contractNo)}` : undefined,
    q.custName ? sql`${contracts.custName} ilike ${likePattern(q.custName)}` : undefined,
    q.state ? eq(badDebts.state, q.state) : undefined,
    q.redState ? eq(badDebts.redState, q.redState) : undefined,
    q.writeOffDateFrom ? sql`${badDebts.writeOffDate} >= ${q.writeOffDateFrom}` : undefined,
    q.writeOffDateTo ? sql`${badDebts.writeOffDate} <= ${q.writeOffDateTo}` : undefined,
  )!;
  const sorts = {
    writeOffDate: badDebts.writeOffDate,
    amount: badDebts.amount,
    updatedAt: badDebts.updatedAt,
  };
  const rows = await db
    .select(columns)
    .from(badDebts)
    .innerJoin(contracts, eq(contracts.id, badDebts.contractId))
    .where(where)
    .orderBy(...orderClause(q, sorts, [sql`${badDebts.updatedAt} desc`, sql`${badDebts.id} desc`]))
    .limit(q.pageSize)
    .offset(offsetOf(q));
  const total = await countOf(
    db,
    sql`from ${badDebts} inner join ${contracts} on ${contracts.id} = ${badDebts.contractId} where ${where}`,
  );
  return page(rows.map(asRow), total, q);
}

export async function viewBadDebt(ex: Executor, code: string, user: ScopeUser): Promise<BadDebtView> {
  const [r] = await ex
    .select({ b: badDebts, row: columns, contract: contracts })
    .from(badDebts)
    .innerJoin(contracts, eq(contracts.id, badDebts.contractId))
    .where(and(eq(badDebts.bizCode, code), live, scopeOf(user)));
  if (!r) throw notFound(BAD_DEBT);
  const { b, contract } = r;
  // Before approval: what approval would close and post on the saved date, as things stand now.
  let lines: BadDebtView['lines'] = [];
  let split = { reserveHeld: '0.00', reserveUsed: b.reserveUsed, lossCharged: b.lossCharged };
  if (b.paidId) {
    lines = await closureLines(ex, b.paidId);
    // Held before it: the figure reserveSplit read at approval — the 坏账准备 lines dated by the
    // write-off date posted before its voucher (a provisioning posted later on that date is not).
    split.reserveHeld = await reserveHeld(ex, contract.contractNo, b.writeOffDate, {
      docType: 'badDebt',
      docCode: b.bizCode,
    });
  } else if (contract.status === 'effective' && contract.loanState === 'loaned' && contract.ruleSnapshot) {
    lines = (await closureQuote(ex, contract, b.writeOffDate)).described;
    split = await reserveSplit(ex, contract, b.writeOffDate, b.principal);
  }
  return {
    ...asRow(r.row),
    version: b.version,
    remark: b.remark,
    redReason: b.redReason,
    ...split,
    released: b.released,
    paidBizCode: b.paidId ? await closureCode(ex, b.paidId) : null,
    lines,
  };
}
