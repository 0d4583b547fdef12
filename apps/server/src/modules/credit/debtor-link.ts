import { sql } from 'drizzle-orm';
import { queryRows } from '../../platform/db/client';
import type { DebtorLinker } from '../debtor';

/**
 * 债务人待匹配 for the credits (docs/credit.md "Debtors"): the unlinked 保理授信 rows, their
 * debtor lines and the credits' receivables bearing the name, inside the user's scope (alias r:
 * the credit). A credit already naming the customer on another 保理授信 row keeps this one
 * unlinked: its maker merges the two rows.
 */
export const linkCreditDebtors: DebtorLinker = async (tx, name, code, scope) => {
  const credit = scope('credit');
  const ft = await queryRows<{ id: number }>(
    tx,
    sql`update credit_ft_items f set debtor_code = ${code} from credits r
         where r.id = f.credit_id and f.debtor_code is null and f.debtor_name = ${name}
           and r.deleted_at is null and ${credit}
           and not exists (select 1 from credit_ft_items o where o.credit_id = f.credit_id and o.debtor_code = ${code})
        returning f.id`,
  );
  await tx.execute(
    sql`update credit_lines l set debtor_code = ${code} from credits r
         where r.id = l.credit_id and l.kind = 'debtor' and l.debtor_code is null and l.debtor_name = ${name}
           and ${credit}`,
  );
  const receivables = await queryRows<{ id: number }>(
    tx,
    sql`update credit_receivables f set debtor_code = ${code} from credits r
         where r.id = f.credit_id and f.debtor_code is null and f.debtor_name = ${name}
           and r.deleted_at is null and ${credit}
        returning f.id`,
  );
  return { linked: ft.length + receivables.length, contracts: [] };
};
