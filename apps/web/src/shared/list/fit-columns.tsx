import type { ReactNode } from 'react';
import { Tooltip, type TableColumnType } from 'antd';
import type { SortOrder } from 'antd/es/table/interface';

/**
 * How every list's columns fit (docs/architecture.md "Lists fit their box"): each column has a
 * width (the helpers in columns.tsx give codes, dates and money theirs; the rest a default), text
 * is cut with an ellipsis and shown whole in a tooltip, the 操作 column is fixed on the right (with
 * the columns declared `fixed: 'right'` before it), and the table scrolls sideways inside its own
 * box when the columns are wider than the page.
 */
export const DEFAULT_COLUMN_WIDTH = 140;
const ACTIONS_KEYS = new Set(['actions', 'op', 'action']);

function isActions<T>(c: TableColumnType<T>): boolean {
  return ACTIONS_KEYS.has(String(c.key ?? '')) || c.title === '操作';
}

function columnKey<T>(c: TableColumnType<T>): string | undefined {
  if (typeof c.dataIndex === 'string') return c.dataIndex;
  return typeof c.key === 'string' ? c.key : undefined;
}

/** Plain text of a cell, for its tooltip; undefined for rich cells (tags, links, buttons). */
function textOf(node: ReactNode): string | undefined {
  if (typeof node === 'string') return node;
  if (typeof node === 'number') return String(node);
  return undefined;
}

export interface ListSort {
  orderBy?: string | undefined;
  order?: 'asc' | 'desc' | undefined;
}

export function fitColumns<T extends object>(
  columns: readonly TableColumnType<T>[],
  sortable: readonly string[],
  sort: ListSort,
): { columns: TableColumnType<T>[]; width: number } {
  let width = 0;
  // Columns a row's reader must always see (状态, 冲红) are declared fixed on the right: they stand
  // just before 操作, which stays last.
  const pinned = (c: TableColumnType<T>) => c.fixed === 'right' && !isActions(c);
  const ordered = [
    ...columns.filter((c) => !pinned(c) && !isActions(c)),
    ...columns.filter(pinned),
    ...columns.filter(isActions),
  ];
  const out = ordered.map((c): TableColumnType<T> => {
    const w = typeof c.width === 'number' ? c.width : DEFAULT_COLUMN_WIDTH;
    width += w;
    if (isActions(c)) return { ...c, width: w, fixed: 'right' };
    const key = columnKey(c);
    const sorted: Partial<TableColumnType<T>> =
      key && sortable.includes(key)
        ? {
            sorter: true,
            sortOrder: (sort.orderBy === key
              ? sort.order === 'asc'
                ? 'ascend'
                : 'descend'
              : null) as SortOrder,
          }
        : {};
    const render = c.render;
    return {
      ...c,
      width: w,
      ...sorted,
      ellipsis: { showTitle: false },
      render: (value: unknown, row: T, index: number) => {
        const shown = (render ? render(value, row, index) : value) as ReactNode;
        const text = textOf(shown);
        return text ? (
          <Tooltip placement="topLeft" title={text}>
            <span>{text}</span>
          </Tooltip>
        ) : (
          shown
        );
      },
    };
  });
  return { columns: out, width };
}
