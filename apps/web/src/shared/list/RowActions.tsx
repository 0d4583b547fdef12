import type { ReactNode } from 'react';
import { Button, Space, type TableColumnType } from 'antd';
import { Auth } from '../permission/Auth';

export interface RowAction {
  label: ReactNode;
  /** Button code gating the action; without one the action is always shown. */
  code?: string;
  danger?: boolean;
  /** Leave the action out for this row (e.g. 设为默认 on the default account). */
  hidden?: boolean;
  onClick: () => void;
}

/** The link buttons of a list row's 操作 column, each gated by its button code. */
export function RowActions({ actions }: { actions: readonly RowAction[] }) {
  return (
    <Space size={0}>
      {actions.map((a, i) => {
        if (a.hidden) return null;
        const btn = (
          <Button key={i} type="link" size="small" danger={a.danger} onClick={a.onClick}>
            {a.label}
          </Button>
        );
        return a.code ? (
          <Auth key={i} code={a.code}>
            {btn}
          </Auth>
        ) : (
          btn
        );
      })}
    </Space>
  );
}

/** The 操作 column of a list: the row's actions as link buttons. */
export function actionsColumn<T>(
  width: number,
  actions: (row: T) => readonly RowAction[],
  extra: Omit<TableColumnType<T>, 'title' | 'key' | 'width' | 'render'> = {},
): TableColumnType<T> {
  return {
    title: '操作',
    key: 'actions',
    ...extra,
    width,
    render: (_: unknown, row: T) => <RowActions actions={actions(row)} />,
  };
}
