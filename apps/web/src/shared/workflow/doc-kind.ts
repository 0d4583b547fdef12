import { useNavigate, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import type { AuditDecideOptions } from './AuditView';

/**
 * A workflow document type as its screens share it (docs/architecture.md "One document kit"): the
 * list, editor and view routes, the list call (whose cached pages a change refreshes), the audit
 * calls and the URL parameter naming one document.
 */
export interface DocKind {
  /** The workflow's document type (loan, classAdjust, …). */
  docType: string;
  /** The menu whose buttons (save, delete, audit, …) rule the screens. */
  menuCode: string;
  /** The URL parameter naming the document (loanBizCode, …); a 待办 link uses bizCode. */
  codeParam: string;
  routes: { list: string; view: string; editor?: string };
  /** The list call: the shared list caches its pages under ['list', listPath]. */
  listPath: string;
  auditPath: string;
  unAuditPath: string;
  /** The buttons guarding them, when not audit / unAudit (credit documents: pass / reject). */
  auditActions?: AuditDecideOptions['actions'];
  /** The key prefix of the document's own queries (a decision refreshes them). */
  queryKey: readonly unknown[];
}

/** The document named by the page's URL: its own parameter, or bizCode from a 待办 link. */
export function useDocCode(kind: DocKind): string {
  const [params] = useSearchParams();
  return params.get(kind.codeParam) ?? params.get('bizCode') ?? '';
}

/** The URL of a document's view or editor page. */
export function docUrl(kind: DocKind, page: 'view' | 'editor', code: string): string {
  const route = page === 'view' ? kind.routes.view : kind.routes.editor;
  if (!route) throw new Error(`${kind.docType} has no ${page} page`);
  return `${route}?${kind.codeParam}=${code}`;
}

/** What the view frame takes from the kind, for the document `code`. */
export function docFrameProps(kind: DocKind, code: string) {
  return {
    backTo: kind.routes.list,
    editTo: kind.routes.editor ? docUrl(kind, 'editor', code) : undefined,
    docType: kind.docType,
    docCode: code,
    menuCode: kind.menuCode,
    auditPath: kind.auditPath,
    unAuditPath: kind.unAuditPath,
    auditActions: kind.auditActions,
    refresh: kind.queryKey,
  };
}

/**
 * What a document editor does once its save answered, whatever the document: the kind's queries are
 * stale, and the page moves on — to the view after 保存并提交, to the saved document's own editor
 * URL after the first 保存 of a new one (so that a reload or a tab switch opens it, not a blank
 * editor). `code` is the document the editor opened with ('' for a new one).
 */
export function useDocSaved(kind: DocKind, code: string): (saved: string, submit: boolean) => void {
  const qc = useQueryClient();
  const navigate = useNavigate();
  return (saved, submit) => {
    void qc.invalidateQueries({ queryKey: kind.queryKey });
    if (submit) void navigate(docUrl(kind, 'view', saved));
    else if (!code) void navigate(docUrl(kind, 'editor', saved), { replace: true });
  };
}
