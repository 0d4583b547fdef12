import Decimal from 'decimal.js';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { DueItem, DueView, PlanItemView, SchemeView, planAddSchema } from '@portal/contract/contract';
import { interestRuleCalc, type InterestRuleCalc } from '@portal/contract/plan/rule';
import { generatePlan, type CustomItem, type PlanResult } from '@portal/contract/plan/schedule';
import type { ItemPayment } from '@portal/contract/plan/accrual';
import { PlanInputError } from '@portal/contract/plan/money';
import type { Executor, Tx } from '../../platform/db/client';
import { badInput } from '../../platform/errors';
import { interestRules } from '../ruler/schema';
import { itemAsOf, paymentsOf } from '../paid';
import { ruleCalc } from '../ruler';
import { contractDues, contractPlanItems, type contracts } from './schema';
import { formatYuan } from '@portal/contract/format';

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
  if (items.length === 0 || !contract.ruleSnapshot) return '请先生成并保存还款计划';
  const principal = sum(items, (r) => r.principal);
  if (!principal.eq(contract.financingAmount))
    return `还款计划本金合计 ${formatYuan(principal)} 与融资金额 ${formatYuan(contract.financingAmount)} 不一致`;
  return null;
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

export async function viewScheme(ex: Executor, contract: ContractRow, asOf: string): Promise<SchemeView> {
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
    items: await planViews(ex, contract, asOf, items),
  };
}

// ---------------------------------------------------------------------------------------------
// Dues (应收费用)

/** What the rule and the contract put up front: margin, 前置 interest and fee. */
export function suggestDues(contract: ContractRow): DueItem[] {
  const out: DueItem[] = [];
  const on = contract.startDate;
  if (contract.marginRatio && new Decimal(contract.marginRatio).gt(0)) {
    const margin = new Decimal(contract.financingAmount)
      .times(contract.marginRatio)
      .toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
    if (margin.gt(0)) out.push({ kind: 'margin', amount: margin.toFixed(2), dueDate: on });
  }
  if (new Decimal(contract.upfrontInterest).gt(0))
    out.push({ kind: 'upfrontInterest', amount: contract.upfrontInterest, dueDate: on });
  if (new Decimal(contract.upfrontFee).gt(0))
    out.push({ kind: 'upfrontFee', amount: contract.upfrontFee, dueDate: on });
  return out;
}

export async function viewDues(ex: Executor, contractId: number): Promise<DueView[]> {
  const rows = await ex
    .select()
    .from(contractDues)
    .where(eq(contractDues.contractId, contractId))
    .orderBy(asc(contractDues.sort), asc(contractDues.id));
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind as DueView['kind'],
    amount: r.amount,
    dueDate: r.dueDate,
    receivedAmount: r.receivedAmount,
    remark: r.remark,
  }));
}

/**
 * Makes the contract's dues exactly `items`, keeping what was already received: a due with a
 * receipt stays as it is (a prepayment points at it); the others are replaced.
 */
export async function replaceDues(tx: Tx, contractId: number, items: readonly DueItem[]): Promise<void> {
  const current = await tx
    .select({ id: contractDues.id, received: contractDues.receivedAmount })
    .from(contractDues)
    .where(eq(contractDues.contractId, contractId))
    .for('update');
  const open = current.filter((c) => new Decimal(c.received).isZero()).map((c) => c.id);
  if (open.length) await tx.delete(contractDues).where(inArray(contractDues.id, open));
  if (items.length === 0) return;
  const base = current.length;
  await tx.insert(contractDues).values(
    items.map((d, i) => ({
      contractId,
      kind: d.kind,
      amount: d.amount,
      dueDate: d.dueDate,
      remark: d.remark ?? null,
      sort: base + i,
    })),
  );
}

/** Up-front dues still to collect (what a prepayment takes, and what blocks 放款). */
export async function openUpfrontDues(ex: Executor, contractId: number) {
  return ex
    .select()
    .from(contractDues)
    .where(
      and(
        eq(contractDues.contractId, contractId),
        inArray(contractDues.kind, ['margin', 'upfrontInterest', 'upfrontFee']),
        sql`${contractDues.receivedAmount} < ${contractDues.amount}`,
      ),
    )
    .orderBy(asc(contractDues.sort), asc(contractDues.id));
}
