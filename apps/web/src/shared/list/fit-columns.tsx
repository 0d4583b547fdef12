import type { ReactNode } from 'react';
import type { TableColumnType } from 'antd';
import type { SortOrder } from 'antd/es/table/interface';
import { CellText } from './CellText';
import type { RowAction } from './RowActions';

/**
 * How every list's columns fit (docs/architecture.md "Lists fit their box"): each column has a
 * width (the helpers in columns.tsx give codes, dates and money theirs; the rest a default), text
 * is cut with an ellipsis and shown whole in a tooltip, the 操作 column is fixed on the right (with
 * the columns declared `fixed: 'right'` before it). When the columns are wider than the list's
 * box, the columns of least priority are left out of the table (and shown in the row's expansion)
 * until the rest fit; key columns (priority 0) never are, and only if they alone are wider than
 * the box does the table scroll sideways inside it.
 */
export const DEFAULT_COLUMN_WIDTH = 140;
/** A list's key column: never left out, whatever the width. */
export const KEY = 0;
/** The priority of a column that declares none (the first column and the pinned ones are key). */
const DEFAULT_PRIORITY = 1;
/** The expand button's column, shown when columns are left out. */
export const EXPAND_COLUMN_WIDTH = 48;
/** The class of a key column's header and cells. */
export const KEY_COLUMN_CLASS = 'list-col-key';
const ACTIONS_KEYS = new Set(['actions', 'op', 'action']);

/**
 * A list's column: an antd column with its priority (0 = key, seen at every width; a higher one
 * is left out earlier when the list is narrow) and, for 操作, the row's declared actions
 * (RowActions.tsx `actionsColumn`).
 */
export interface ListColumn<T> extends TableColumnType<T> {
  priority?: number;
  rowActions?: (row: T) => readonly RowAction[];
}
export type ListColumns<T> = readonly ListColumn<T>[];

export function isActions<T>(c: TableColumnType<T>): boolean {
  // 操作日志's 操作 is data (what was done): a column with a dataIndex is never the row's actions.
  return ACTIONS_KEYS.has(String(c.key ?? '')) || (c.title === '操作' && c.dataIndex === undefined);
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

const widthOf = <T,>(c: TableColumnType<T>) => (typeof c.width === 'number' ? c.width : DEFAULT_COLUMN_WIDTH);

/**
 * The columns left out of a box `available` px wide (0: not measured, none): the highest priority
 * number first, of equal ones the rightmost, until the rest (and the expand button) fit.
 */
export function columnsLeftOut<T>(columns: ListColumns<T>, available: number): Set<ListColumn<T>> {
  const out = new Set<ListColumn<T>>();
  if (available <= 0) return out;
  const firstData = columns.find((c) => !isActions(c));
  const priority = (c: ListColumn<T>) =>
    c.priority ?? (c === firstData || c.fixed === 'right' ? KEY : DEFAULT_PRIORITY);
  let total = columns.reduce((sum, c) => sum + widthOf(c), 0);
  const candidates = columns
    .map((c, i) => ({ c, i, p: priority(c) }))
    .filter(({ c, p }) => !isActions(c) && p > KEY)
    .sort((a, b) => b.p - a.p || b.i - a.i);
  for (const { c } of candidates) {
    if (total + (out.size ? EXPAND_COLUMN_WIDTH : 0) <= available) break;
    out.add(c);
    total -= widthOf(c);
  }
  return out;
}

/** Whether a column is key (declared, or by default the first and the pinned ones). */
export function isKeyColumn<T>(columns: ListColumns<T>, c: ListColumn<T>): boolean {
  if (isActions(c)) return false;
  if (c.priority !== undefined) return c.priority === KEY;
  return c === columns.find((x) => !isActions(x)) || c.fixed === 'right';
}

export function fitColumns<T extends object>(
  columns: ListColumns<T>,
  sortable: readonly string[],
  sort: ListSort,
  available = 0,
): { columns: TableColumnType<T>[]; width: number; leftOut: ListColumn<T>[] } {
  let width = 0;
  // Columns a row's reader must always see (状态, 冲红) are declared fixed on the right: they stand
  // just before 操作, which stays last.
  const pinned = (c: TableColumnType<T>) => c.fixed === 'right' && !isActions(c);
  const ordered = [
    ...columns.filter((c) => !pinned(c) && !isActions(c)),
    ...columns.filter(pinned),
    ...columns.filter(isActions),
  ];
  const leftOut = columnsLeftOut(columns, available);
  const out = ordered
    .filter((c) => !leftOut.has(c))
    .map((column): TableColumnType<T> => {
      const { priority: _priority, rowActions: _actions, ...c } = column;
      const w = widthOf(c);
      width += w;
      if (isActions(c)) return { ...c, width: w, fixed: 'right' };
      const key = isKeyColumn(columns, column);
      const dataKey = columnKey(c);
      const sorted: Partial<TableColumnType<T>> =
        dataKey && sortable.includes(dataKey)
          ? {
              sorter: true,
              sortOrder: (sort.orderBy === dataKey
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
        ...(key ? { className: [c.className, KEY_COLUMN_CLASS].filter(Boolean).join(' ') } : {}),
        ellipsis: { showTitle: false },
        render: (value: unknown, row: T, index: number) => {
          const shown = (render ? render(value, row, index) : value) as ReactNode;
          const text = textOf(shown);
          return text ? <CellText text={text} /> : shown;
        },
      };
    });
  return { columns: out, width: width + (leftOut.size ? EXPAND_COLUMN_WIDTH : 0), leftOut: [...leftOut] };
}
