import Decimal from 'decimal.js';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type {
  BusinessInfoView,
  businessSaveSchema,
  dueSaveSchema,
  fileSaveSchema,
  schemeSaveSchema,
} from '@portal/contract/contract';
import type { FileInfo } from '@portal/contract/files';
import type { Executor, Tx } from '../../platform/db/client';
import { nextCode } from '../../platform/db/codes';
import { writeAudit, type Actor } from '../../platform/db/audit';
import { updateVersioned } from '../../platform/db/versioned';
import { badInput, conflict } from '../../platform/errors';
import { occupy } from '../credit';
import { setDocumentFiles, toFileInfo } from '../files';
import { files } from '../files/schema';
import { assertEditable, type WorkflowRegistry } from '../workflow';
import { CONTRACT, findContract, lockContract, requireEffective, type ContractRow } from './service';
import {
  activeItems,
  computePlan,
  insertItems,
  openUpfrontDues,
  planProblem,
  replaceDues,
  ruleFor,
} from './plan';
import { contractDetails, contractPlanItems, contracts } from './schema';

export const DETAIL_DOC = 'contractDetail';
export const CONTRACT_DOC = 'contract';

/** Locks a draft/rejected contract for a section save and checks the version the client read. */
async function editable(
  tx: Tx,
  workflow: WorkflowRegistry,
  code: string,
  version: number,
  actor: Actor,
): Promise<ContractRow> {
  await assertEditable(tx, workflow, 'contract', code);
  const row = await findContract(tx, code);
  await updateVersioned(tx, contracts, eq(contracts.id, row.id), version, {}, actor.userId, CONTRACT);
  return { ...row, version: version + 1 };
}

/** 方案: computes the plan from the contract and its rule (or the custom rows) and stores it. */
export async function saveScheme(
  tx: Tx,
  workflow: WorkflowRegistry,
  body: z.output<typeof schemeSaveSchema>,
  actor: Actor,
) {
  const row = await editable(tx, workflow, body.contBizCode, body.version, actor);
  const rule = await ruleFor(tx, row.bizCode, row.ruleBizCode);
  const plan = computePlan({
    principal: row.financingAmount,
    startDate: row.startDate,
    maturityDate: row.maturityDate,
    rule,
    customItems: body.customItems,
  });
  if (plan.maturityDate !== row.maturityDate)
    throw badInput(`还款计划的最后还款日 ${plan.maturityDate} 必须等于合同到期日 ${row.maturityDate}`);
  await tx.delete(contractPlanItems).where(eq(contractPlanItems.contractId, row.id));
  await insertItems(tx, row.id, plan.items);
  await tx
    .update(contracts)
    .set({ ruleSnapshot: rule, upfrontInterest: plan.upfrontInterest, upfrontFee: plan.upfrontFee })
    .where(eq(contracts.id, row.id));
  await writeAudit(tx, actor, {
    entity: 'contract',
    entityCode: row.bizCode,
    action: 'saveScheme',
    detail: { method: rule.method, items: plan.items.length, totalInterest: plan.totalInterest },
  });
  return { version: row.version, plan };
}

export async function saveDues(
  tx: Tx,
  workflow: WorkflowRegistry,
  body: z.output<typeof dueSaveSchema>,
  actor: Actor,
) {
  const row = await editable(tx, workflow, body.contBizCode, body.version, actor);
  for (const d of body.items) {
    if (d.dueDate < row.startDate || d.dueDate > row.maturityDate)
      throw badInput(`应收费用的应收日期必须在合同起始日与到期日之间`);
  }
  await replaceDues(tx, row.id, body.items);
  await writeAudit(tx, actor, {
    entity: 'contract',
    entityCode: row.bizCode,
    action: 'saveDues',
    detail: body.items,
  });
  return { version: row.version };
}

// ---------------------------------------------------------------------------------------------
// Business info (业务信息) and files (附件)

type BusinessInput = Omit<z.output<typeof businessSaveSchema>, 'contBizCode' | 'version'>;

/** Upserts the business info row and its files (also used when a change is applied). */
export async function writeBusiness(
  tx: Tx,
  row: ContractRow,
  b: BusinessInput,
  actor: Actor,
): Promise<string> {
  const [existing] = await tx.select().from(contractDetails).where(eq(contractDetails.contractId, row.id));
  const values = {
    tradeContractNo: b.tradeContractNo,
    goodsName: b.goodsName,
    tradeAmount: b.tradeAmount,
    tradeDate: b.tradeDate ?? null,
    settlementDays: b.settlementDays ?? null,
    remark: b.remark ?? null,
    updatedAt: sql`now()`,
    updatedBy: actor.userId,
  };
  let code: string;
  if (existing) {
    code = existing.bizCode;
    await tx.update(contractDetails).set(values).where(eq(contractDetails.id, existing.id));
  } else {
    code = await nextCode(tx, 'contract_detail');
    await tx.insert(contractDetails).values({ ...values, bizCode: code, contractId: row.id });
  }
  await setDocumentFiles(tx, { docType: DETAIL_DOC, docCode: code, fileTokens: b.fileTokens, actor });
  await writeAudit(tx, actor, { entity: 'contract', entityCode: row.bizCode, action: 'saveBusinessInfo' });
  return code;
}

export async function saveBusiness(
  tx: Tx,
  workflow: WorkflowRegistry,
  body: z.output<typeof businessSaveSchema>,
  actor: Actor,
) {
  const row = await editable(tx, workflow, body.contBizCode, body.version, actor);
  const { contBizCode: _c, version: _v, ...b } = body;
  const contractdetailCode = await writeBusiness(tx, row, b, actor);
  return { version: row.version, contractdetailCode };
}

export async function viewBusiness(ex: Executor, row: ContractRow): Promise<BusinessInfoView> {
  const [d] = await ex.select().from(contractDetails).where(eq(contractDetails.contractId, row.id));
  if (!d)
    return {
      contractdetailCode: null,
      tradeContractNo: null,
      goodsName: null,
      tradeAmount: null,
      tradeDate: null,
      settlementDays: null,
      remark: null,
      fileTokens: [],
    };
  const attached = await ex
    .select({ token: files.fileToken })
    .from(files)
    .where(and(eq(files.docType, DETAIL_DOC), eq(files.docCode, d.bizCode), sql`${files.deletedAt} is null`));
  return {
    contractdetailCode: d.bizCode,
    tradeContractNo: d.tradeContractNo,
    goodsName: d.goodsName,
    tradeAmount: d.tradeAmount,
    tradeDate: d.tradeDate,
    settlementDays: d.settlementDays,
    remark: d.remark,
    fileTokens: attached.map((a) => a.token),
  };
}

/** Every file ever attached to the business info, removed ones included (newest first). */
export async function fileHistory(
  ex: Executor,
  contractdetailCode: string,
): Promise<(FileInfo & { removed: boolean })[]> {
  const rows = await ex
    .select()
    .from(files)
    .where(and(eq(files.docType, DETAIL_DOC), eq(files.docCode, contractdetailCode)))
    .orderBy(desc(files.id));
  return rows.map((r) => ({ ...toFileInfo(r), removed: r.deletedAt !== null }));
}

export async function saveFiles(
  tx: Tx,
  workflow: WorkflowRegistry,
  body: z.output<typeof fileSaveSchema>,
  actor: Actor,
) {
  const row = await editable(tx, workflow, body.contBizCode, body.version, actor);
  await setDocumentFiles(tx, {
    docType: CONTRACT_DOC,
    docCode: row.bizCode,
    fileTokens: body.fileTokens,
    actor,
  });
  return { version: row.version };
}

// ---------------------------------------------------------------------------------------------
// Approval (the workflow's onApprove hook) and the prepayment initialisation

/**
 * Last approval step, in the approving transaction: re-checks the plan, occupies exactly the
 * financing amount on the contract's line (409 授信额度不足 rolls everything back: the contract
 * stays pending, nothing is occupied) and makes the plan live.
 */
export async function approveContract(tx: Tx, code: string, actor: Actor, today: string): Promise<void> {
  const row = await lockContract(tx, code);
  const problem = planProblem(row, await activeItems(tx, row.id));
  if (problem) throw conflict(problem);
  await occupy(tx, {
    lineCode: row.lineCode,
    amount: row.financingAmount,
    docType: 'contract',
    docCode: row.bizCode,
    date: today,
    actor,
    reason: `合同 ${row.contractNo} 审核通过`,
  });
  await tx
    .update(contracts)
    .set({ status: 'effective', occupiedAmount: row.financingAmount })
    .where(eq(contracts.id, row.id));
  await writeAudit(tx, actor, {
    entity: 'contract',
    entityCode: row.bizCode,
    action: 'activate',
    detail: { occupied: row.financingAmount, lineCode: row.lineCode },
  });
}

/** isPrevious: the contract's up-front dues still to collect, for a prepayment to take. */
export async function prepaymentInit(ex: Executor, row: ContractRow) {
  requireEffective(row, '生成前期款');
  const dues = await openUpfrontDues(ex, row.id);
  if (dues.length === 0) throw conflict('该合同没有待收的前期款项');
  return {
    contBizCode: row.bizCode,
    contractNo: row.contractNo,
    custCode: row.custCode,
    custName: row.custName,
    dues: dues.map((d) => ({
      id: d.id,
      kind: d.kind,
      amount: d.amount,
      receivedAmount: d.receivedAmount,
      openAmount: new Decimal(d.amount).minus(d.receivedAmount).toFixed(2),
      dueDate: d.dueDate,
    })),
  };
}
