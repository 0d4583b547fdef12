import { formatCode, formatDate, formatDateTime, formatMoney } from '@portal/contract/format';
import type { ListColumn as ColumnType } from './fit-columns';

/**
 * Column helpers of the list building blocks. Values come from the server as strings
 * (docs/protocol.md "Values on the wire") and are shown with the shared formatters of '@portal/contract/format'.
 */
type Extra<T> = Omit<ColumnType<T>, 'title' | 'dataIndex' | 'render'>;

function cell(row: object, key: string): unknown {
  return (row as Record<string, unknown>)[key];
}

/** Money: right-aligned, thousands separators, 2 decimals. */
export function moneyColumn<T extends object>(
  title: string,
  key: string,
  extra: Extra<T> = {},
): ColumnType<T> {
  return {
    title,
    dataIndex: key,
    key,
    align: 'right',
    width: 130,
    ...extra,
    render: (_: unknown, row: T) => formatMoney(cell(row, key) as string | null | undefined),
  };
}

/** Business codes: 12 digits, zero-padded. */
export function codeColumn<T extends object>(
  title: string,
  key: string,
  extra: Extra<T> = {},
): ColumnType<T> {
  return {
    title,
    dataIndex: key,
    key,
    width: 130,
    ...extra,
    render: (_: unknown, row: T) => formatCode(cell(row, key) as string | number | null | undefined),
  };
}

/** Dates YYYY-MM-DD; with `withTime`, date and time at the fixed +08:00 offset. */
export function dateColumn<T extends object>(
  title: string,
  key: string,
  extra: Extra<T> & { withTime?: boolean } = {},
): ColumnType<T> {
  const { withTime, ...rest } = extra;
  return {
    title,
    dataIndex: key,
    key,
    // Never one character per line: the whole date (and time) fits (docs/architecture.md).
    width: withTime ? 170 : 110,
    ...rest,
    render: (_: unknown, row: T) => {
      const v = cell(row, key) as string | null | undefined;
      return withTime ? formatDateTime(v) : formatDate(v);
    },
  };
}
