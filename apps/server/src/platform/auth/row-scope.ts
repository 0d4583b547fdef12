import { GUARANTEE_FILE_DOC_TYPE } from '@portal/contract/credit';
import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { code } from '@portal/contract/fields';
import { menu } from '@portal/contract/menus';
import { PERMIT_AREA_MENU, PERMIT_CHG_MENU, PERMIT_USER_AREA_MENU } from '@portal/contract/permit';
import { queryRows, type Executor } from '../db/client';
import { dataScopeCondition, type ScopeUser } from './data-scope';

/**
 * Row scope (docs/architecture.md "Who may see a row"): which rows a route touches and how their organisation
 * and owner are found. Every route declares one of these kinds next to its `perm` (platform/http/route.ts);
 * the platform refuses a request naming a row outside the user's data scope with 404 before the handler runs,
 * lists narrow with `rowScopeCondition`, and attachments, approval views and prints follow their document
 * through `documentVisible`.
 *
 * The SQL fragments below are constants of this file (never input), so they go in as raw SQL.
 */
export interface ScopeKindDef {
  /** The row's Chinese name, for the 404 message (`合同不存在`). */
  label: string;
  /** FROM clause naming the row `r` (joined to its owning document when the organisation lives there). */
  from: string;
  /** The row's code, matched against the request's parameters. */
  code: string;
  /** The owning organisation (depts.id), stamped on insert (migrations/0020). */
  org: string;
  /** The owning user (users.id): the maker. */
  owner: string;
  /** Live rows only. */
  live: string;
  /** Request parameters (query or body) that name a row of this kind, unless the route says otherwise. */
  params: readonly string[];
  /** The screens showing rows of this kind: who may open their attachments and approval views. */
  menus: readonly string[];
  /** Rows of the whole company, inside every scope (our own bank accounts). */
  companyWide?: string;
}

const doc = (
  label: string,
  table: string,
  menus: readonly string[],
  params: readonly string[] = ['bizCode'],
  softDelete = true,
): ScopeKindDef => ({
  label,
  from: `${table} r`,
  code: 'r.biz_code',
  org: 'r.org_id',
  owner: 'r.created_by',
  live: softDelete ? 'r.deleted_at is null' : 'true',
  params,
  menus,
});

/**
 * A document of a contract (change, handover, prepayment, write-off): it follows its contract's
 * organisation and maker, as the contract's own screens always scoped it. `join` leads from the
 * document `x` to its contract `r`.
 */
const ofContract = (
  label: string,
  table: string,
  join: string,
  menus: readonly string[],
  params: readonly string[] = ['bizCode'],
): ScopeKindDef => ({
  label,
  from: `${table} x ${join}`,
  code: 'x.biz_code',
  org: 'r.org_id',
  owner: 'r.created_by',
  live: 'x.deleted_at is null',
  params,
  menus,
});
const TO_CONTRACT = 'join contracts r on r.id = x.contract_id';

/**
 * A record of a customer (its enterprise users, roles, departments, relations): it follows the
 * customer's managing organisation. `compColumn` names the customer on the record `x`.
 */
const ofCustomer = (
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

const CONTRACT_MENUS = ['ft-contract-info', 'ft-contract-chg', 'ft-contract-handover'];
const CREDIT_MENUS = ['ft-credit-info', 'ft-credit-dist', 'ft-credit-chg'];
const CUSTOMER_MENUS = ['ft-company', 'crm-cor-cor', 'crm-cor-cor-e', 'crm-cor-cor-v'];
const PERMIT_MENUS = [
  ...Object.values(PERMIT_AREA_MENU),
  ...Object.values(PERMIT_USER_AREA_MENU),
  PERMIT_CHG_MENU,
].filter((m): m is string => m !== undefined);

/** The area → owner table (modules/README.md "Row scope"). */
export const SCOPE_KINDS = {
  contract: doc('合同', 'contracts', CONTRACT_MENUS, ['bizCode', 'contBizCode']),
  contractDetail: {
    label: '业务信息',
    from: 'contract_details d join contracts r on r.id = d.contract_id',
    code: 'd.biz_code',
    org: 'r.org_id',
    owner: 'r.created_by',
    live: 'r.deleted_at is null',
    params: ['contractdetailCode'],
    menus: CONTRACT_MENUS,
  },
  /** 应收账款转让通知 (docs/assignment-notice.md): one per debtor, following its contract. */
  assignNotice: {
    label: '转让通知',
    from: 'assignment_notices x join contracts r on r.id = x.contract_id',
    code: 'x.biz_code',
    org: 'r.org_id',
    owner: 'r.created_by',
    live: 'r.deleted_at is null',
    params: ['noticeBizCode'],
    menus: ['ft-contract-info'],
  },
  contractChange: ofContract('合同变更', 'contract_changes', TO_CONTRACT, ['ft-contract-chg']),
  handover: ofContract('资料交接单', 'handovers', TO_CONTRACT, ['ft-contract-handover']),
  credit: doc('授信', 'credits', CREDIT_MENUS, ['bizCode', 'credBizCode', 'platCredBizCode']),
  credDistribution: doc('额度分配', 'cred_distributions', ['ft-credit-dist']),
  credChange: doc('额度变更', 'cred_changes', ['ft-credit-chg']),
  prepayment: ofContract('前期款', 'prepayments', TO_CONTRACT, ['ft-pa-mgr'], ['bizCode', 'preamtBizCode']),
  income: doc('来款', 'incomes', ['ft-income', 'ft-paid'], ['bizCode', 'fiidBizCode']),
  paid: ofContract('来款核销', 'paids', TO_CONTRACT, ['ft-paid', 'ft-paid-red'], ['bizCode', 'paidBizCode']),
  loan: ofContract('放款单', 'loans', TO_CONTRACT, ['ft-loan'], ['bizCode', 'loanBizCode']),
  loanRed: ofContract(
    '放款单冲红',
    'loan_reds',
    'join loans l on l.id = x.loan_id join contracts r on r.id = l.contract_id',
    ['ft-loan'],
    ['bizCode', 'loanRedBizCode'],
  ),
  classAdjust: ofContract(
    '分类调整单',
    'class_adjustments',
    TO_CONTRACT,
    ['ft-classification'],
    ['bizCode', 'adjBizCode'],
  ),
  buyback: ofContract('回购单', 'buybacks', TO_CONTRACT, ['ft-buyback'], ['bizCode', 'buybackBizCode']),
  buybackSettle: ofContract(
    '回购款核销',
    'buyback_settlements',
    'join buybacks b on b.id = x.buyback_id join contracts r on r.id = b.contract_id',
    ['ft-buyback'],
    ['bizCode', 'settleBizCode'],
  ),
  badDebt: ofContract('核销坏账', 'bad_debts', TO_CONTRACT, ['ft-bad-debt'], ['bizCode', 'badDebtBizCode']),
  paidRed: ofContract(
    '来款核销冲红',
    'paid_reds',
    'join paids p on p.id = x.paid_id join contracts r on r.id = p.contract_id',
    ['ft-paid-red'],
    ['bizCode', 'paidRedBizCode'],
  ),
  compInfoChange: doc('企业信息变更单', 'comp_info_changes', ['crm-cor-info']),
  compManagerChange: doc('管理员变更单', 'comp_manager_changes', ['crm-cor-mg']),
  custAdmission: doc('客户准入单', 'cust_admissions', ['ft-cust-admit']),
  permit: doc('准入记录', 'permits', PERMIT_MENUS, ['bizCode'], false),
  customer: {
    ...doc('企业客户', 'companies', CUSTOMER_MENUS, ['compCode', 'custCode', 'CompCode', 'companyBizCode']),
    code: 'r.comp_code',
  },
  // Our own accounts are the company's (every income and contract form picks them); a customer's
  // follow the customer (stamped from it, migrations/0020).
  bankAccount: {
    ...doc('银行账户', 'bank_accounts', ['ft-bank', 'crm-cor-bank']),
    companyWide: "r.owner_type = 'self'",
  },
  /** Staff users belong to their organisation; "own" is the user themselves. */
  staff: {
    label: '用户',
    from: 'users r',
    code: 'r.user_code',
    org: 'r.dept_id',
    owner: 'r.id',
    live: 'r.deleted_at is null',
    params: ['userCode', 'bizCode'],
    menus: ['permission-user'],
  },
  /** An organisation is its own organisation; nobody owns one outside their scope. */
  org: {
    label: '组织',
    from: 'depts r',
    code: 'r.biz_code',
    org: 'r.id',
    owner: 'null::bigint',
    live: 'r.deleted_at is null',
    params: ['deptBizCode', 'bizCode', 'parentCode', 'deptCode'],
    menus: ['permission-org'],
  },
  permitRoleChange: {
    label: '企业角色变更',
    from: 'permit_role_changes x join permits r on r.id = x.permit_id',
    code: 'x.biz_code',
    org: 'r.org_id',
    owner: 'r.created_by',
    live: 'true',
    params: ['bizCode'],
    menus: PERMIT_MENUS,
  },
  compUser: ofCustomer('企业用户', 'comp_users', 'user_code', ['userCode']),
  compRole: ofCustomer('企业角色', 'comp_roles', 'role_code', ['roleCode']),
  compDept: ofCustomer('部门', 'comp_depts', 'dept_code', ['deptCode']),
  compRelation: ofCustomer('企业关系', 'comp_relations', 'biz_code', ['bizCode'], 'core_comp_code'),
} as const satisfies Record<string, ScopeKindDef>;

export type ScopeKind = keyof typeof SCOPE_KINDS;

// A menu code renamed in the catalogue must not silently close (or open) a kind's attachments.
for (const k of Object.values(SCOPE_KINDS) as ScopeKindDef[]) k.menus.forEach((m) => menu(m));

export function isScopeKind(name: string): name is ScopeKind {
  return Object.hasOwn(SCOPE_KINDS, name);
}

/**
 * The kind of the document an attachment or approval belongs to: its document type names the kind
 * (workflow DOC_TYPES and the files' doc_type use the same names), except a customer's own files,
 * filed under `company` (company/service.ts COMPANY_DOC_TYPE), and a credit's contracts of
 * guarantee, filed under `creditGua` with the credit's code (credit/guarantees.ts): they follow
 * their credit.
 */
export function kindOfDocType(docType: string): ScopeKind | undefined {
  if (docType === 'company') return 'customer';
  if (docType === GUARANTEE_FILE_DOC_TYPE) return 'credit';
  return isScopeKind(docType) ? docType : undefined;
}

/** The user's data scope over rows of a kind, as a WHERE condition on the kind's FROM (`r`). */
export function rowScopeCondition(kind: ScopeKind, user: ScopeUser): SQL {
  const k: ScopeKindDef = SCOPE_KINDS[kind];
  const scoped = dataScopeCondition(user, { ownerUser: sql.raw(k.owner), ownerDept: sql.raw(k.org) });
  return k.companyWide ? sql`(${sql.raw(k.companyWide)} or ${scoped})` : scoped;
}

/** The user's data scope over a drizzle table carrying `created_by` and `org_id` (lists). */
export function tableScope(user: ScopeUser, table: { createdBy: PgColumn; orgId: PgColumn }): SQL {
  return dataScopeCondition(user, { ownerUser: table.createdBy, ownerDept: table.orgId });
}

/**
 * Rows naming a document by type and code (approval instances) whose document lies inside the
 * user's scope; types that are no scope kind are not narrowed. The visible documents are one
 * uncorrelated union, read once (a condition per row and kind made PostgreSQL's JIT compile a
 * plan for tens of seconds).
 */
export function documentScope(user: ScopeUser, docType: SQL, docCode: SQL, types: readonly string[]): SQL {
  if (user.dataScope === 'all') return sql`true`;
  const kinds = types.filter(isScopeKind);
  if (kinds.length === 0) return sql`true`;
  const visible = kinds.map((kind) => {
    const k: ScopeKindDef = SCOPE_KINDS[kind];
    return sql`select ${kind}::text, ${sql.raw(k.code)}::text from ${sql.raw(k.from)}
      where ${sql.raw(k.live)} and ${rowScopeCondition(kind, user)}`;
  });
  const known = sql.join(
    kinds.map((k) => sql`${k}`),
    sql`, `,
  );
  return sql`(${docType} not in (${known}) or (${docType}, ${docCode}) in (${sql.join(visible, sql` union all `)}))`;
}

/** Rows whose customer (`compColumn`, a comp_code) lies inside the user's scope over customers. */
export function customerScope(user: ScopeUser, compColumn: PgColumn | SQL): SQL {
  return sql`${compColumn} in (select sc.comp_code from companies sc where sc.deleted_at is null and ${aliasScope(user, 'sc')})`;
}

/** The same over a table aliased in raw SQL (`alias.created_by`, `alias.org_id`); `alias` is a constant. */
export function aliasScope(user: ScopeUser, alias: string): SQL {
  if (!/^[a-z_][a-z0-9_]*$/.test(alias)) throw new Error(`bad SQL alias ${alias}`);
  return dataScopeCondition(user, {
    ownerUser: sql.raw(`${alias}.created_by`),
    ownerDept: sql.raw(`${alias}.org_id`),
  });
}

const codeValue = code('编号');

/** A request value as the route's validation will read it (NFKC), or undefined if it is no code. */
export function normaliseCode(value: unknown): string | undefined {
  const r = codeValue.safeParse(value);
  return r.success ? r.data : undefined;
}

/** Whether the row named by `rowCode` exists, and if so whether it lies inside the user's scope. */
export async function rowVisibility(
  ex: Executor,
  kind: ScopeKind,
  rowCode: string,
  user: ScopeUser,
): Promise<'missing' | 'visible' | 'hidden'> {
  const k: ScopeKindDef = SCOPE_KINDS[kind];
  const [row] = await queryRows<{ visible: boolean }>(
    ex,
    sql`select (${rowScopeCondition(kind, user)}) as visible from ${sql.raw(k.from)}
         where ${sql.raw(k.code)} = ${rowCode} and ${sql.raw(k.live)} limit 1`,
  );
  if (!row) return 'missing';
  return row.visible ? 'visible' : 'hidden';
}

/**
 * Whether the user may view a document of this kind: they hold one of the screens showing it
 * (or admin) and the row lies inside their data scope. A missing row is not viewable.
 */
export async function documentVisible(
  ex: Executor,
  kind: ScopeKind,
  rowCode: string,
  user: ScopeUser & { codes: ReadonlySet<string> },
): Promise<boolean> {
  const k: ScopeKindDef = SCOPE_KINDS[kind];
  if (!user.codes.has('admin') && !k.menus.some((m) => user.codes.has(m))) return false;
  return (await rowVisibility(ex, kind, rowCode, user)) === 'visible';
}
