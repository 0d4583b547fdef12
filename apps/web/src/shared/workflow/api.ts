import type { Page } from '@portal/contract/api';
import {
  WORKFLOW_PATHS,
  type ApprovalRecord,
  type AuditBody,
  type CirculationItem,
  type InstanceItem,
  type ProcessView,
  type TodoItem,
  type WorkflowCounts,
  type WorkflowUser,
} from '@portal/contract/workflow';
import type { QueryClient } from '@tanstack/react-query';
import { post, update } from '../request/http';

/** The workflow's generic calls (apps/server/src/modules/workflow/README.md), for every document screen. */
export interface DocRef {
  docType: string;
  docCode: string;
}

export const workflowKeys = {
  all: ['workflow'] as const,
  doc: (ref: DocRef) => ['workflow', 'doc', ref.docType, ref.docCode] as const,
  process: (ref: DocRef) => ['workflow', 'doc', ref.docType, ref.docCode, 'process'] as const,
  records: (ref: DocRef) => ['workflow', 'doc', ref.docType, ref.docCode, 'records'] as const,
  circulation: (ref: DocRef) => ['workflow', 'doc', ref.docType, ref.docCode, 'circulation'] as const,
  users: ['workflow', 'users'] as const,
  todo: (params: object) => ['workflow', 'todo', params] as const,
  toRead: (params: object) => ['workflow', 'toRead', params] as const,
  counts: ['workflow', 'counts'] as const,
};

const q = (ref: DocRef) => ({ query: { docType: ref.docType, docCode: ref.docCode } });

export const workflowApi = {
  process: (ref: DocRef) =>
    post<ProcessView>(WORKFLOW_PATHS.process, undefined, { ...q(ref), loading: false }),
  records: (ref: DocRef) =>
    post<ApprovalRecord[]>(WORKFLOW_PATHS.records, undefined, { ...q(ref), loading: false }),
  circulation: (ref: DocRef) =>
    post<CirculationItem[]>(WORKFLOW_PATHS.circulation, undefined, { ...q(ref), loading: false }),
  users: () => post<WorkflowUser[]>(WORKFLOW_PATHS.users, undefined, { loading: false }),
  circulate: (ref: DocRef, userIds: number[], message?: string) =>
    update<{ sent: number }>(WORKFLOW_PATHS.circulate, { userIds, message }, q(ref)),
  markRead: (id: number) => post<null>(WORKFLOW_PATHS.markRead, undefined, { query: { id } }),
  todo: (params: { pageNum: number; pageSize: number; docType?: string }) =>
    post<Page<TodoItem>>(WORKFLOW_PATHS.todo, params, { loading: false }),
  toRead: (params: { pageNum: number; pageSize: number; docType?: string; read?: boolean }) =>
    post<Page<CirculationItem>>(WORKFLOW_PATHS.toRead, params, { loading: false }),
  /** 流程监控 (ft-process). */
  instances: (params: {
    pageNum: number;
    pageSize: number;
    docType?: string;
    status?: string;
    keyword?: string;
  }) => post<Page<InstanceItem>>(WORKFLOW_PATHS.instances, params, { loading: false }),
  counts: () => post<WorkflowCounts>(WORKFLOW_PATHS.counts, undefined, { loading: false }),
  /** 撤回: the maker takes the submission back while nobody has acted on it. */
  withdraw: (ref: DocRef) =>
    update<{ state: string }>(WORKFLOW_PATHS.withdraw, undefined, {
      ...q(ref),
      confirm: '撤回后单据回到草稿，可修改后再提交。确定撤回吗？',
    }),
  /** A document's own audit / unAudit (pass / reject) call, `?bizCode=`. */
  decide: (path: string, bizCode: string, body: AuditBody, confirm: string) =>
    update<{ state: string }>(path, body, { query: { bizCode }, confirm }),
};

/**
 * After an action on a document (a decision, 撤回), whether it was done or refused: its workflow
 * (process, records, to-dos, counts) and its own queries under `refresh` are fetched again
 * (docs/architecture.md "A view is never stale").
 */
export function refreshAfterAction(
  qc: QueryClient,
  refresh: readonly unknown[] | undefined,
): Promise<unknown> {
  return Promise.all([
    qc.invalidateQueries({ queryKey: workflowKeys.all }),
    refresh ? qc.invalidateQueries({ queryKey: refresh }) : undefined,
  ]);
}
