import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Space, type TableColumnType } from 'antd';
import { DOC_STATE_LABELS, EDITABLE_STATES, type DocState } from '@portal/contract/workflow';
import { useButtons, type Buttons } from '../permission/use-buttons';
import type { UpdateResult } from '../request/http';
import { docUrl, type DocKind } from './doc-kind';
import { DocStateTag } from './DocStateTag';

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
 * and the user holds the save / delete button; then whatever `extra` adds (冲红, …).
 */
export function docActionsColumn<T extends { state: DocState }>(opts: {
  buttons: Buttons;
  view: (r: T) => void;
  edit?: (r: T) => void;
  remove?: (r: T) => void;
  extra?: (r: T) => ReactNode;
}): TableColumnType<T> {
  return {
    title: '操作',
    key: 'actions',
    // 查看 编辑 删除 and one more: fixed on the right (shared/list/fit-columns.tsx).
    width: opts.extra ? 220 : 170,
    render: (_: unknown, r: T) => {
      const editable = EDITABLE_STATES.includes(r.state);
      return (
        <Space size={4}>
          <Button type="link" size="small" onClick={() => opts.view(r)}>
            查看
          </Button>
          {opts.edit && editable && opts.buttons.has('save') ? (
            <Button type="link" size="small" onClick={() => opts.edit!(r)}>
              编辑
            </Button>
          ) : null}
          {opts.remove && editable && opts.buttons.has('delete') ? (
            <Button type="link" size="small" danger onClick={() => opts.remove!(r)}>
              删除
            </Button>
          ) : null}
          {opts.extra?.(r)}
        </Space>
      );
    },
  };
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
    extra?: (r: T) => ReactNode;
  },
): TableColumnType<T> {
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
  void queryClient.invalidateQueries({ queryKey: ['list', kind.listPath] });
}
