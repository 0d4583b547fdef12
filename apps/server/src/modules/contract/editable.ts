import { eq } from 'drizzle-orm';
import type { Tx } from '../../platform/db/client';
import type { Actor } from '../../platform/db/audit';
import { updateVersioned } from '../../platform/db/versioned';
import { assertEditable, type WorkflowRegistry } from '../workflow';
import { CONTRACT, findContract, type ContractRow } from './queries';
import { contracts } from './schema';

/** Locks a draft/rejected contract for a section save and checks the version the client read. */
export async function editableContract(
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
