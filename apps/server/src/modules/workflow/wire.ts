import { z } from 'zod';
import { API_PREFIX } from '@portal/contract/api';
import { bizCodeQuery, code } from '@portal/contract/fields';
import { auditBody } from '@portal/contract/workflow';
import type { Db } from '../../platform/db/client';
import type { Api, Perm } from '../../platform/http/route';
import type { RouteScope } from '../../platform/http/route-scope';
import { kindOfDocType } from '../../platform/auth/row-scope';
import type { WorkflowRegistry } from './registry';
import { approve, reject, type TransitionResult } from './service';

/**
 * Registers a document's two SPEC approval calls in one line, e.g.
 *
 *   auditRoutes(api, db, workflow, {
 *     type: 'contract',
 *     audit: { path: CONTRACT_PATHS.infoAudit, perm: button('ft-contract-info', 'audit') },
 *     unAudit: { path: CONTRACT_PATHS.infoUnAudit, perm: button('ft-contract-info', 'unAudit') },
 *   });
 *
 * Both take `?bizCode=` and the body `{ comment?, step? }` (auditBody) and answer a
 * TransitionResult. Side effects belong in the type's hooks (registerDocument), so they run in
 * the same transaction. A module that must do more around the call writes its own route with
 * `db.transaction((tx) => approve(tx, workflow, …))` instead.
 */
export function auditRoutes(
  api: Api,
  db: Db,
  workflow: WorkflowRegistry,
  opts: {
    type: string;
    audit: { path: string; perm: Perm };
    unAudit: { path: string; perm: Perm };
    /** The SPEC's own name of the code parameter (`paidRedBizCode`, …); `bizCode` is accepted too. */
    codeParam?: string;
    /**
     * Default: the row scope of the document kind named like the type (row-scope.ts), found by
     * `bizCode` and `codeParam`. Only a type without an owner (tests) says otherwise.
     */
    scope?: RouteScope;
  },
): void {
  const query = opts.codeParam ? codeQuery(opts.codeParam) : bizCodeQuery;
  const kind = kindOfDocType(opts.type);
  const scope: RouteScope | undefined =
    opts.scope ?? (kind && { kind, params: ['bizCode', ...(opts.codeParam ? [opts.codeParam] : [])] });
  if (!scope) throw new Error(`workflow: approval routes of ${opts.type} need a row scope`);
  const action = (perm: Perm, fallback: string) =>
    typeof perm === 'string' && perm.includes(':') ? perm.slice(perm.lastIndexOf(':') + 1) : fallback;
  workflow.setDecidePaths(opts.type, {
    // The view answers the calls as served (under /api), as it always has.
    auditPath: `${API_PREFIX}${opts.audit.path}`,
    unAuditPath: `${API_PREFIX}${opts.unAudit.path}`,
    auditAction: action(opts.audit.perm, 'audit'),
    unAuditAction: action(opts.unAudit.perm, 'unAudit'),
  });
  api.post(
    opts.audit.path,
    { perm: opts.audit.perm, scope, query, body: auditBody, summary: '审核（通过当前审批步骤）' },
    async ({ query, body, actor }): Promise<TransitionResult> =>
      db.transaction((tx) =>
        approve(tx, workflow, {
          type: opts.type,
          code: query.bizCode,
          comment: body.comment,
          step: body.step,
          actor,
        }),
      ),
  );
  api.post(
    opts.unAudit.path,
    { perm: opts.unAudit.perm, scope, query, body: auditBody, summary: '驳回' },
    async ({ query, body, actor }): Promise<TransitionResult> =>
      db.transaction((tx) =>
        reject(tx, workflow, {
          type: opts.type,
          code: query.bizCode,
          comment: body.comment,
          step: body.step,
          actor,
        }),
      ),
  );
}

/** `?<name>=` or `?bizCode=` (the generic approval screens send bizCode), answered as bizCode. */
export function codeQuery(name: string) {
  return z
    .object({ bizCode: code('编号').optional(), [name]: code('编号').optional() })
    .transform((q, ctx) => {
      const value = (q[name] as string | undefined) ?? q.bizCode;
      if (!value) {
        ctx.addIssue({ code: 'custom', message: '编号不能为空', path: [name] });
        return z.NEVER;
      }
      return { bizCode: value };
    });
}
