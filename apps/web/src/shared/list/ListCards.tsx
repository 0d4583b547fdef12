import type { Key, ReactNode } from 'react';
import { Card, Empty, Pagination, Spin, type TableProps } from 'antd';
import { isActions, isKeyColumn, type ListColumn, type ListColumns } from './fit-columns';

/**
 * Below this width (a phone) a list shows a card per row instead of a table
 * (docs/architecture.md "Lists fit their box").
 */
export const PHONE_LIST_WIDTH = 480;

/** A column's header text. */
export function titleOf<T>(c: ListColumn<T>): ReactNode {
  return typeof c.title === 'function' ? null : c.title;
}

/** What a column shows for a row: its render, or the row's value under its dataIndex. */
export function cellOf<T>(c: ListColumn<T>, row: T, index: number): ReactNode {
  const value = typeof c.dataIndex === 'string' ? (row as Record<string, unknown>)[c.dataIndex] : undefined;
  if (c.render) return c.render(value, row, index) as ReactNode;
  return value === null || value === undefined ? '' : String(value as string | number);
}

function keyOf<T>(rowKey: TableProps<T>['rowKey'], row: T, index: number): Key {
  if (typeof rowKey === 'function') return rowKey(row, index);
  if (typeof rowKey === 'string') return String((row as Record<string, unknown>)[rowKey] as string);
  return index;
}

/** Columns of a row as `label：value` lines (a card's body, a narrow row's expansion). */
export function FieldLines<T>({ columns, row, index }: { columns: ListColumns<T>; row: T; index: number }) {
  return (
    <dl className="list-page__more">
      {columns.map((c, j) => (
        <div key={j}>
          <dt>{titleOf(c)}</dt>
          <dd>{cellOf(c, row, index)}</dd>
        </div>
      ))}
    </dl>
  );
}

export interface ListCardsProps<T> {
  columns: ListColumns<T>;
  rows: readonly T[];
  rowKey: TableProps<T>['rowKey'];
  loading: boolean;
  pagination: {
    current: number;
    pageSize: number;
    total: number;
    showTotal: (total: number) => string;
    onChange: (pageNum: number, pageSize: number) => void;
  };
}

/** A phone's list: a card per row, its first column as the title, the row's actions at its foot. */
export function ListCards<T>({ columns, rows, rowKey, loading, pagination }: ListCardsProps<T>) {
  // The card's title is the first key column (the row's name), the rest its lines.
  const data = columns.filter((c) => !isActions(c));
  const first = data.find((c) => isKeyColumn(columns, c)) ?? data[0];
  const rest = data.filter((c) => c !== first);
  const actions = columns.find(isActions);
  return (
    <Spin spinning={loading}>
      <div className="list-cards">
        {rows.length === 0 ? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} /> : null}
        {rows.map((row, i) => (
          <Card
            key={keyOf(rowKey, row, i)}
            size="small"
            className="list-cards__card"
            title={first ? cellOf(first, row, i) : null}
          >
            <FieldLines columns={rest} row={row} index={i} />
            {actions ? <div className="list-cards__actions">{cellOf(actions, row, i)}</div> : null}
          </Card>
        ))}
        <Pagination size="small" simple {...pagination} />
      </div>
    </Spin>
  );
}
