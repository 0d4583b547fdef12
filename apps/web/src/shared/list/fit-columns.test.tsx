import { describe, expect, it } from 'vitest';
import type { TableColumnType } from 'antd';
import {
  DEFAULT_COLUMN_WIDTH,
  EXPAND_COLUMN_WIDTH,
  fitColumns,
  KEY,
  KEY_COLUMN_CLASS,
  type ListColumns,
} from './fit-columns';
import { actionsWidth, splitActions, type RowAction } from './RowActions';

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

describe('columns of a narrow list', () => {
  const columns: ListColumns<Row> = [
    { title: '编号', key: 'code', width: 120 },
    { title: '名称', key: 'name', width: 200, priority: KEY },
    { title: '备注', key: 'note', width: 200, priority: 3 },
    { title: '日期', key: 'date', width: 110 },
    { title: '金额', key: 'amount', width: 130, priority: KEY },
    { title: '状态', key: 'state', width: 90, fixed: 'right' },
    { title: '操作', key: 'actions', width: 120 },
  ];

  it('leaves out the columns of least priority, the rightmost first, until the rest fit; key columns stay', () => {
    const all = 120 + 200 + 200 + 110 + 130 + 90 + 120;
    expect(fitColumns(columns, [], {}, all).leftOut).toEqual([]);
    const one = fitColumns(columns, [], {}, all - 1);
    expect(one.leftOut.map((c) => c.key)).toEqual(['note']);
    expect(one.width).toBe(all - 200 + EXPAND_COLUMN_WIDTH);
    const two = fitColumns(columns, [], {}, all - 200);
    expect(two.leftOut.map((c) => c.key)).toEqual(['note', 'date']);
    // Narrower than the key columns: those stay, and the table scrolls in its box.
    const narrow = fitColumns(columns, [], {}, 300);
    expect(narrow.columns.map((c) => c.key)).toEqual(['code', 'name', 'amount', 'state', 'actions']);
  });

  it('marks the key columns (declared, the first and the pinned) for their header and cells', () => {
    const { columns: fitted } = fitColumns(columns, [], {});
    expect(fitted.filter((c) => c.className === KEY_COLUMN_CLASS).map((c) => c.key)).toEqual([
      'code',
      'name',
      'amount',
      'state',
    ]);
  });
});

describe('row actions', () => {
  const act = (label: string): RowAction => ({ label, onClick: () => undefined });

  it('shows up to three as links, of more the first two and 更多', () => {
    expect(splitActions([act('查看'), act('编辑'), act('删除')]).more).toEqual([]);
    const four = splitActions([act('查看'), act('编辑'), act('删除'), act('冲红')]);
    expect(four.inline.map((a) => a.label)).toEqual(['查看', '编辑']);
    expect(four.more.map((a) => a.label)).toEqual(['删除', '冲红']);
  });

  it('sizes 操作 to the widest row', () => {
    expect(actionsWidth([[act('查看')], [act('查看'), act('重置密码')]])).toBeGreaterThan(
      actionsWidth([[act('查看')]]),
    );
  });
});
