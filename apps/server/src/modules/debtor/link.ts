import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client';
import { registryKey } from '../../platform/module';
import { queryRows } from '../../platform/db/client';
import { badInput } from '../../platform/errors';

/** The SQL test of a customer (alias `c`) holding a debtor's role: buyer or core enterprise. */
export const DEBTOR_ROLE_SQL = sql`c.roles && array['buyer', 'core']::text[]`;

interface Named {
  name: string;
  code?: string | null | undefined;
}

/**
 * The customer codes of the debtors a save names (docs/credit.md "Debtors"), in the caller's
 * transaction: a row naming a code must name an enabled customer in the buyer or core role, by
 * its exact name (400 naming the row otherwise); a row giving only a name (an older client, an
 * import) is linked when exactly one enabled customer in that role bears the name, and is left
 * unlinked otherwise, for 债务人待匹配.
 */
export async function linkDebtors(
  ex: Executor,
  rows: readonly Named[],
  label: (index: number) => string,
): Promise<(string | null)[]> {
  const codes = [...new Set(rows.map((r) => r.code).filter((c): c is string => !!c))];
  const names = [...new Set(rows.filter((r) => !r.code).map((r) => r.name))];
  const byCode = new Map<string, { name: string; enabled: boolean; debtor: boolean }>();
  if (codes.length > 0) {
    const found = await queryRows<{ code: string; name: string; enabled: boolean; debtor: boolean }>(
      ex,
      sql`select c.comp_code as code, c.comp_name as name, c.state = 'enabled' as enabled, ${DEBTOR_ROLE_SQL} as debtor
            from companies c
           where c.deleted_at is null and c.comp_code in (${sql.join(
             codes.map((c) => sql`${c}`),
             sql`, `,
           )})`,
    );
    for (const f of found) byCode.set(f.code, f);
  }
  const byName = new Map<string, string>();
  if (names.length > 0) {
    const found = await queryRows<{ name: string; code: string }>(
      ex,
      sql`select c.comp_name as name, min(c.comp_code) as code
            from companies c
           where c.deleted_at is null and c.state = 'enabled' and ${DEBTOR_ROLE_SQL}
             and c.comp_name in (${sql.join(
               names.map((n) => sql`${n}`),
               sql`, `,
             )})
           group by c.comp_name
          having count(*) = 1`,
    );
    for (const f of found) byName.set(f.name, f.code);
  }
  return rows.map((r, i) => {
    if (!r.code) return byName.get(r.name) ?? null;
    const c = byCode.get(r.code);
    if (!c) throw badInput(`${label(i)}不存在`);
    if (!c.enabled) throw badInput(`${label(i)}「${c.name}」已停用`);
    if (!c.debtor) throw badInput(`${label(i)}「${c.name}」不是买方或核心企业客户`);
    if (c.name !== r.name) throw badInput(`${label(i)}名称与编号不一致`);
    return r.code;
  });
}

/** The rows of the owner's documents a linker may touch: the user's scope, per document kind. */
export type DocScope = (kind: 'credit' | 'contract') => SQL;

/**
 * A module holding free-text debtor names (credit, contract) registers one linker: it links its
 * unlinked rows bearing `name` inside `scope` to the customer `code` (the name stays as typed),
 * and answers how many rows it linked and the contracts whose receivables changed.
 */
export type DebtorLinker = (
  tx: Executor,
  name: string,
  code: string,
  scope: DocScope,
) => Promise<{ linked: number; contracts: number[] }>;

export const DEBTOR_LINKERS = registryKey<DebtorLinker[]>('debtorLinkers', () => []);
