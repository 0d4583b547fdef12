import Decimal from 'decimal.js';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  type DueItem,
  type DueView,
  type PlanItemView,
  type SchemeView,
  type planAddSchema,
} from '@portal/contract/contract';
import { UPFRONT_KINDS } from '@portal/contract/loan';
import { interestRuleCalc, type InterestRuleCalc } from '@portal/contract/plan/rule';
import { generatePlan, type CustomItem, type PlanResult } from '@portal/contract/plan/schedule';
import type { ItemPayment } from '@portal/contract/plan/accrual';
import { PlanInputError } from '@portal/contract/plan/money';
import { planProblem as savedPlanProblem } from '@portal/contract/plan/complete';
import {
  impliedDues as impliedFrom,
  impliedDueStays,
  missingImplied,
  ruleFigure,
  upfrontProblem as sharedUpfrontProblem,
} from '@portal/contract/plan/upfront';
import type { Executor, Tx } from '../../platform/db/client';
import { badInput } from '../../platform/errors';
import { interestRules } from '../ruler/schema';
import { itemAsOf, paymentsOf } from './open-items';
import { ruleCalc } from '../ruler';
import { contractDues, contractPlanItems, type contracts } from './schema';

type ContractRow = typeof contracts.$inferSelect;
type ItemRow = typeof contractPlanItems.$inferSelect;

/**
 * The rule a contract's plan follows: its own business config (业务配置, a rule saved with
 * `contBizCode`) when it has one, else the catalogue rule it picked.
 */
export async function ruleFor(
  ex: Executor,
  contBizCode: string | null,
  ruleBizCode: string,
): Promise<InterestRuleCalc> {
  if (contBizCode) {
    const [own] = await ex
      .select({ calc: interestRules.calc })
      .from(interestRules)
      .where(and(eq(interestRules.contBizCode, contBizCode), isNull(interestRules.deletedAt)))
      .limit(1);
    if (own) return interestRuleCalc.parse(own.calc);
  }
  return ruleCalc(ex, ruleBizCode).catch(() => {
    throw badInput('计息规则不存在');
  });
}

/** The plan engine, with its input errors turned into 400 answers naming the field. */
export function computePlan(input: {
  principal: string;
  startDate: string;
  maturityDate: string;
  rule: InterestRuleCalc;
  customItems?: readonly CustomItem[] | undefined;
}): PlanResult {
  const custom = input.rule.method === 'CUSTOM';
  if (custom && !input.customItems?.length) throw badInput('自定义还款方式请填写还款计划');
  try {
    return generatePlan({
      principal: input.principal,
      startDate: input.startDate,
      maturityDate: input.maturityDate,
      rule: input.rule,
      customItems: custom ? input.customItems : undefined,
    });
  } catch (err) {
    if (err instanceof PlanInputError) throw badInput(err.message);
    throw err;
  }
}

export async function planPreview(
  ex: Executor,
  body: z.output<typeof planAddSchema>,
  contract: ContractRow | null,
): Promise<PlanResult> {
  const rule = await ruleFor(ex, contract?.bizCode ?? null, body.ruleBizCode ?? contract?.ruleBizCode ?? '');
  return computePlan({
    principal: body.financingAmount ?? contract!.financingAmount,
    startDate: body.startDate ?? contract!.startDate,
    maturityDate: body.maturityDate ?? contract!.maturityDate,
    rule,
    customItems: body.customItems,
  });
}

export async function insertItems(
  tx: Tx,
  contractId: number,
  items: PlanResult['items'],
  firstPeriod = 1,
): Promise<void> {
  if (items.length === 0) return;
  await tx.insert(contractPlanItems).values(itemValues(contractId, items, firstPeriod));
}

/** Engine items as a contract's plan rows, numbered from `firstPeriod` (nothing paid yet). */
export function itemValues(contractId: number, items: PlanResult['items'], firstPeriod: number) {
  return items.map((it, i) => ({
    contractId,
    period: firstPeriod + i,
    startDate: it.startDate,
    dueDate: it.dueDate,
    days: it.days,
    principal: it.principal,
    interest: it.interest,
    fee: it.fee,
  }));
}

/** The plan as it stands: items not superseded by a change, in period order. */
export async function activeItems(ex: Executor, contractId: number): Promise<ItemRow[]> {
  return ex
    .select()
    .from(contractPlanItems)
    .where(and(eq(contractPlanItems.contractId, contractId), isNull(contractPlanItems.supersededBy)))
    .orderBy(asc(contractPlanItems.period));
}

const sum = (rows: readonly ItemRow[], pick: (r: ItemRow) => string) =>
  rows.reduce((s, r) => s.plus(pick(r)), new Decimal(0));

/** A saved plan is complete when it has items and its principal adds up to the financing amount. */
export function planProblem(contract: ContractRow, items: readonly ItemRow[]): string | null {
  return savedPlanProblem(items, contract.financingAmount, !!contract.ruleSnapshot);
}

/**
 * One plan item as the screens show it on `asOf` (docs/money-rules.md "Figures as of a date"):
 * status, overdue days and penalty due come from itemAsOf over the item's dated payments, the
 * same function the write-off screen uses. Before approval nothing is due: 未到期, penalty 0.
 */
export function itemView(
  r: ItemRow,
  rule: InterestRuleCalc | null,
  asOf: string,
  live: boolean,
  payments: readonly ItemPayment[],
): PlanItemView {
  const f = live && rule ? itemAsOf(r, payments, asOf, rule) : null;
  const penalty = f ? f.penaltyDue : r.penalty;
  const total = new Decimal(r.principal).plus(r.interest).plus(r.fee).plus(penalty);
  const paid = new Decimal(r.principalPaid).plus(r.interestPaid).plus(r.feePaid).plus(r.penaltyPaid);
  return {
    id: r.id,
    period: r.period,
    startDate: r.startDate,
    dueDate: r.dueDate,
    days: r.days,
    principal: r.principal,
    interest: r.interest,
    fee: r.fee,
    penalty,
    total: total.toFixed(2),
    principalPaid: r.principalPaid,
    interestPaid: r.interestPaid,
    feePaid: r.feePaid,
    penaltyPaid: r.penaltyPaid,
    outstanding: f ? f.outstanding : total.minus(paid).toFixed(2),
    overdueDays: f ? f.overdueDays : 0,
    status: f ? f.status : '未到期',
  };
}

/** The plan items of a contract (read unless given) as shown on `asOf`, with their dated payments. */
export async function planViews(
  ex: Executor,
  contract: ContractRow,
  asOf: string,
  given?: readonly ItemRow[],
): Promise<PlanItemView[]> {
  const items = given ?? (await activeItems(ex, contract.id));
  const rule = contract.ruleSnapshot ? interestRuleCalc.parse(contract.ruleSnapshot) : null;
  // Nothing is due, overdue or accruing before the money went out (放款单 approved).
  const live = contract.status !== 'none' && contract.loanState === 'loaned';
  const payments = live ? await paymentsOf(ex, items) : [];
  return items.map((r) => itemView(r, rule, asOf, live, payments));
}

/**
 * The contract with its 前置利息 in force: once disbursed, the disbursement's figure (its 前置利息
 * due, which the 放款单 set from the value date); before, or after a 冲红, the contract's own
 * (docs/money-lifecycle.md "One 前置利息 on every screen"). Every surface that shows the contract's
 * 前置利息 reads it through this.
 */
export async function inForce(ex: Executor, contract: ContractRow): Promise<ContractRow> {
  if (contract.loanState !== 'loaned') return contract;
  const [due] = await ex
    .select({ amount: sql<string | null>`sum(${contractDues.amount})::text` })
    .from(contractDues)
    .where(and(eq(contractDues.contractId, contract.id), eq(contractDues.kind, 'upfrontInterest')));
  // A contract disbursed before up-front items were implied may have none: its own figure stands.
  if (!due?.amount) return contract;
  return { ...contract, upfrontInterest: new Decimal(due.amount).toFixed(2) };
}

export async function viewScheme(ex: Executor, signed: ContractRow, asOf: string): Promise<SchemeView> {
  const contract = await inForce(ex, signed);
  const items = await activeItems(ex, contract.id);
  const rule = contract.ruleSnapshot ? interestRuleCalc.parse(contract.ruleSnapshot) : null;
  const [ruleRow] = await ex
    .select({ name: interestRules.name })
    .from(interestRules)
    .where(eq(interestRules.bizCode, contract.ruleBizCode));
  return {
    contBizCode: contract.bizCode,
    version: contract.version,
    ruleBizCode: contract.ruleBizCode,
    ruleName: ruleRow?.name ?? null,
    rule,
    method: rule?.method ?? null,
    upfrontInterest: contract.upfrontInterest,
    upfrontFee: contract.upfrontFee,
    totalInterest: sum(items, (r) => r.interest)
      .plus(contract.upfrontInterest)
      .toFixed(2),
    totalFee: sum(items, (r) => r.fee)
      .plus(contract.upfrontFee)
      .toFixed(2),
    asOf,
    items: await planViews(ex, contract, asOf, items),
  };
}

// ---------------------------------------------------------------------------------------------
// Dues (应收费用)

/**
 * The up-front items the contract's rule and terms imply once its plan is made (docs/money-lifecycle.md
 * "Implied up-front items"): the shared rule (plan/upfront), read from the stored contract.
 */
export const impliedDues = (contract: ContractRow): DueItem[] =>
  impliedFrom({
    planned: !!contract.ruleSnapshot,
    startDate: contract.startDate,
    financingAmount: contract.financingAmount,
    marginRatio: contract.marginRatio,
    upfrontInterest: contract.upfrontInterest,
    upfrontFee: contract.upfrontFee,
  });

export { ruleFigure };

const duesOf = (ex: Executor, contractId: number) =>
  ex
    .select()
    .from(contractDues)
    .where(eq(contractDues.contractId, contractId))
    .orderBy(asc(contractDues.sort), asc(contractDues.id));

/** The contract's dues, each up-front one beside the rule's figure and the maker's reason. */
export async function viewDues(ex: Executor, contract: ContractRow): Promise<DueView[]> {
  const implied = impliedDues(await inForce(ex, contract));
  return (await duesOf(ex, contract.id)).map((r) => ({
    id: r.id,
    kind: r.kind as DueView['kind'],
    amount: r.amount,
    dueDate: r.dueDate,
    receivedAmount: r.receivedAmount,
    remark: r.remark,
    ruleAmount: ruleFigure(implied, r.kind),
    reason: r.reason,
  }));
}

/** A due to store, with the rule's figure it was saved against (up-front kinds the rule implies). */
export type NewDue = DueItem & { ruleAmount?: string | null };

/**
 * Makes the contract's dues exactly `items`, keeping what was already received: a due with a
 * receipt stays as it is (a prepayment points at it); the others are replaced.
 */
export async function replaceDues(tx: Tx, contractId: number, items: readonly NewDue[]): Promise<void> {
  const current = await tx
    .select({ id: contractDues.id, received: contractDues.receivedAmount })
    .from(contractDues)
    .where(eq(contractDues.contractId, contractId))
    .for('update');
  const open = current.filter((c) => new Decimal(c.received).isZero()).map((c) => c.id);
  if (open.length) await tx.delete(contractDues).where(inArray(contractDues.id, open));
  await insertDues(tx, contractId, items, current.length);
}

async function insertDues(tx: Tx, contractId: number, items: readonly NewDue[], base: number) {
  if (items.length === 0) return;
  await tx.insert(contractDues).values(
    items.map((d, i) => ({
      contractId,
      kind: d.kind,
      amount: d.amount,
      dueDate: d.dueDate,
      remark: d.remark ?? null,
      reason: d.reason ?? null,
      ruleAmount: d.ruleAmount ?? null,
      sort: base + i,
    })),
  );
}

/**
 * Brings the implied up-front items in line with the contract as it now stands, in the caller's
 * transaction (plan saved, or terms changed): a due saved against the rule's current figure stays
 * as the maker left it (with its reason); one made against another figure, or a plain due of a
 * kind the rule now implies, is replaced by the rule's figure; an implied one the rule no longer
 * implies goes. Dues the rule does not imply, added by the maker, and received dues stay.
 */
export async function refreshImpliedDues(tx: Tx, contract: ContractRow): Promise<void> {
  const implied = impliedDues(contract);
  const current = await tx
    .select()
    .from(contractDues)
    .where(eq(contractDues.contractId, contract.id))
    .for('update');
  const stays = (d: (typeof current)[number]) => impliedDueStays(implied, d);
  const gone = current.filter((d) => !stays(d)).map((d) => d.id);
  if (gone.length) await tx.delete(contractDues).where(inArray(contractDues.id, gone));
  const kept = current.filter(stays);
  const missing = missingImplied(implied, kept);
  await insertDues(
    tx,
    contract.id,
    missing.map((i) => ({ ...i, ruleAmount: i.amount })),
    current.length,
  );
}

/**
 * Why the contract may not be submitted or approved for its up-front items (null: it may): each
 * item the rule implies is there once, at the rule's figure or, saved against that figure, with a
 * reason.
 */
export async function upfrontProblem(ex: Executor, contract: ContractRow): Promise<string | null> {
  return sharedUpfrontProblem(impliedDues(contract), await duesOf(ex, contract.id));
}

/** Up-front dues still to collect (what a prepayment takes, and what blocks 放款). */
export async function openUpfrontDues(ex: Executor, contractId: number) {
  return ex
    .select()
    .from(contractDues)
    .where(
      and(
        eq(contractDues.contractId, contractId),
        inArray(contractDues.kind, [...UPFRONT_KINDS]),
        sql`${contractDues.receivedAmount} < ${contractDues.amount}`,
      ),
    )
    .orderBy(asc(contractDues.sort), asc(contractDues.id));
}
