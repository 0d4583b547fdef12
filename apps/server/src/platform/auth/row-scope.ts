import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { code } from '@portal/contract/fields';
import { menu } from '@portal/contract/menus';
import { queryRows, type Executor } from '../db/client';
import { dataScopeCondition, type ScopeUser } from './data-scope';

/**
 * Row scope (docs/architecture.md "Who may see a row"): which rows a route touches and how their organisation
 * and owner are found. Each module registers the kinds of its own tables with its plugin
 * (`PortalModule.scopeKinds`); this file names no module's table. Every route declares one of these kinds next to its `perm` (platform/http/route.ts);
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
  /** Document types other than the kind's name whose files and approvals follow this kind. */
  docTypes?: readonly string[];
}

/**
 * A document kind of a module's own table: its code, organisation and maker on the row itself.
 * `table` is the owning module's (this file names no module's table).
 */
export const documentKind = (
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

/** The platform's own kinds, over its own tables (users, depts). */
export const PLATFORM_SCOPE_KINDS = {
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
} as const satisfies Record<string, ScopeKindDef>;

/**
 * The kinds each module registers with its plugin (`PortalModule.scopeKinds`, in its
 * `scope-kinds.ts`), by module: a module adds its entry by declaration merging
 * (`declare module '../../platform/auth/row-scope' { interface ScopeKindsOf { contract: typeof
 * CONTRACT_SCOPE_KINDS } }`), so that a route naming a kind nobody registers does not compile.
 */
export interface ScopeKindsOf {
  platform: typeof PLATFORM_SCOPE_KINDS;
}

/** Every kind's name (modules/README.md "Row scope"). */
export type ScopeKind = { [M in keyof ScopeKindsOf]: keyof ScopeKindsOf[M] }[keyof ScopeKindsOf] & string;

/** The kinds registered: the platform's, then each module's as the portal is built (server.ts). */
const KINDS = new Map<string, ScopeKindDef>();
/** Document types whose attachments and approvals follow a kind of another name. */
const DOC_TYPE_KINDS = new Map<string, string>();

/**
 * Registers a module's kinds (before any route is declared). Kinds are constants, the same for
 * every portal of the process: registering the same definition again changes nothing; another
 * definition under a registered name is a programming error.
 */
export function addScopeKinds(kinds: Readonly<Record<string, ScopeKindDef>>): void {
  for (const [name, def] of Object.entries(kinds)) {
    const had = KINDS.get(name);
    if (had === def) continue;
    if (had) throw new Error(`row-scope kind ${name} registered twice`);
    // A menu code renamed in the catalogue must not silently close (or open) a kind's attachments.
    def.menus.forEach((m) => menu(m));
    for (const docType of def.docTypes ?? []) DOC_TYPE_KINDS.set(docType, name);
    KINDS.set(name, def);
  }
}
addScopeKinds(PLATFORM_SCOPE_KINDS);

/** A registered kind's definition. */
export function scopeKind(kind: ScopeKind): ScopeKindDef {
  const def = KINDS.get(kind);
  if (!def)
    throw new Error(`row-scope kind ${kind} is not registered (its module's PortalModule.scopeKinds)`);
  return def;
}

/** The registered kinds' names. */
export function scopeKindNames(): ScopeKind[] {
  return [...KINDS.keys()] as ScopeKind[];
}

export function isScopeKind(name: string): name is ScopeKind {
  return KINDS.has(name);
}

/**
 * The kind of the document an attachment or approval belongs to: its document type names the kind
 * (workflow DOC_TYPES and the files' doc_type use the same names), except the types a kind lists
 * as its `docTypes` (a customer's own files, filed under `company`; a credit's contracts of
 * guarantee, filed under `creditGua` with the credit's code).
 */
export function kindOfDocType(docType: string): ScopeKind | undefined {
  const alias = DOC_TYPE_KINDS.get(docType);
  if (alias) return alias as ScopeKind;
  return isScopeKind(docType) ? docType : undefined;
}

/** The user's data scope over rows of a kind, as a WHERE condition on the kind's FROM (`r`). */
export function rowScopeCondition(kind: ScopeKind, user: ScopeUser): SQL {
  const k = scopeKind(kind);
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
    const k = scopeKind(kind);
    return sql`select ${kind}::text, ${sql.raw(k.code)}::text from ${sql.raw(k.from)}
      where ${sql.raw(k.live)} and ${rowScopeCondition(kind, user)}`;
  });
  const known = sql.join(
    kinds.map((k) => sql`${k}`),
    sql`, `,
  );
  return sql`(${docType} not in (${known}) or (${docType}, ${docCode}) in (${sql.join(visible, sql` union all `)}))`;
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
  const k = scopeKind(kind);
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
  const k = scopeKind(kind);
  if (!user.codes.has('admin') && !k.menus.some((m) => user.codes.has(m))) return false;
  return (await rowVisibility(ex, kind, rowCode, user)) === 'visible';
}
