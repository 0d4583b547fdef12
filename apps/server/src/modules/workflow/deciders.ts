import { sql, type SQL } from 'drizzle-orm';
import { ADMIN_CODE } from '@portal/contract/menus';
import { DOC_TYPE_KEYS } from '@portal/contract/workflow';
import { roleReach, sessionScope, type ScopeUser } from '../../platform/auth/data-scope';
import { readRoles } from '../../platform/auth/grant';
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

export async function deciderOf(ex: Executor, userId: number): Promise<Decider> {
  const [user] = await queryRows<{ dept_id: unknown }>(
    ex,
    sql`select dept_id from users where id = ${userId}`,
  );
  const deptId = user?.dept_id === null || user === undefined ? null : Number(user.dept_id);
  const rows = await readRoles(
    ex,
    sql`r.state = 'enabled' and r.id in (select role_id from user_roles where user_id = ${userId})`,
  );
  return {
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
  };
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
