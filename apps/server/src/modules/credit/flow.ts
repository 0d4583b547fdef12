import { sql } from 'drizzle-orm';
import type { DocState } from '@portal/contract/workflow';
import type { Tx } from '../../platform/db/client';
import { queryRows } from '../../platform/db/client';
import type { Actor } from '../../platform/db/audit';
import { notFound } from '../../platform/errors';
import { assertEditable, type WorkflowRegistry } from '../workflow';

/**
 * The credit documents on the workflow module (docs/architecture.md "Documents and approvals"): credit,
 * credDistribution and credChange keep their own `state` column; the workflow pipeline registers
 * their save, delete and approval routes (routes.ts) and calls our onApprove hooks inside the
 * approving transaction. Their sub-sections (guarantees, factoring items, files) lock the head here.
 */
export type CreditDocType = 'credit' | 'credDistribution' | 'credChange';

export const CREDIT_DOC_TABLES: Record<CreditDocType, { table: string; what: string }> = {
  credit: { table: 'credits', what: '授信' },
  credDistribution: { table: 'cred_distributions', what: '额度分配' },
  credChange: { table: 'cred_changes', what: '额度变更' },
};

export interface DocHead {
  id: number;
  bizCode: string;
  state: DocState;
  version: number;
}

/** The (already locked, or read-only) document's head; 404 when missing or deleted. */
async function head(tx: Tx, type: CreditDocType, bizCode: string): Promise<DocHead> {
  const { table, what } = CREDIT_DOC_TABLES[type];
  const [row] = await queryRows<{ id: string | number; biz_code: string; state: DocState; version: number }>(
    tx,
    sql`select id, biz_code, state, version from ${sql.identifier(table)} where biz_code = ${bizCode} and deleted_at is null`,
  );
  if (!row) throw notFound(what);
  return { id: Number(row.id), bizCode: row.biz_code, state: row.state, version: row.version };
}

/** Inside a save: locks the row, refuses unless draft or rejected (409), answers its head. */
export async function editableDoc(
  tx: Tx,
  workflow: WorkflowRegistry,
  type: CreditDocType,
  bizCode: string,
): Promise<DocHead> {
  await assertEditable(tx, workflow, type, bizCode);
  return head(tx, type, bizCode);
}

/** Soft delete of a document the pipeline has checked deletable (and audits). */
export async function deleteDoc(
  tx: Tx,
  type: CreditDocType,
  bizCode: string,
  actor: Actor,
): Promise<DocHead> {
  const h = await head(tx, type, bizCode);
  await tx.execute(
    sql`update ${sql.identifier(CREDIT_DOC_TABLES[type].table)} set deleted_at = now(), version = version + 1, updated_at = now(),
         updated_by = ${actor.userId || null} where id = ${h.id}`,
  );
  return h;
}
