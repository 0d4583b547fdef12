import { describe, expect, it } from 'vitest';
import type { TableColumnType } from 'antd';
import { DEFAULT_COLUMN_WIDTH, fitColumns } from './fit-columns';

type Row = { code: string };

describe('fitColumns', () => {
  it('keeps 操作 last and fixed, with the columns declared fixed on the right just before it', () => {
    const columns: TableColumnType<Row>[] = [
      { title: '编号', key: 'code', width: 120 },
      { title: '状态', key: 'state', width: 90, fixed: 'right' },
      { title: '日期', key: 'date' },
      { title: '操作', key: 'actions', width: 170 },
      { title: '冲红', key: 'red', fixed: 'right' },
    ];
    const { columns: fitted, width } = fitColumns(columns, [], {});
    expect(fitted.map((c) => [c.key, c.fixed ?? null])).toEqual([
      ['code', null],
      ['date', null],
      ['state', 'right'],
      ['red', 'right'],
      ['actions', 'right'],
    ]);
    expect(width).toBe(120 + 90 + DEFAULT_COLUMN_WIDTH + 170 + DEFAULT_COLUMN_WIDTH);
  });
});
