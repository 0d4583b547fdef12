import type { ReactNode } from 'react';
import { Button, Space, type TableColumnType } from 'antd';
import { DOC_STATE_LABELS, EDITABLE_STATES, type DocState } from '@portal/contract/workflow';
import type { Buttons } from '../permission/use-buttons';
import { DocStateTag } from './DocStateTag';

/** The 审核状态 filter's options. */
export const DOC_STATE_OPTIONS = Object.entries(DOC_STATE_LABELS).map(([value, label]) => ({ value, label }));

/** 状态 of a workflow document's row. */
export function docStateColumn<T extends { state: DocState }>(): TableColumnType<T> {
  return {
    title: '状态',
    key: 'state',
    width: 90,
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
