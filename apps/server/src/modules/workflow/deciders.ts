import { sql, type SQL } from 'drizzle-orm';
import { ADMIN_CODE } from '@portal/contract/menus';
import { DOC_TYPE_KEYS } from '@portal/contract/workflow';
import type { DataScope } from '@portal/contract/permission';
import { roleReach, sessionScope, type ScopeUser } from '../../platform/auth/data-scope';
import { documentScope } from '../../platform/auth/row-scope';
import { queryRows, type Executor } from '../../platform/db/client';

/**
 * Who may act on a step of a document's approval, and so see its process (README.md beside this
 * file, SECURITY.md "Approvals"): a holder of the step's role for whom the document lies inside the
 * data scope that role grants (the document's organisation and maker, as its own screens scope
 * it), or an administrator. Holding the role reaches no document outside that scope. The decision
 * (approve, reject, 反审核), the process views, the to-do list and its count and the 待审批 messages
 * all ask `decidesStep`.
 */
export interface Decider {
  userId: number;
  admin: boolean;
  /** The user's enabled roles, each with the data scope it grants. */
  roles: readonly { code: string; scope: ScopeUser }[];
}

/**
 * What a decision needs to know of the person deciding, read in one statement (one round trip
 * inside the approving transaction, docs/architecture.md "Documents and approvals"): their
 * Decider, their name for the process record (null for no such user) and whether the office lets
 * a maker approve their own document (wf_settings).
 */
export interface DeciderFacts {
  decider: Decider;
  realName: string | null;
  selfApproval: boolean;
}

/** One row of what deciderFacts reads (its statement, or a column of another's: factsColumn). */
interface FactsRow {
  dept_id: unknown;
  real_name: string | null;
  self_ok: boolean | null;
  roles: { code: string; data_scope: DataScope; depts: unknown[] | null; codes: string[] | null }[];
}

/** deciderFacts's select: one row. */
function factsQuery(userId: number): SQL {
  // The roles as readRoles reads them (platform/auth/grant.ts), enabled ones of the user.
  return sql`select u.dept_id, u.real_name,
               (select allow_self_approval from wf_settings where id = 1) as self_ok,
               (select coalesce(json_agg(json_build_object(
                         'code', r.code, 'data_scope', r.data_scope,
                         'depts', (select array_agg(rd.dept_id) from role_depts rd where rd.role_id = r.id),
                         'codes', (select array_agg(rm.menu_code) from role_menus rm where rm.role_id = r.id))
                       order by r.id), '[]'::json)
                  from roles r
                 where r.deleted_at is null and r.state = 'enabled'
                   and r.id in (select role_id from user_roles where user_id = ${userId})) as roles
          from (select 1) one left join users u on u.id = ${userId}`;
}

/**
 * deciderFacts's row as a JSON column of another statement (the approval's lock of its process
 * instance: a statement less, bench/README.md "Fourteenth pass"); read back by factsOf.
 */
export function factsColumn(userId: number): SQL {
  return sql`(select row_to_json(f) from (${factsQuery(userId)}) f)`;
}

export async function deciderFacts(ex: Executor, userId: number): Promise<DeciderFacts> {
  const [row] = await queryRows<FactsRow>(ex, factsQuery(userId));
  return factsOf(row, userId);
}

/** The facts of deciderFacts's row (or factsColumn's). */
export function factsOf(row: FactsRow | undefined, userId: number): DeciderFacts {
  const deptId = row?.dept_id === null || row?.dept_id === undefined ? null : Number(row.dept_id);
  const rows = row?.roles ?? [];
  return {
    decider: {
      userId,
      admin: rows.some((r) => r.code === ADMIN_CODE || (r.codes ?? []).includes(ADMIN_CODE)),
      // Each role with its own reach: 本部门 and 自定义 reach only what that role names.
      roles: rows.map((r) => ({
        code: r.code,
        scope: {
          userId,
          deptId,
          ...sessionScope(roleReach(r.data_scope, (r.depts ?? []).map(Number), deptId)),
        },
      })),
    },
    realName: row?.real_name ?? null,
    selfApproval: row?.self_ok ?? false,
  };
}

export async function deciderOf(ex: Executor, userId: number): Promise<Decider> {
  return (await deciderFacts(ex, userId)).decider;
}

/**
 * The condition "the decider may act on a step of role `roleCode` of the document (`docType`,
 * `docCode`)", for a list's WHERE (the to-do list: `i.step_role`, `i.doc_type`, `i.doc_code`).
 */
export function decidesStep(d: Decider, roleCode: SQL, docType: SQL, docCode: SQL): SQL {
  if (d.admin) return sql`true`;
  const held = d.roles.map(
    (r) => sql`(${roleCode} = ${r.code} and ${documentScope(r.scope, docType, docCode, DOC_TYPE_KEYS)})`,
  );
  return held.length ? sql`(${sql.join(held, sql` or `)})` : sql`false`;
}

/** Whether the decider may act on a step of one of `roleCodes` of one document. */
export async function decidesAnyStep(
  ex: Executor,
  d: Decider,
  roleCodes: readonly string[],
  docType: string,
  docCode: string,
): Promise<boolean> {
  if (d.admin) return true;
  const held = [...new Set(roleCodes)].filter((c) => d.roles.some((r) => r.code === c));
  if (held.length === 0) return false;
  const steps = sql.join(
    held.map((c) => sql`(${c}::text)`),
    sql`, `,
  );
  const [row] = await queryRows<{ ok: boolean }>(
    ex,
    sql`select exists (select 1 from (values ${steps}) s(role_code)
          where ${decidesStep(d, sql`s.role_code`, sql`${docType}::text`, sql`${docCode}::text`)}) as ok`,
  );
  return row?.ok ?? false;
}
