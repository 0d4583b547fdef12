import { z } from 'zod';
import { bizCodeQuery, code } from '@portal/contract/fields';
import { auditBody } from '@portal/contract/workflow';
import type { Db } from '../../platform/db/client';
import type { Api, Perm } from '../../platform/http/route';
import { setDecidePaths } from './registry';
import { approve, reject, type TransitionResult } from './service';

/**
 * Registers a document's two SPEC approval calls in one line, e.g.
 *
 *   auditRoutes(api, db, {
 *     type: 'contract',
 *     audit: { path: '/api/ft/api/contract/info/audit', perm: button('ft-contract-info', 'audit') },
 *     unAudit: { path: '/api/ft/api/contract/info/unAudit', perm: button('ft-contract-info', 'unAudit') },
 *   });
 *
 * Both take `?bizCode=` and the body `{ comment?, step? }` (auditBody) and answer a
 * TransitionResult. Side effects belong in the type's hooks (registerDocType), so they run in
 * the same transaction. A module that must do more around the call writes its own route with
 * `db.transaction((tx) => approve(tx, …))` instead.
 */
export function auditRoutes(
  api: Api,
  db: Db,
  opts: {
    type: string;
    audit: { path: string; perm: Perm };
    unAudit: { path: string; perm: Perm };
    /** The SPEC's own name of the code parameter (`paidRedBizCode`, …); `bizCode` is accepted too. */
    codeParam?: string;
  },
): void {
  const query = opts.codeParam ? codeQuery(opts.codeParam) : bizCodeQuery;
  const action = (perm: Perm, fallback: string) =>
    typeof perm === 'string' && perm.includes(':') ? perm.slice(perm.lastIndexOf(':') + 1) : fallback;
  setDecidePaths(opts.type, {
    auditPath: opts.audit.path,
    unAuditPath: opts.unAudit.path,
    auditAction: action(opts.audit.perm, 'audit'),
    unAuditAction: action(opts.unAudit.perm, 'unAudit'),
  });
  api.post(
    opts.audit.path,
    { perm: opts.audit.perm, query, body: auditBody, summary: '审核（通过当前审批步骤）' },
    async ({ query, body, actor }): Promise<TransitionResult> =>
      db.transaction((tx) =>
        approve(tx, { type: opts.type, code: query.bizCode, comment: body.comment, step: body.step, actor }),
      ),
  );
  api.post(
    opts.unAudit.path,
    { perm: opts.unAudit.perm, query, body: auditBody, summary: '驳回' },
    async ({ query, body, actor }): Promise<TransitionResult> =>
      db.transaction((tx) =>
        reject(tx, { type: opts.type, code: query.bizCode, comment: body.comment, step: body.step, actor }),
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
