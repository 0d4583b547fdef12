import {
  useImperativeHandle,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
  type Ref,
  type RefObject,
} from 'react';
import { useLocation } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Form, Space, Table, type TableColumnType, type TableProps } from 'antd';
import { usePageFormName } from '../form/form-name';
import type { ListParams } from '../request/http';
import { useHeldCodes } from '../permission/use-buttons';
import { FieldLines, ListCards, PHONE_LIST_WIDTH } from './ListCards';
import { EXPAND_COLUMN_WIDTH, fitColumns, isActions, type ListColumn, type ListColumns } from './fit-columns';
import { actionsWidth, RowActions, type RowAction } from './RowActions';
import { ListParamsContext } from './list-params-context';
import { listConditionKey, readListCondition, saveListCondition } from './list-condition';
import {
  initialListParams,
  LIST_QUERY_META,
  listPathFetcher,
  listQueryKey,
  type ListFetcher,
} from './list-query';

export type { ListFetcher };

/**
 * The table's box is the list's less the wrapper's padding (styles.css `.list-page
 * .ant-table-wrapper`) and a margin for borders and the fixed columns' rounding.
 */
const TABLE_PADDING = 16 + 24;

/** The rows before the first answer: the same array each render, so the columns' memo holds. */
const NO_ROWS: readonly never[] = [];

/**
 * A list is never reloaded by hand: every successful change through the request layer's `update()`
 * refreshes all lists (`refreshListsOnUpdate`, list-query.ts).
 */
export interface ListPageHandle {
  /** Back to page 1 with the current filters. */
  search(): void;
}

export interface ListPageProps<T extends object> {
  /** A list path (`/ft/api/contract/list`) posted through the request layer, or a fetcher. */
  source: string | ListFetcher<T>;
  /** Each with its width and priority (0 = key column), docs/architecture.md "Lists fit their box". */
  columns: ListColumns<T>;
  rowKey: TableProps<T>['rowKey'];
  /**
   * The list call's orderBy allow-list (its schema's `.sortable`, docs/protocol.md "Lists"): the columns
   * of those keys sort on the server, by a click on their header.
   */
  sortable?: readonly string[];
  /** `Form.Item`s of the search form; their `name`s are the filter keys sent with the list call. */
  filters?: ReactNode;
  initialFilters?: Record<string, unknown>;
  /** Turns form values into the filters sent (date ranges to xxxStart/xxxEnd, …). */
  toFilters?: (values: Record<string, unknown>) => Record<string, unknown>;
  /** Buttons above the table (新增, 导出, …). */
  toolbar?: ReactNode;
  pageSize?: number;
  /** Where the search condition is kept; default the current route's list-condition key. */
  conditionKey?: string;
  /** react-query key of this list (default: the source path or the condition key). */
  queryKey?: readonly unknown[];
  tableProps?: Omit<TableProps<T>, 'columns' | 'dataSource' | 'pagination' | 'rowKey' | 'loading'>;
  ref?: Ref<ListPageHandle>;
}

function compact(values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values)) {
    if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) continue;
    out[k] = typeof v === 'string' ? v.trim() : v;
  }
  return out;
}

/**
 * The list page of the business screens: a search form, an antd Table and pagination, driven by a
 * list call (`{pageNum, pageSize, ...filters}` -> `{list, total}`). The search condition is kept
 * per route through the list-condition rule, so returning from an editor restores it.
 */
export function ListPage<T extends object>(props: ListPageProps<T>) {
  const { source, columns, rowKey, filters, initialFilters, toFilters, toolbar, tableProps, ref } = props;
  const sortable = props.sortable ?? [];
  const location = useLocation();
  const [conditionKey] = useState(() => props.conditionKey ?? listConditionKey(location.pathname));
  const [form] = Form.useForm<Record<string, unknown>>();
  // Named per page (and per list, where a screen has two): every open tab stays in the document,
  // and two lists with a 合同号 filter would otherwise give two inputs the id `contractNo`.
  const formName = usePageFormName(props.conditionKey ? `search-${props.conditionKey}` : 'search');
  // The first call maps the initial form values like every later one (a screen's fixed filters,
  // ranges), so the first page is the one the form shows.
  const [params, setParams] = useState<ListParams>(() =>
    initialListParams(
      conditionKey,
      compact(toFilters ? toFilters(initialFilters ?? {}) : (initialFilters ?? {})),
      props.pageSize,
    ),
  );
  const [initialValues] = useState(() => readListCondition(conditionKey)?.formValues ?? initialFilters ?? {});
  const queryClient = useQueryClient();

  const fetcher: ListFetcher<T> = useMemo(
    () => (typeof source === 'string' ? listPathFetcher<T>(source) : source),
    [source],
  );
  const baseKey = props.queryKey ?? ['list', typeof source === 'string' ? source : conditionKey];
  const query = useQuery({
    queryKey: listQueryKey(baseKey, params),
    queryFn: () => fetcher(params),
    meta: LIST_QUERY_META,
    placeholderData: (prev) => prev,
    retry: false,
  });

  /** Fetches `params`' page again: the page shown now, or (stale) the cached one shown next. */
  const refetch = (of: ListParams) =>
    void queryClient.invalidateQueries(
      { queryKey: listQueryKey(baseKey, of), exact: true },
      { cancelRefetch: false },
    );

  const apply = (next: ListParams, formValues: Record<string, unknown>) => {
    // 查询 (and a page turn) always asks the server: unchanged filters give the same key, which
    // alone would show the cached page and miss a colleague's new record.
    refetch(next);
    setParams(next);
    const { pageNum, pageSize, ...rest } = next;
    saveListCondition(conditionKey, { filters: rest, pageNum, pageSize, formValues });
  };

  const search = () => {
    const values = form.getFieldsValue();
    const f = compact(toFilters ? toFilters(values) : values);
    // The chosen sort stays with new filters (重置 drops it).
    const sort = params.orderBy ? { orderBy: params.orderBy, order: params.order } : {};
    apply({ ...f, ...sort, pageNum: 1, pageSize: params.pageSize }, values);
  };

  const reset = () => {
    form.resetFields();
    const values = initialFilters ?? {};
    form.setFieldsValue(values);
    apply(
      { ...compact(toFilters ? toFilters(values) : values), pageNum: 1, pageSize: params.pageSize },
      values,
    );
  };

  useImperativeHandle(ref, () => ({ search }));

  const box = useBoxWidth();
  const boxWidth = box.width ?? 0;
  const rows = query.data?.list ?? NO_ROWS;
  const shown = useActionsColumn(columns, rows);
  const order = params.order === 'asc' || params.order === 'desc' ? params.order : undefined;
  const orderBy = typeof params.orderBy === 'string' ? params.orderBy : undefined;
  // A list with its own row expansion keeps every column (and scrolls when narrow).
  const available = tableProps?.expandable || boxWidth === 0 ? 0 : boxWidth - TABLE_PADDING;
  const fitted = useMemo(
    () => fitColumns(shown, sortable, { orderBy, order }, available),
    // The allow-list is a constant of the list's schema.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [shown, orderBy, order, available],
  );
  const pagination = {
    current: params.pageNum,
    pageSize: params.pageSize,
    total: query.data?.total ?? 0,
    showTotal: (total: number) => `共 ${total} 条`,
    onChange: (pageNum: number, pageSize: number) => {
      const next = { ...params, pageNum: pageSize !== params.pageSize ? 1 : pageNum, pageSize };
      apply(next, form.getFieldsValue());
    },
  };
  const leftOut = fitted.leftOut;

  // Until measured (a layout effect away, before the first paint) the box alone, so that nothing
  // in it is rendered twice.
  if (box.width === undefined) return <div ref={box.ref} className="list-page" />;

  return (
    <div
      ref={box.ref}
      className="list-page"
      data-sorted={orderBy ? `${orderBy}:${order ?? 'asc'}` : undefined}
    >
      {filters ? (
        <Card className="list-page__search" size="small">
          <Form form={form} name={formName} layout="inline" initialValues={initialValues} onFinish={search}>
            {filters}
            <Form.Item>
              <Space>
                <Button type="primary" htmlType="submit">
                  查询
                </Button>
                <Button onClick={reset}>重置</Button>
              </Space>
            </Form.Item>
          </Form>
        </Card>
      ) : null}
      {toolbar ? (
        <ListParamsContext value={params}>
          <div className="list-page__toolbar">{toolbar}</div>
        </ListParamsContext>
      ) : null}
      {boxWidth > 0 && boxWidth < PHONE_LIST_WIDTH ? (
        <ListCards<T>
          columns={shown}
          rows={rows}
          rowKey={rowKey}
          loading={query.isFetching}
          pagination={pagination}
        />
      ) : (
        <Table<T>
          {...tableProps}
          rowKey={rowKey}
          columns={fitted.columns}
          // Wider than the box only when its key columns are: then it scrolls in its own box, never the page.
          scroll={{ ...tableProps?.scroll, x: fitted.width }}
          {...(leftOut.length
            ? {
                expandable: {
                  columnWidth: EXPAND_COLUMN_WIDTH,
                  // The toggle sits before 操作 (or last): the row's first cell stays its first column.
                  expandIconColumnIndex: expandIconIndex(fitted.columns),
                  expandedRowRender: (row: T, index: number) => (
                    <FieldLines columns={leftOut} row={row} index={index} />
                  ),
                },
              }
            : {})}
          onChange={(_pagination, _filters, sorter, extra) => {
            if (extra.action !== 'sort' || Array.isArray(sorter)) return;
            const key = typeof sorter.field === 'string' ? sorter.field : String(sorter.columnKey ?? '');
            const { orderBy: _by, order: _dir, ...rest } = params;
            const next: ListParams = sorter.order
              ? { ...rest, orderBy: key, order: sorter.order === 'ascend' ? 'asc' : 'desc', pageNum: 1 }
              : { ...rest, pageNum: 1 };
            apply(next, form.getFieldsValue());
          }}
          dataSource={rows}
          loading={query.isFetching}
          pagination={{
            ...pagination,
            showSizeChanger: true,
            showQuickJumper: true,
            pageSizeOptions: [10, 20, 50, 100],
          }}
        />
      )}
    </div>
  );
}

/**
 * The list's own width, followed as the window (or the side menu) changes; undefined until
 * measured, which its first layout effect does before the browser paints. The list renders its
 * table only then, so the table is rendered once with the columns that fit rather than with all
 * of them and again (docs/architecture.md "Lists fit their box"; bench/README.md "Thirteenth pass").
 */
function useBoxWidth(): { ref: RefObject<HTMLDivElement | null>; width: number | undefined } {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState<number>();
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.clientWidth);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}

/**
 * The declared 操作 column (`rowActions`) made real: each row's actions the user holds, the
 * first ones as links and the rest under 更多, the column as wide as the widest row needs; no
 * column at all when no row offers an action (a read-only user's list).
 */
function useActionsColumn<T extends object>(columns: ListColumns<T>, rows: readonly T[]): ListColumns<T> {
  const declared = columns.find((c) => c.rowActions);
  const perRow = new Map<T, readonly RowAction[]>();
  if (declared?.rowActions) for (const row of rows) perRow.set(row, declared.rowActions(row));
  const codes = [...perRow.values()].flatMap((actions) => actions.flatMap((a) => (a.code ? [a.code] : [])));
  const held = useHeldCodes(codes);
  const permitted = new Map<T, readonly RowAction[]>();
  for (const [row, actions] of perRow)
    permitted.set(
      row,
      actions.filter((a) => !a.hidden && (!a.code || held(a.code))),
    );
  // The same columns while the same rows offer the same actions: a new array would make the table
  // render every cell again.
  const offered = [...permitted.values()].map((actions) => actions.map((a) => a.label).join(',')).join('|');
  return useMemo(() => {
    if (!declared) return columns;
    if (![...permitted.values()].some((a) => a.length)) return columns.filter((c) => c !== declared);
    const real: ListColumn<T> = {
      ...declared,
      width: actionsWidth([...permitted.values()]),
      render: (_: unknown, row: T) => <RowActions actions={permitted.get(row) ?? []} />,
    };
    return columns.map((c) => (c === declared ? real : c));
    // `permitted` is what `offered` spells for these rows.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [columns, rows, offered]);
}

/** Where the expansion toggle goes: just before the actions column, or after the last column. */
function expandIconIndex<T>(columns: readonly TableColumnType<T>[]): number {
  const actions = columns.findIndex((c) => isActions(c));
  return actions === -1 ? columns.length : actions;
}
