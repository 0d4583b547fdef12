import { sql, type SQL } from 'drizzle-orm';
import { ADMIN_CODE } from '@portal/contract/menus';
import type { DataScope } from '@portal/contract/permission';
import { DOC_TYPE_KEYS } from '@portal/contract/workflow';
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

export async function deciderOf(ex: Executor, userId: number): Promise<Decider> {
  const rows = await queryRows<{
    code: string;
    data_scope: DataScope;
    depts: unknown[] | null;
    dept_id: unknown;
    admin: boolean;
  }>(
    ex,
    sql`select r.code, r.data_scope, u.dept_id,
               (select array_agg(rd.dept_id) from role_depts rd where rd.role_id = r.id) as depts,
               r.code = ${ADMIN_CODE} or exists (select 1 from role_menus rm
                 where rm.role_id = r.id and rm.menu_code = ${ADMIN_CODE}) as admin
          from users u
          join user_roles ur on ur.user_id = u.id
          join roles r on r.id = ur.role_id and r.state = 'enabled' and r.deleted_at is null
         where u.id = ${userId}`,
  );
  const deptId = rows[0]?.dept_id === null || rows[0] === undefined ? null : Number(rows[0].dept_id);
  return {
    userId,
    admin: rows.some((r) => r.admin),
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
