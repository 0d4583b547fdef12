import Decimal from 'decimal.js';
import { and, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type {
  BeforeAfter,
  ChangeInfoNames as InfoNames,
  BusinessInfoView,
  ChangeListRow,
  ChangeView,
  ContractReceivable,
  DueItem,
  PayerItem,
  PlanItemView,
  changeListSchema,
  changeSaveSchema,
} from '@portal/contract/contract';
import type { Page } from '@portal/contract/api';
import type { Db, Executor, Tx } from '../../platform/db/client';
import { nextCode } from '../../platform/db/codes';
import type { Actor } from '../../platform/db/audit';
import { runCommand } from '../../platform/db/command';
import { updateVersioned } from '../../platform/db/versioned';
import { badInput, conflict, notFound } from '../../platform/errors';
import { countOf, likePattern, offsetOf, orderClause, page } from '../../platform/http/list';
import type { ScopeUser } from '../../platform/auth/data-scope';
import { occupy, release } from '../credit';
import { syncContractDebtors } from '../debtor';
import { creditLines } from '../credit/schema';
import { requireBankAccount } from '../bank';
import { bankAccounts } from '../bank/schema';
import { interestRules } from '../ruler/schema';
import { setDocumentFiles } from '../files';
import { files } from '../files/schema';
import { findContract, payersOf, receivablesOf, scopeOf, type ContractRow } from './queries';
import {
  checkInvoicesFree,
  lockContract,
  payerDebtors,
  receivableDebtors,
  replacePayers,
  replaceReceivables,
} from './service';
import {
  activeItems,
  computePlan,
  insertItems,
  itemValues,
  itemView,
  planViews,
  replaceDues,
  ruleFor,
  viewDues,
} from './plan';
import { paymentsOf } from './open-items';
import type { InterestRuleCalc } from '@portal/contract/plan/rule';
import type { PlanItem } from '@portal/contract/plan/schedule';
import { CONTRACT_DOC, viewBusiness, writeBusiness } from './business-info';
import { contractChanges, contractPlanItems, contracts } from './schema';
import { viewRule } from '../ruler';
import { formatYuan } from '@portal/contract/format';
import { REPAY_PURPOSES } from '@portal/contract/bank';

type ChangeRow = typeof contractChanges.$inferSelect;
type Proposal = z.output<typeof changeSaveSchema>;
const WHAT = '合同变更';
const live = isNull(contractChanges.deletedAt);

/** The sections a change may touch, as they are on a contract (the before/after views compare these). */
export interface Sections {
  info: {
    financingAmount: string;
    financingRatio: string;
    maturityDate: string;
    lineCode: string;
    ruleBizCode: string;
    bankBizCode: string;
    remark: string | null;
  };
  receivables: ContractReceivable[];
  payers: PayerItem[];
  dues: DueItem[];
  business: BusinessInfoView;
  fileTokens: string[];
  plan: PlanItemView[];
}

async function contractFiles(ex: Executor, code: string): Promise<string[]> {
  const rows = await ex
    .select({ token: files.fileToken })
    .from(files)
    .where(and(eq(files.docType, CONTRACT_DOC), eq(files.docCode, code), isNull(files.deletedAt)));
  return rows.map((r) => r.token);
}

export async function sectionsOf(ex: Executor, row: ContractRow, asOf: string): Promise<Sections> {
  return {
    info: {
      financingAmount: row.financingAmount,
      financingRatio: row.financingRatio,
      maturityDate: row.maturityDate,
      lineCode: row.lineCode,
      ruleBizCode: row.ruleBizCode,
      bankBizCode: row.bankBizCode,
      remark: row.remark,
    },
    receivables: await receivablesOf(ex, row.id),
    payers: await payersOf(ex, row.id),
    dues: (await viewDues(ex, row)).map((d) => ({
      kind: d.kind,
      amount: d.amount,
      dueDate: d.dueDate,
      remark: d.remark ?? undefined,
      reason: d.reason ?? undefined,
    })),
    business: await viewBusiness(ex, row),
    fileTokens: await contractFiles(ex, row.bizCode),
    plan: await planViews(ex, row, asOf),
  };
}

/** isChange: may a change be raised now? Answers the change editor prefilled with today's values. */
export async function changeInit(ex: Executor, row: ContractRow, asOf: string) {
  if (row.state !== 'approved') throw conflict('合同未审核通过，不能变更');
  if (row.status === 'settled') throw conflict('合同已结清，不能变更');
  if (row.status === 'writtenOff') throw conflict('合同已核销坏账，不能变更');
  const [open] = await ex
    .select({ code: contractChanges.bizCode })
    .from(contractChanges)
    .where(and(eq(contractChanges.contractId, row.id), live, ne(contractChanges.state, 'approved')));
  if (open) throw conflict(`该合同已有未完成的变更 ${open.code}`);
  return { contBizCode: row.bizCode, contractNo: row.contractNo, ...(await sectionsOf(ex, row, asOf)) };
}

/** The figures a proposal must satisfy against the contract as it stands (save and approval). */
async function checkProposal(ex: Executor, row: ContractRow, p: Proposal, today: string): Promise<void> {
  const amount = new Decimal(p.info.financingAmount ?? row.financingAmount);
  const ratio = p.info.financingRatio ?? row.financingRatio;
  const maturity = p.info.maturityDate ?? row.maturityDate;
  const effective = p.effectiveDate ?? today;
  if (maturity <= row.startDate) throw badInput('变更后到期日必须晚于合同起始日');
  if (effective < row.startDate) throw badInput('变更生效日不能早于合同起始日');
  if (effective >= maturity) throw badInput('变更生效日必须早于变更后到期日');
  if (p.receivables) await checkInvoicesFree(ex, p.receivables, row.id);
  if (p.receivables) await receivableDebtors(ex, p.receivables);
  if (p.payers) await payerDebtors(ex, p.payers);
  const receivables = p.receivables ?? (await receivablesOf(ex, row.id));
  if (receivables.length === 0) throw badInput('应收账款不能为空');
  const total = receivables.reduce((s, r) => s.plus(r.amount), new Decimal(0));
  const cap = total.times(ratio).toDecimalPlaces(2, Decimal.ROUND_DOWN);
  if (amount.gt(cap)) throw badInput(`变更后融资金额不能超过应收账款金额×融资比例（${formatYuan(cap)}）`);
  const items = await activeItems(ex, row.id);
  const repaid = items.reduce((s, i) => s.plus(i.principalPaid), new Decimal(0));
  if (amount.lt(repaid)) throw badInput(`变更后融资金额不能小于已还本金 ${formatYuan(repaid)}`);
  if (p.info.lineCode) {
    const [line] = await ex.select().from(creditLines).where(eq(creditLines.bizCode, p.info.lineCode));
    const [cur] = await ex.select().from(creditLines).where(eq(creditLines.bizCode, row.lineCode));
    if (!line || !cur || line.creditId !== cur.creditId) throw badInput('变更后占用额度必须属于原平台授信');
  }
  if (p.info.ruleBizCode) {
    const rule = await viewRule(ex, { bizCode: p.info.ruleBizCode }).catch(() => null);
    if (!rule || rule.contBizCode || rule.state !== 'enabled') throw badInput('变更后计息规则不存在或已停用');
  }
  // The same rule as the contract's own save: one of our accounts, never a 付款账户
  // (docs/money-lifecycle.md).
  if (p.info.bankBizCode)
    await requireBankAccount(ex, p.info.bankBizCode, {
      label: '变更后还款账户',
      ownerType: 'self',
      purposes: REPAY_PURPOSES,
    });
}

export async function saveChange(tx: Tx, body: Proposal, actor: Actor, today: string, user: ScopeUser) {
  const { bizCode, version, submit: _s, ...proposal } = body;
  const row = await findContract(tx, body.contBizCode, user);
  if (row.state !== 'approved' || row.status === 'settled' || row.status === 'writtenOff')
    throw conflict('只有履约中的合同可以变更');
  await checkProposal(tx, row, body, today);
  let code: string;
  if (bizCode) {
    const [c] = await tx
      .select()
      .from(contractChanges)
      .where(and(eq(contractChanges.bizCode, bizCode), live));
    if (!c || c.contractId !== row.id) throw notFound(WHAT);
    if (version === undefined) throw badInput('版本号不能为空');
    await updateVersioned(
      tx,
      contractChanges,
      eq(contractChanges.id, c.id),
      version,
      { reason: body.reason, effectiveDate: body.effectiveDate ?? null, proposal },
      actor.userId,
      WHAT,
    );
    code = bizCode;
  } else {
    code = await nextCode(tx, 'contract_change');
    try {
      await tx.insert(contractChanges).values({
        bizCode: code,
        contractId: row.id,
        reason: body.reason,
        effectiveDate: body.effectiveDate ?? null,
        proposal,
        createdBy: actor.userId,
        updatedBy: actor.userId,
      });
    } catch (err) {
      if (
        String((err as { code?: string }).code ?? '') === '23505' ||
        /contract_changes_open_key/.test(String(err))
      )
        throw conflict('该合同已有未完成的变更');
      throw err;
    }
  }
  return { code, row };
}

type ItemRow = typeof contractPlanItems.$inferSelect;

/** What a change makes of the plan: the items it keeps, those it supersedes, the new ones. */
interface Replan {
  kept: ItemRow[];
  dropped: ItemRow[];
  /** The re-planned items, numbered from firstPeriod on. */
  items: PlanItem[];
  firstPeriod: number;
  rule: InterestRuleCalc;
  ruleCode: string;
  maturity: string;
}

/**
 * The re-plan of a change, computed by the plan engine the same way before approval (the
 * checker's preview) and at approval: items due before the effective date or already (partly)
 * paid are kept; the rest of the principal is planned from the effective date (or the last kept
 * due date) to the new maturity. New items continue the kept items' numbering (1, 2, 3 …).
 */
async function replan(
  ex: Executor,
  row: ContractRow,
  p: Proposal,
  today: string,
  items: readonly ItemRow[],
): Promise<Replan> {
  const newAmount = new Decimal(p.info.financingAmount ?? row.financingAmount);
  const effective = p.effectiveDate ?? today;
  const paidAny = (i: ItemRow) =>
    [i.principalPaid, i.interestPaid, i.feePaid, i.penaltyPaid].some((v) => !new Decimal(v).isZero());
  const kept = items.filter((i) => i.dueDate < effective || paidAny(i));
  const dropped = items.filter((i) => !kept.includes(i));
  const keptPrincipal = kept.reduce((s, i) => s.plus(i.principal), new Decimal(0));
  const rest = newAmount.minus(keptPrincipal);
  if (rest.lt(0))
    throw conflict(`变更后融资金额不能小于已到期或已还款期次的本金合计 ${formatYuan(keptPrincipal)}`);
  const maturity = p.info.maturityDate ?? row.maturityDate;
  const ruleCode = p.info.ruleBizCode ?? row.ruleBizCode;
  const rule = await ruleFor(ex, p.info.ruleBizCode ? null : row.bizCode, ruleCode);
  let planned: PlanItem[] = [];
  if (rest.gt(0)) {
    const lastKeptDue = kept.reduce((m, i) => (i.dueDate > m ? i.dueDate : m), row.startDate);
    const from = lastKeptDue > effective ? lastKeptDue : effective;
    if (from >= maturity) throw badInput('变更后到期日必须晚于最后一个保留期次的还款日');
    planned = computePlan({
      principal: rest.toFixed(2),
      startDate: from,
      maturityDate: maturity,
      rule,
      customItems: p.customItems,
    }).items;
  } else if (kept.length === 0) throw badInput('变更后还款计划不能为空');
  const firstPeriod = Math.max(0, ...kept.map((i) => i.period)) + 1;
  return { kept, dropped, items: planned, firstPeriod, rule, ruleCode, maturity };
}

/** The plan a change will produce, as the plan view will show it after approval. */
async function previewPlan(
  ex: Executor,
  row: ContractRow,
  p: Proposal,
  asOf: string,
): Promise<PlanItemView[]> {
  const items = await activeItems(ex, row.id);
  const plan = await replan(ex, row, p, asOf, items);
  const payments = await paymentsOf(ex, plan.kept);
  const planned: ItemRow[] = itemValues(row.id, plan.items, plan.firstPeriod).map((v, k) => ({
    ...v,
    // Not stored yet: negative ids keep the rows apart on screen.
    id: -(k + 1),
    penalty: '0.00',
    principalPaid: '0.00',
    interestPaid: '0.00',
    feePaid: '0.00',
    penaltyPaid: '0.00',
    supersededBy: null,
  }));
  return [...plan.kept, ...planned].map((i) => itemView(i, plan.rule, asOf, true, payments));
}

/**
 * The change's approval, in the approving transaction: the contract takes the proposed values;
 * occupation follows the new amount (raise occupies the difference, lower releases it as a
 * cancelled occupation); items not yet due and unpaid are superseded and the remaining principal
 * is re-planned from the effective date to the new maturity. The values before stay on the change.
 */
export async function applyChange(tx: Tx, code: string, actor: Actor, today: string): Promise<void> {
  await runCommand(tx, actor, { entity: 'contract', action: 'applyChange' }, async (_tx, w) => {
    const [c] = await tx
      .select()
      .from(contractChanges)
      .where(and(eq(contractChanges.bizCode, code), live));
    if (!c) throw notFound(WHAT);
    const [cRow] = await tx
      .select({ code: contracts.bizCode })
      .from(contracts)
      .where(eq(contracts.id, c.contractId));
    const row = await lockContract(tx, cRow!.code);
    if (row.status !== 'effective') throw conflict('合同不是履约中状态，不能变更');
    const p = c.proposal as Proposal;
    await checkProposal(tx, row, p, today);
    const before = await sectionsOf(tx, row, today);

    const newAmount = new Decimal(p.info.financingAmount ?? row.financingAmount);
    const newLine = p.info.lineCode ?? row.lineCode;
    const items = await tx
      .select()
      .from(contractPlanItems)
      .where(and(eq(contractPlanItems.contractId, row.id), isNull(contractPlanItems.supersededBy)))
      .for('update');
    const repaid = items.reduce((s, i) => s.plus(i.principalPaid), new Decimal(0));
    let occupied = new Decimal(row.occupiedAmount);
    const doc = { docType: 'contractChange', docCode: code, date: today, actor };
    if (newLine !== row.lineCode) {
      if (occupied.gt(0))
        await release(tx, {
          ...doc,
          lineCode: row.lineCode,
          amount: occupied,
          kind: 'cancel',
          reason: '合同变更更换额度',
        });
      occupied = newAmount.minus(repaid);
      if (occupied.gt(0))
        await occupy(tx, { ...doc, lineCode: newLine, amount: occupied, reason: '合同变更更换额度' });
    } else {
      const delta = newAmount.minus(row.financingAmount);
      if (delta.gt(0))
        await occupy(tx, { ...doc, lineCode: newLine, amount: delta, reason: '合同变更提高融资金额' });
      if (delta.lt(0))
        await release(tx, {
          ...doc,
          lineCode: newLine,
          amount: delta.neg(),
          kind: 'cancel',
          reason: '合同变更降低融资金额',
        });
      occupied = occupied.plus(delta);
    }

    const plan = await replan(tx, row, p, today, items);
    if (plan.dropped.length)
      await tx
        .update(contractPlanItems)
        .set({ supersededBy: code })
        .where(
          inArray(
            contractPlanItems.id,
            plan.dropped.map((i) => i.id),
          ),
        );
    await insertItems(tx, row.id, plan.items, plan.firstPeriod);
    const { rule, maturity, ruleCode } = plan;

    // The contract is locked (lockContract above): the change moves its version on.
    await w.touch(contracts, eq(contracts.id, row.id), {
      financingAmount: newAmount.toFixed(2),
      financingRatio: p.info.financingRatio ?? row.financingRatio,
      maturityDate: maturity,
      lineCode: newLine,
      ruleBizCode: ruleCode,
      ruleSnapshot: rule,
      bankBizCode: p.info.bankBizCode ?? row.bankBizCode,
      remark: p.info.remark ?? row.remark,
      occupiedAmount: occupied.toFixed(2),
      receivablesAmount: p.receivables
        ? p.receivables.reduce((s, r) => s.plus(r.amount), new Decimal(0)).toFixed(2)
        : row.receivablesAmount,
    });
    if (p.receivables) {
      await replaceReceivables(tx, row.id, p.receivables);
      // The contract's hold on the debtor lines follows its new receivables (docs/credit.md "Debtor lines").
      await syncContractDebtors(tx, row.id, 'receivables', {
        ...doc,
        reason: `合同 ${row.contractNo} 变更应收账款`,
      });
    }
    if (p.payers) await replacePayers(tx, row.id, p.payers);
    if (p.dues) await replaceDues(tx, row.id, p.dues);
    if (p.business) await writeBusiness(tx, row, p.business, actor);
    if (p.fileTokens)
      await setDocumentFiles(tx, {
        docType: CONTRACT_DOC,
        docCode: row.bizCode,
        fileTokens: p.fileTokens,
        actor,
      });
    await tx.update(contractChanges).set({ beforeSnapshot: before }).where(eq(contractChanges.id, c.id));
    await w.audit({
      code: row.bizCode,
      detail: { change: code, financingAmount: newAmount.toFixed(2), occupied: occupied.toFixed(2) },
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Reading

export async function findChange(
  ex: Executor,
  code: string,
  user?: ScopeUser,
): Promise<{ change: ChangeRow; contract: ContractRow }> {
  const [c] = await ex
    .select()
    .from(contractChanges)
    .where(and(eq(contractChanges.bizCode, code), live));
  if (!c) throw notFound(WHAT);
  const [row] = await ex
    .select()
    .from(contracts)
    .where(and(eq(contracts.id, c.contractId), user ? scopeOf(user) : undefined));
  if (!row) throw notFound(WHAT);
  return { change: c, contract: row };
}

export function changeView(c: ChangeRow, row: ContractRow): ChangeView {
  return {
    bizCode: c.bizCode,
    version: c.version,
    state: c.state as ChangeView['state'],
    contBizCode: row.bizCode,
    contractNo: row.contractNo,
    custName: row.custName,
    reason: c.reason,
    effectiveDate: c.effectiveDate,
    proposal: c.proposal as Proposal,
    submittedAt: c.submittedAt,
    approvedAt: c.approvedAt,
    updatedAt: c.updatedAt,
  };
}

function diff<T>(before: T, after: T): string[] {
  if (Array.isArray(before) || Array.isArray(after))
    return JSON.stringify(before) === JSON.stringify(after) ? [] : ['*'];
  const keys = new Set([...Object.keys(before as object), ...Object.keys(after as object)]);
  return [...keys].filter(
    (k) =>
      JSON.stringify((before as Record<string, unknown>)[k] ?? null) !==
      JSON.stringify((after as Record<string, unknown>)[k] ?? null),
  );
}

/**
 * chg/* views: `before` is the contract as it was when the change was approved (its snapshot), or
 * as it is now while the change is open; `after` is what the change makes of it.
 */
export async function beforeAfter<K extends keyof Sections>(
  ex: Executor,
  c: ChangeRow,
  row: ContractRow,
  section: K,
  asOf: string,
): Promise<BeforeAfter<Sections[K]>> {
  const before = c.beforeSnapshot ? (c.beforeSnapshot as Sections) : await sectionsOf(ex, row, asOf);
  const p = c.proposal as Proposal;
  let after: Sections[K];
  if (c.state === 'approved') after = (await sectionsOf(ex, row, asOf))[section];
  else if (section === 'plan') {
    // The checker sees the plan the change will produce, from the same engine as the approval.
    after = (await previewPlan(ex, row, p, asOf)) as Sections[K];
  } else {
    const proposed: Partial<Sections> = {
      info: { ...before.info, ...stripUndefined(p.info) } as Sections['info'],
      receivables: p.receivables,
      payers: p.payers,
      dues: p.dues,
      business: p.business
        ? {
            ...before.business,
            ...p.business,
            tradeDate: p.business.tradeDate ?? null,
            settlementDays: p.business.settlementDays ?? null,
            remark: p.business.remark ?? null,
          }
        : undefined,
      fileTokens: p.fileTokens,
    };
    after = (proposed[section] ?? before[section]) as Sections[K];
  }
  if (section === 'info') {
    // Codes compare; the screen shows names (规则名称, 账户, 额度) next to them.
    // K is "info" here; TypeScript does not narrow a generic key.
    const info = after as Sections['info'];
    const b = await withNames(ex, before.info);
    const a = await withNames(ex, info);
    return { before: b, after: a, changed: diff(before.info, info) } as unknown as BeforeAfter<Sections[K]>;
  }
  return { before: before[section], after, changed: diff(before[section], after) };
}

const LINE_KINDS: Record<string, string> = {
  platform: '平台额度',
  debtor: '保理子额度',
  distribution: '分配额度',
};

/** The info section with display names for its rule, account and credit line codes. */
async function withNames(ex: Executor, info: Sections['info']): Promise<Sections['info'] & InfoNames> {
  const [rule] = await ex
    .select({ name: interestRules.name })
    .from(interestRules)
    .where(eq(interestRules.bizCode, info.ruleBizCode));
  const [bank] = await ex
    .select({ name: bankAccounts.accountName, no: bankAccounts.accountNo, branch: bankAccounts.branchName })
    .from(bankAccounts)
    .where(eq(bankAccounts.bizCode, info.bankBizCode));
  const [line] = await ex
    .select({ kind: creditLines.kind, cust: creditLines.custName, debtor: creditLines.debtorName })
    .from(creditLines)
    .where(eq(creditLines.bizCode, info.lineCode));
  return {
    ...info,
    ruleName: rule?.name ?? null,
    bankName: bank ? `${bank.name} ${bank.branch} ${bank.no}` : null,
    lineName: line ? `${LINE_KINDS[line.kind] ?? line.kind} ${line.debtor ?? line.cust}` : null,
  };
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

type ListInput = z.output<typeof changeListSchema>;

export async function listChanges(db: Db, q: ListInput, user: ScopeUser): Promise<Page<ChangeListRow>> {
  const cond = and(
    live,
    scopeOf(user),
    q.bizCode ? eq(contractChanges.bizCode, q.bizCode) : undefined,
    q.contBizCode ? eq(contracts.bizCode, q.contBizCode) : undefined,
    q.contractNo ? sql`${contracts.contractNo} ilike ${likePattern(q.contractNo)}` : undefined,
    q.custName ? sql`${contracts.custName} ilike ${likePattern(q.custName)}` : undefined,
    q.state ? eq(contractChanges.state, q.state) : undefined,
  )!;
  const rows = await db
    .select({
      bizCode: contractChanges.bizCode,
      contBizCode: contracts.bizCode,
      contractNo: contracts.contractNo,
      custName: contracts.custName,
      reason: contractChanges.reason,
      state: contractChanges.state,
      updatedAt: contractChanges.updatedAt,
    })
    .from(contractChanges)
    .innerJoin(contracts, eq(contracts.id, contractChanges.contractId))
    .where(cond)
    .orderBy(
      ...orderClause(
        q,
        {
          bizCode: contractChanges.bizCode,
          contractNo: contracts.contractNo,
          custName: contracts.custName,
          updatedAt: contractChanges.updatedAt,
        },
        [sql`${contractChanges.updatedAt} desc`, sql`${contractChanges.id} desc`],
      ),
    )
    .limit(q.pageSize)
    .offset(offsetOf(q));
  const total = await countOf(
    db,
    sql`from ${contractChanges} inner join ${contracts} on ${contracts.id} = ${contractChanges.contractId} where ${cond}`,
  );
  return page(
    rows.map((r) => ({ ...r, state: r.state as ChangeListRow['state'] })),
    total,
    q,
  );
}

export async function deleteChange(tx: Tx, c: ChangeRow, actor: Actor): Promise<void> {
  await tx
    .update(contractChanges)
    .set({ deletedAt: sql`now()`, updatedBy: actor.userId, version: sql`${contractChanges.version} + 1` })
    .where(eq(contractChanges.id, c.id));
}
