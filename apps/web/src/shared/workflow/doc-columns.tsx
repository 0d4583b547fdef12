import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import type { TableColumnType } from 'antd';
import { actionsColumn, type ListActionsColumn, type RowAction } from '../list/RowActions';
import { DOC_STATE_LABELS, EDITABLE_STATES, type DocState } from '@portal/contract/workflow';
import { useButtons, type Buttons } from '../permission/use-buttons';
import type { UpdateResult } from '../request/http';
import { docUrl, type DocKind } from './doc-kind';
import { DocStateTag } from './DocStateTag';
import { docKeys } from './api';

/** The 审核状态 filter's options. */
export const DOC_STATE_OPTIONS = Object.entries(DOC_STATE_LABELS).map(([value, label]) => ({ value, label }));

/** 状态 of a workflow document's row. */
export function docStateColumn<T extends { state: DocState }>(): TableColumnType<T> {
  return {
    title: '状态',
    key: 'state',
    width: 90,
    // Seen without scrolling, next to what the row offers (shared/list/fit-columns.tsx).
    fixed: 'right',
    render: (_: unknown, r: T) => <DocStateTag state={r.state} />,
  };
}

/**
 * 操作 of a workflow document's row: 查看 always; 编辑 and 删除 while it is a draft or rejected
 * and the user holds the save / delete button; then whatever `extra` adds (冲红, …), declared for
 * the list page to size and collapse (shared/list/RowActions.tsx).
 */
export function docActionsColumn<T extends { state: DocState }>(opts: {
  buttons: Buttons;
  view: (r: T) => void;
  edit?: (r: T) => void;
  remove?: (r: T) => void;
  extra?: (r: T) => readonly RowAction[];
}): ListActionsColumn<T> {
  return actionsColumn<T>((r) => {
    const editable = EDITABLE_STATES.includes(r.state);
    return [
      { label: '查看', onClick: () => opts.view(r) },
      ...(opts.edit
        ? [{ label: '编辑', hidden: !editable || !opts.buttons.has('save'), onClick: () => opts.edit!(r) }]
        : []),
      ...(opts.remove
        ? [
            {
              label: '删除',
              danger: true,
              hidden: !editable || !opts.buttons.has('delete'),
              onClick: () => opts.remove!(r),
            },
          ]
        : []),
      ...(opts.extra?.(r) ?? []),
    ];
  });
}

/**
 * 操作 of a document kind's list: 查看 and 编辑 open its view and editor pages; 删除 goes through
 * `remove` (which asks first) and, once done, refreshes every cached page of the kind's list.
 */
export function useDocActionsColumn<T extends { state: DocState }>(
  kind: DocKind,
  opts: {
    code: (r: T) => string;
    remove?: (code: string) => Promise<UpdateResult<unknown>>;
    extra?: (r: T) => readonly RowAction[];
  },
): ListActionsColumn<T> {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const buttons = useButtons(kind.menuCode);
  const { code, remove, extra } = opts;
  return docActionsColumn<T>({
    buttons,
    view: (r) => void navigate(docUrl(kind, 'view', code(r))),
    ...(kind.routes.editor ? { edit: (r: T) => void navigate(docUrl(kind, 'editor', code(r))) } : {}),
    ...(remove
      ? {
          remove: (r: T) =>
            void remove(code(r))
              .then((res) => res.ok && refreshDocList(queryClient, kind))
              .catch(() => undefined),
        }
      : {}),
    ...(extra ? { extra } : {}),
  });
}

/** Every cached page of the kind's list is fetched again (the shared list's key, list/list-query.ts). */
export function refreshDocList(queryClient: ReturnType<typeof useQueryClient>, kind: DocKind): void {
  void queryClient.invalidateQueries({ queryKey: docKeys.list(kind) });
}
