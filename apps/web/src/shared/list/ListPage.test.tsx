import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Form, Input } from 'antd';
import dayjs from 'dayjs';

const exportFile = vi.hoisted(() => vi.fn(async () => new Blob()));
vi.mock('../request/http', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../request/http')>()),
  exportFile,
}));

import { useSessionStore } from '../session/session-store';
import { codeColumn, dateColumn, moneyColumn } from './columns';
import { ListExportButton } from './ExportButton';
import { ListPage, type ListFetcher } from './ListPage';
import { clearListConditions, readListCondition } from './list-condition';
import { MoneyRangeField, rangeFilters } from './range-fields';
import { actionsColumn } from './RowActions';
import type { ListColumns } from './fit-columns';
import { buttonsQueryKey } from '../permission/use-buttons';

interface Row {
  bizCode: string;
  amount: string;
  signDate: string;
}

afterEach(() => {
  cleanup();
  clearListConditions();
  exportFile.mockClear();
  useSessionStore.setState({ roles: null });
});

describe('list columns use the shared formatters', () => {
  it('money right-aligned with separators and 2 decimals, codes padded, dates YYYY-MM-DD', () => {
    const row = { bizCode: '42', amount: '1234567.805', signDate: '2025-03-01T20:00:00Z' };
    const money = moneyColumn<typeof row>('金额', 'amount');
    expect(money.align).toBe('right');
    expect(money.render?.(undefined, row, 0)).toBe('1,234,567.81');
    expect(codeColumn<typeof row>('编号', 'bizCode').render?.(undefined, row, 0)).toBe('000000000042');
    expect(dateColumn<typeof row>('签约日期', 'signDate').render?.(undefined, row, 0)).toBe('2025-03-02');
    expect(dateColumn<typeof row>('时间', 'signDate', { withTime: true }).render?.(undefined, row, 0)).toBe(
      '2025-03-02 04:00:00',
    );
  });
});

describe('ListPage', () => {
  const renderPage = (fetcher: ListFetcher<Row>) =>
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter initialEntries={['/factoring/contract/info']}>
          <ListPage<Row>
            source={fetcher}
            rowKey="bizCode"
            columns={[codeColumn('编号', 'bizCode'), moneyColumn('金额', 'amount')]}
            filters={
              <Form.Item label="合同名称" name="contName">
                <Input aria-label="合同名称" />
              </Form.Item>
            }
          />
        </MemoryRouter>
      </QueryClientProvider>,
    );

  it('lists a page, searches with trimmed filters from page 1 and keeps the condition for the route', async () => {
    const fetcher = vi.fn<ListFetcher<Row>>(async () => ({
      list: [{ bizCode: '7', amount: '1000', signDate: '' }],
      total: 41,
    }));
    renderPage(fetcher);
    expect(await screen.findByText('000000000007')).toBeTruthy();
    expect(screen.getByText('1,000.00')).toBeTruthy();
    expect(screen.getByText('共 41 条')).toBeTruthy();
    expect(fetcher).toHaveBeenLastCalledWith({ pageNum: 1, pageSize: 20 });

    fireEvent.change(screen.getByLabelText('合同名称'), { target: { value: '  甲公司 ' } });
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() =>
      expect(fetcher).toHaveBeenLastCalledWith({ contName: '甲公司', pageNum: 1, pageSize: 20 }),
    );
    expect(readListCondition('/factoring/contract/info')).toMatchObject({
      filters: { contName: '甲公司' },
      pageNum: 1,
    });
  });

  it('asks the server again on 查询 with unchanged filters (a colleague may have added a record)', async () => {
    let rows = [{ bizCode: '7', amount: '1000', signDate: '' }];
    const fetcher = vi.fn<ListFetcher<Row>>(async () => ({ list: rows, total: rows.length }));
    renderPage(fetcher);
    expect(await screen.findByText('000000000007')).toBeTruthy();
    rows = [...rows, { bizCode: '8', amount: '2000', signDate: '' }];
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    expect(await screen.findByText('000000000008')).toBeTruthy();
    expect(fetcher).toHaveBeenCalledTimes(2);
  });
});

describe('ListPage search form ids', () => {
  const rows = async () => ({ list: [], total: 0 });
  const list = (path: string, conditionKey?: string) => (
    <MemoryRouter initialEntries={[path]}>
      <ListPage<Row>
        source={rows}
        rowKey="bizCode"
        columns={[codeColumn('编号', 'bizCode')]}
        {...(conditionKey ? { conditionKey } : {})}
        filters={
          <Form.Item label="合同号" name="contractNo">
            <Input />
          </Form.Item>
        }
      />
    </MemoryRouter>
  );

  it('differ between kept lists of two pages and two lists of one page, each label naming its input', () => {
    render(
      <QueryClientProvider client={new QueryClient()}>
        {list('/factoring/contract/info')}
        {list('/factoring/contract/change')}
        {list('/factoring/accounts/classification')}
        {list('/factoring/accounts/classification', '/factoring/accounts/classification#contracts')}
      </QueryClientProvider>,
    );
    const inputs = [...document.querySelectorAll('.list-page__search input')].map((e) => e.id);
    expect(inputs).toHaveLength(4);
    expect(new Set(inputs).size).toBe(4);
    expect(inputs).toContain('factoring-contract-change-search_contractNo');
    for (const label of document.querySelectorAll('.list-page__search label[for]')) {
      const target = document.getElementById(label.getAttribute('for')!);
      expect(label.closest('form')).toBe(target!.closest('form'));
    }
  });
});

describe('ListPage filters through the screen', () => {
  const rows = async () => ({ list: [{ bizCode: '7', amount: '1000', signDate: '' }], total: 1 });

  it('maps the first call through toFilters like every later one', async () => {
    const fetcher = vi.fn<ListFetcher<Row>>(rows);
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter initialEntries={['/factoring/permit/cust']}>
          <ListPage<Row>
            source={fetcher}
            rowKey="bizCode"
            columns={[codeColumn('编号', 'bizCode')]}
            initialFilters={{ custName: '甲' }}
            toFilters={(v) => ({ ...v, area: 'ft' })}
            filters={
              <Form.Item label="客户" name="custName">
                <Input aria-label="客户" />
              </Form.Item>
            }
          />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect(await screen.findByText('000000000007')).toBeTruthy();
    expect(fetcher).toHaveBeenCalledTimes(1);
    expect(fetcher).toHaveBeenCalledWith({ custName: '甲', area: 'ft', pageNum: 1, pageSize: 20 });
  });

  const renderIncome = (fetcher: ListFetcher<Row>, initialFilters?: Record<string, unknown>) =>
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter initialEntries={['/factoring/accounts/income']}>
          <ListPage<Row>
            source={fetcher}
            rowKey="bizCode"
            sortable={['amount']}
            columns={[codeColumn('编号', 'bizCode'), moneyColumn('来款金额', 'amount')]}
            initialFilters={initialFilters}
            toFilters={rangeFilters({ amount: ['amountStart', 'amountEnd'] })}
            filters={<MoneyRangeField name="amount" label="金额" />}
            toolbar={<ListExportButton menu="ft-income" path="/x/listExport" fileName="来款明细.xlsx" />}
          />
        </MemoryRouter>
      </QueryClientProvider>,
    );

  it('sends an amount range as its two bounds', { timeout: 120_000 }, async () => {
    const fetcher = vi.fn<ListFetcher<Row>>(rows);
    renderIncome(fetcher);
    expect(await screen.findByText('000000000007')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('金额起'), { target: { value: '100' } });
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    // 查询 validates first (asynchronously), so the call may take more than waitFor's default second.
    await waitFor(
      () => expect(fetcher).toHaveBeenLastCalledWith({ amountStart: '100', pageNum: 1, pageSize: 20 }),
      { timeout: 15_000 },
    );
  });

  // The machine is shared: antd's validation and help text may take more than the default second.
  const SLOW = { timeout: 15_000 };
  it('says in the field when a bound is text or 起 is above 止, and asks nothing', async () => {
    const fetcher = vi.fn<ListFetcher<Row>>(rows);
    renderIncome(fetcher);
    expect(await screen.findByText('000000000007')).toBeTruthy();
    expect(fetcher).toHaveBeenCalledTimes(1);
    const search = () => fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    fireEvent.change(screen.getByLabelText('金额起'), { target: { value: 'abc' } });
    search();
    expect(await screen.findByText('金额起必须是最多两位小数的金额', undefined, SLOW)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('金额起'), { target: { value: '2,000' } });
    fireEvent.change(screen.getByLabelText('金额止'), { target: { value: '1000.5' } });
    search();
    expect(await screen.findByText('金额起不能大于金额止', undefined, SLOW)).toBeTruthy();
    expect(fetcher).toHaveBeenCalledTimes(1);
    // Equal bounds are a range of one amount; separators are dropped from what is sent.
    fireEvent.change(screen.getByLabelText('金额止'), { target: { value: '2000.00' } });
    search();
    await waitFor(
      () =>
        expect(fetcher).toHaveBeenLastCalledWith({
          amountStart: '2000',
          amountEnd: '2000.00',
          pageNum: 1,
          pageSize: 20,
        }),
      SLOW,
    );
    // (antd's help text leaves with an animation jsdom never ends: the field's state is what counts.)
    expect(screen.getByLabelText('金额止').getAttribute('aria-invalid')).not.toBe('true');
  }, 120_000);

  it('导出 sends what the list shows: its mapped filters and its sort', async () => {
    useSessionStore.setState({ roles: ['admin'] });
    const fetcher = vi.fn<ListFetcher<Row>>(rows);
    renderIncome(fetcher, { amount: ['100', undefined] });
    expect(await screen.findByText('000000000007')).toBeTruthy();
    // The sortable header (its title shows twice: the cell and its sorter tooltip's anchor).
    fireEvent.click(document.querySelector('th.ant-table-column-has-sorters')!);
    const shown = { amountStart: '100', orderBy: 'amount', order: 'asc', pageNum: 1, pageSize: 20 };
    await waitFor(() => expect(fetcher).toHaveBeenLastCalledWith(shown));
    fireEvent.click(screen.getByRole('button', { name: /导\s*出/ }));
    await waitFor(() => expect(exportFile).toHaveBeenCalledTimes(1));
    expect(exportFile).toHaveBeenCalledWith('/x/listExport', shown, { fileName: '来款明细.xlsx' });
  });
});

describe('rangeFilters', () => {
  it('turns each pair into its two keys, dates as YYYY-MM-DD, an open bound left out', () => {
    const map = rangeFilters(
      { valueDate: ['valueDateFrom', 'valueDateTo'], amount: ['amountStart', 'amountEnd'] },
      (v) => ({ ...v, area: 'ft' }),
    );
    expect(
      map({ payerName: '甲', valueDate: [dayjs('2026-01-02'), null], amount: [undefined, '500.5'] }),
    ).toEqual({ payerName: '甲', valueDateFrom: '2026-01-02', amountEnd: '500.5', area: 'ft' });
    expect(map({ valueDate: null, amount: undefined })).toEqual({ area: 'ft' });
  });
});

describe('ListPage 操作', () => {
  const rows: Row[] = [{ bizCode: '7', amount: '1000', signDate: '' }];
  const actions = actionsColumn<Row>(() => [
    { label: '编辑', code: 'ft-contract-info:update', onClick: () => undefined },
    { label: '删除', code: 'ft-contract-info:delete', onClick: () => undefined },
    { label: '复制', code: 'ft-contract-info:add', onClick: () => undefined },
    { label: '导出', code: 'ft-contract-info:export', onClick: () => undefined },
  ]);
  const renderWith = (
    client: QueryClient,
    columns: ListColumns<Row> = [codeColumn('编号', 'bizCode'), actions],
  ) =>
    render(
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={['/factoring/contract/info']}>
          <ListPage<Row> source={async () => ({ list: rows, total: 1 })} rowKey="bizCode" columns={columns} />
        </MemoryRouter>
      </QueryClientProvider>,
    );

  it('shows the first permitted actions and the rest under 更多', async () => {
    useSessionStore.setState({ roles: ['admin'] });
    renderWith(new QueryClient());
    expect(await screen.findByRole('button', { name: '编辑' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '删除' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: '复制' })).toBeNull();
    expect(screen.getByRole('button', { name: /更多/ })).toBeTruthy();
  });

  it('has no 操作 column for a user who holds none of its actions', async () => {
    useSessionStore.setState({ roles: ['readonly'] });
    const client = new QueryClient();
    client.setQueryData(buttonsQueryKey('ft-contract-info'), []);
    renderWith(client);
    expect(await screen.findByText('000000000007')).toBeTruthy();
    expect(screen.queryByRole('columnheader', { name: '操作' })).toBeNull();
  });

  it('shows only the actions a user holds', async () => {
    useSessionStore.setState({ roles: ['clerk'] });
    const client = new QueryClient();
    client.setQueryData(buttonsQueryKey('ft-contract-info'), ['ft-contract-info:delete']);
    renderWith(client);
    expect(await screen.findByRole('button', { name: '删除' })).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: '操作' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: '编辑' })).toBeNull();
    expect(screen.queryByRole('button', { name: /更多/ })).toBeNull();
  });

  // antd's table renders every row again whenever it renders: the rows' button codes must not give
  // the page a render of its own after the rows' (docs/architecture.md "Lists fit their box").
  it.each([
    ['an administrator', ['admin'], undefined],
    ['a user whose button codes are in', ['clerk'], ['ft-contract-info:delete']],
  ])('renders the rows once when they arrive, for %s', async (_who, roles, codes) => {
    useSessionStore.setState({ roles });
    const client = new QueryClient();
    if (codes) client.setQueryData(buttonsQueryKey('ft-contract-info'), codes);
    const cells = vi.fn((code: string) => code);
    renderWith(client, [
      { title: '编号', dataIndex: 'bizCode', key: 'bizCode', render: cells },
      actionsColumn<Row>(() => [
        { label: '删除', code: 'ft-contract-info:delete', onClick: () => undefined },
      ]),
    ]);
    expect(await screen.findByRole('button', { name: '删除' })).toBeTruthy();
    await new Promise((r) => setTimeout(r, 100));
    expect(cells).toHaveBeenCalledTimes(1);
  });
});
