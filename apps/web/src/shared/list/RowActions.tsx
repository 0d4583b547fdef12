import type { ReactNode } from 'react';
import { Button, Dropdown, Space, type TableColumnType } from 'antd';
import { DownOutlined } from '@ant-design/icons';

export interface RowAction {
  /** Plain text: its length sizes the 操作 column, and it is the 更多 menu's entry. */
  label: string;
  /** Button code gating the action; without one the action is always shown. */
  code?: string;
  danger?: boolean;
  /** Leave the action out for this row (e.g. 设为默认 on the default account). */
  hidden?: boolean;
  onClick: () => void;
}

/**
 * How many actions a row shows as links before the rest go into 更多 (docs/architecture.md
 * "Lists fit their box"): three fit in a narrow column; a fourth makes it 两个 + 更多.
 */
export const INLINE_ACTIONS = 3;

/** The actions a row shows as links, and those in its 更多 menu. */
export function splitActions(actions: readonly RowAction[]): {
  inline: readonly RowAction[];
  more: readonly RowAction[];
} {
  if (actions.length <= INLINE_ACTIONS) return { inline: actions, more: [] };
  return { inline: actions.slice(0, INLINE_ACTIONS - 1), more: actions.slice(INLINE_ACTIONS - 1) };
}

const CHAR_PX = 14;
const LINK_PADDING_PX = 16;
const CELL_PADDING_PX = 24;
const MORE_PX = 2 * CHAR_PX + LINK_PADDING_PX + 14;

/** The 操作 column's width for rows showing these actions (labels of 14 px characters). */
export function actionsWidth(rows: readonly (readonly RowAction[])[]): number {
  let widest = 0;
  for (const actions of rows) {
    const { inline, more } = splitActions(actions);
    const w =
      inline.reduce((sum, a) => sum + a.label.length * CHAR_PX + LINK_PADDING_PX, 0) +
      (more.length ? MORE_PX : 0);
    widest = Math.max(widest, w);
  }
  return Math.max(64, widest + CELL_PADDING_PX);
}

/**
 * A row's permitted actions (the caller has left out the hidden and the unpermitted): the first
 * ones as link buttons, the rest in a 更多 dropdown.
 */
export function RowActions({ actions }: { actions: readonly RowAction[] }): ReactNode {
  const { inline, more } = splitActions(actions);
  return (
    <Space size={0}>
      {inline.map((a) => (
        <Button key={a.label} type="link" size="small" danger={a.danger} onClick={a.onClick}>
          {a.label}
        </Button>
      ))}
      {more.length ? (
        <Dropdown
          trigger={['click']}
          menu={{
            items: more.map((a) => ({ key: a.label, label: a.label, danger: a.danger })),
            onClick: ({ key }) => more.find((a) => a.label === key)?.onClick(),
          }}
        >
          <Button type="link" size="small">
            更多 <DownOutlined />
          </Button>
        </Dropdown>
      ) : null}
    </Space>
  );
}

/**
 * The 操作 column of a list: the row's actions, declared, so that the list page (ListPage) keeps
 * only those the user holds, sizes the column to them, collapses the rest into 更多 and leaves
 * the column out when no row offers anything.
 */
export function actionsColumn<T>(actions: (row: T) => readonly RowAction[]): ListActionsColumn<T> {
  return { title: '操作', key: 'actions', rowActions: actions };
}

export interface ListActionsColumn<T> extends TableColumnType<T> {
  rowActions: (row: T) => readonly RowAction[];
}
