import { useImperativeHandle, useMemo, useState, type ReactNode, type Ref } from 'react';
import { useLocation } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Form, Space, Table, type TableColumnsType, type TableProps } from 'antd';
import { usePageFormName } from '../form/form-name';
import type { ListParams } from '../request/http';
import { fitColumns } from './fit-columns';
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
  columns: TableColumnsType<T>;
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

  const order = params.order === 'asc' || params.order === 'desc' ? params.order : undefined;
  const orderBy = typeof params.orderBy === 'string' ? params.orderBy : undefined;
  const fitted = useMemo(
    () => fitColumns(columns, sortable, { orderBy, order }),
    // The allow-list is a constant of the list's schema.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [columns, orderBy, order],
  );

  return (
    <div className="list-page" data-sorted={orderBy ? `${orderBy}:${order ?? 'asc'}` : undefined}>
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
      <Table<T>
        {...tableProps}
        rowKey={rowKey}
        columns={fitted.columns}
        // Wider than the page: the table scrolls in its own box, never the page.
        scroll={{ x: fitted.width, ...tableProps?.scroll }}
        onChange={(_pagination, _filters, sorter, extra) => {
          if (extra.action !== 'sort' || Array.isArray(sorter)) return;
          const key = typeof sorter.field === 'string' ? sorter.field : String(sorter.columnKey ?? '');
          const { orderBy: _by, order: _dir, ...rest } = params;
          const next: ListParams = sorter.order
            ? { ...rest, orderBy: key, order: sorter.order === 'ascend' ? 'asc' : 'desc', pageNum: 1 }
            : { ...rest, pageNum: 1 };
          apply(next, form.getFieldsValue());
        }}
        dataSource={query.data?.list ?? []}
        loading={query.isFetching}
        pagination={{
          current: params.pageNum,
          pageSize: params.pageSize,
          total: query.data?.total ?? 0,
          showSizeChanger: true,
          showQuickJumper: true,
          pageSizeOptions: [10, 20, 50, 100],
          showTotal: (total) => `共 ${total} 条`,
          onChange: (pageNum, pageSize) => {
            const next = { ...params, pageNum: pageSize !== params.pageSize ? 1 : pageNum, pageSize };
            apply(next, form.getFieldsValue());
          },
        }}
      />
    </div>
  );
}
