import { sql } from 'drizzle-orm';
import { queryRows } from '../../platform/db/client';
import type { DebtorLinker } from '../debtor';

/**
 * 债务人待匹配 for the contracts (docs/credit.md "Debtors"): the unlinked receivables and payers
 * bearing the name, inside the user's scope (alias r: the contract). Answers the contracts whose
 * receivables it linked: an effective one then holds its debtor's line.
 */
export const linkContractDebtors: DebtorLinker = async (tx, name, code, scope) => {
  const contract = scope('contract');
  const receivables = await queryRows<{ contractId: number }>(
    tx,
    sql`update contract_receivables f set debtor_code = ${code} from contracts r
         where r.id = f.contract_id and f.debtor_code is null and f.debtor_name = ${name}
           and r.deleted_at is null and ${contract}
        returning f.contract_id as "contractId"`,
  );
  const payers = await queryRows<{ id: number }>(
    tx,
    sql`update contract_payers f set payer_code = ${code} from contracts r
         where r.id = f.contract_id and f.payer_code is null and f.payer_name = ${name}
           and r.deleted_at is null and ${contract}
        returning f.id`,
  );
  return {
    linked: receivables.length + payers.length,
    contracts: receivables.map((r) => Number(r.contractId)),
  };
};
