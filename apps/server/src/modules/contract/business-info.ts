import { and, desc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { BusinessInfoView, businessSaveSchema, fileSaveSchema } from '@portal/contract/contract';
import type { FileInfo } from '@portal/contract/files';
import type { Executor, Tx } from '../../platform/db/client';
import { nextCode } from '../../platform/db/codes';
import type { Actor } from '../../platform/db/audit';
import { runCommand } from '../../platform/db/command';
import { setDocumentFiles, toFileInfo } from '../files';
import { files } from '../files/schema';
import type { WorkflowRegistry } from '../workflow';
import type { ContractRow } from './queries';
import { editableContract } from './editable';
import { contractDetails } from './schema';

/* The contract form's 业务信息 (with its own files) and 附件 sections. */

export const DETAIL_DOC = 'contractDetail';
export const CONTRACT_DOC = 'contract';

type BusinessInput = Omit<z.output<typeof businessSaveSchema>, 'contBizCode' | 'version'>;

/** Upserts the business info row and its files (also used when a change is applied). */
export async function writeBusiness(
  tx: Tx,
  row: ContractRow,
  b: BusinessInput,
  actor: Actor,
): Promise<string> {
  const cmd = { entity: 'contract', action: 'saveBusinessInfo', code: row.bizCode };
  return runCommand(tx, actor, cmd, async (_tx, w) => {
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
    await w.audit();
    return code;
  });
}

export async function saveBusiness(
  tx: Tx,
  workflow: WorkflowRegistry,
  body: z.output<typeof businessSaveSchema>,
  actor: Actor,
) {
  const row = await editableContract(tx, workflow, body.contBizCode, body.version, actor);
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
  const row = await editableContract(tx, workflow, body.contBizCode, body.version, actor);
  await setDocumentFiles(tx, {
    docType: CONTRACT_DOC,
    docCode: row.bizCode,
    fileTokens: body.fileTokens,
    actor,
  });
  return { version: row.version };
}
