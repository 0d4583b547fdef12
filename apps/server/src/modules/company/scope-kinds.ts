import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { ScopeUser } from '../../platform/auth/data-scope';
import { aliasScope, documentKind, type ScopeKindDef } from '../../platform/auth/row-scope';
import { COMPANY_DOC_TYPE } from './queries';

const CUSTOMER_MENUS = ['ft-company', 'crm-cor-cor', 'crm-cor-cor-e', 'crm-cor-cor-v'];

/**
 * A record of a customer (its enterprise users, roles, departments, relations): it follows the
 * customer's managing organisation. `compColumn` names the customer on the record `x`. The crm
 * module describes its records with it (modules/README.md "Row scope").
 */
export const ofCustomer = (
  label: string,
  table: string,
  codeColumn: string,
  params: readonly string[],
  compColumn = 'comp_code',
): ScopeKindDef => ({
  label,
  from: `${table} x join companies r on r.comp_code = x.${compColumn} and r.deleted_at is null`,
  code: `x.${codeColumn}`,
  org: 'r.org_id',
  owner: 'r.created_by',
  live: 'x.deleted_at is null',
  params,
  menus: CUSTOMER_MENUS,
});

/** Rows whose customer (`compColumn`, a comp_code) lies inside the user's scope over customers. */
export function customerScope(user: ScopeUser, compColumn: PgColumn | SQL): SQL {
  return sql`${compColumn} in (select sc.comp_code from companies sc where sc.deleted_at is null and ${aliasScope(user, 'sc')})`;
}

/** The row-scope kinds of company's tables, registered with its plugin (routes.ts). */
export const COMPANY_SCOPE_KINDS = {
  // A customer's own files are filed under their own type (company/service.ts).
  customer: {
    ...documentKind('企业客户', 'companies', CUSTOMER_MENUS, [
      'compCode',
      'custCode',
      'CompCode',
      'companyBizCode',
    ]),
    code: 'r.comp_code',
    docTypes: [COMPANY_DOC_TYPE],
  },
} as const satisfies Record<string, ScopeKindDef>;

declare module '../../platform/auth/row-scope' {
  interface ScopeKindsOf {
    company: typeof COMPANY_SCOPE_KINDS;
  }
}
