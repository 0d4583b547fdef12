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
import { queryOptions, type QueryClient } from '@tanstack/react-query';
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
  /** 待阅, every page (`toRead(params)` is one). */
  toReadAll: ['workflow', 'toRead'] as const,
  toRead: (params: object) => ['workflow', 'toRead', params] as const,
  counts: ['workflow', 'counts'] as const,
  /** 流程监控's list (ListPage's pages under it). */
  instances: ['workflow', 'instances'] as const,
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

type TodoParams = Parameters<typeof workflowApi.todo>[0];
type ToReadParams = Parameters<typeof workflowApi.toRead>[0];

/** The workflow reads as query options (`useQuery(workflowQueries.process(ref))`). */
export const workflowQueries = {
  /** A document's process view; no document yet: off. */
  process: (ref: DocRef) =>
    queryOptions({
      queryKey: workflowKeys.process(ref),
      queryFn: () => workflowApi.process(ref),
      enabled: !!ref.docCode,
    }),
  /** A document's 审批记录, when `enabled` (default: once it is named). */
  records: (ref: DocRef, enabled = !!ref.docCode) =>
    queryOptions({ queryKey: workflowKeys.records(ref), queryFn: () => workflowApi.records(ref), enabled }),
  circulation: (ref: DocRef) =>
    queryOptions({
      queryKey: workflowKeys.circulation(ref),
      queryFn: () => workflowApi.circulation(ref),
      enabled: !!ref.docCode,
    }),
  /** Who a document can be circulated to, while the send dialog is open. */
  users: (enabled: boolean) =>
    queryOptions({
      queryKey: workflowKeys.users,
      queryFn: () => workflowApi.users(),
      enabled,
      staleTime: 60_000,
    }),
  todo: (params: TodoParams) =>
    queryOptions({ queryKey: workflowKeys.todo(params), queryFn: () => workflowApi.todo(params) }),
  toRead: (params: ToReadParams) =>
    queryOptions({ queryKey: workflowKeys.toRead(params), queryFn: () => workflowApi.toRead(params) }),
  counts: () => queryOptions({ queryKey: workflowKeys.counts, queryFn: () => workflowApi.counts() }),
};

/** What the document kit's keys are built from (a DocKind). */
interface KindKeys {
  docType: string;
  listPath: string;
  queryKey: readonly unknown[];
}

/**
 * The document kit's keys, built from the kind generically: a document under its kind's own prefix
 * (a save or a decision refreshes it), its list under the shared list's key (list/list-query.ts).
 */
export const docKeys = {
  view: (kind: KindKeys, code: string) => [...kind.queryKey, kind.docType, code] as const,
  list: (kind: KindKeys) => ['list', kind.listPath] as const,
};

/** The document kit's reads as query options. */
export const docQueries = {
  /** The document `code` through its kind's view call `load`; none named: off. */
  view: <V>(kind: KindKeys, code: string, load: (code: string) => Promise<V>) =>
    queryOptions({ queryKey: docKeys.view(kind, code), queryFn: () => load(code), enabled: !!code }),
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
