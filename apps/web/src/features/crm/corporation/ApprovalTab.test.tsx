import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { CRM_PATHS, type ApprovalRow } from '@portal/contract/crm';
import type { RouteMeta } from '../../../shared/routing/route-table';

const post = vi.hoisted(() => vi.fn());
const fetchList = vi.hoisted(() => vi.fn());
vi.mock('../../../shared/request/http', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../shared/request/http')>()),
  post,
  fetchList,
}));

import { ApprovalTab } from './ApprovalTab';

const slow = { timeout: 30_000 };
const rows: ApprovalRow[] = [
  {
    id: 2,
    at: '2026-11-02T02:00:00Z',
    actorName: '张经办',
    entity: 'company',
    entityLabel: '企业基本信息',
    action: 'update',
    actionLabel: '修改',
    comment: null,
    hasBefore: true,
    changes: [{ field: 'legalPerson', label: '法定代表人', before: '王五', after: '赵七' }],
  },
  {
    id: 1,
    at: '2026-11-01T02:00:00Z',
    actorName: '张经办',
    entity: 'company',
    entityLabel: '企业基本信息',
    action: 'attachFiles',
    actionLabel: '上传资料',
    comment: null,
    hasBefore: false,
    changes: [{ field: 'files', label: '资料文件', before: null, after: '营业执照.pdf' }],
  },
];

afterEach(() => {
  cleanup();
  post.mockReset();
  fetchList.mockReset();
});

describe('企业查看 审核信息', () => {
  it('names the changed fields and opens them before and after in words, files by name', async () => {
    post.mockResolvedValue({ compCode: '000000000001', compName: '审核信息测试有限公司' });
    fetchList.mockResolvedValue({ ok: true, data: { list: rows, total: rows.length } });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={['/crm/corporation/view/approval?compCode=000000000001']}>
          <ApprovalTab meta={{ path: '/crm/corporation/view/approval', title: '审核信息' } as RouteMeta} />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect(fetchList).toHaveBeenCalledWith(CRM_PATHS.approvalList, expect.anything());
    const tab = await screen.findByTestId('crm-tab-approval', {}, slow);
    const summary = await within(tab).findByText('法定代表人', {}, slow);
    expect(within(tab).getByText('资料文件')).toBeTruthy();
    expect(tab.textContent).not.toContain('{');
    // Open both rows.
    for (const b of within(tab).getAllByRole('button', { name: /展开行|Expand row/i })) fireEvent.click(b);
    expect(await within(tab).findByText('赵七')).toBeTruthy();
    expect(within(tab).getByText('王五')).toBeTruthy();
    expect(within(tab).getByText('修改前')).toBeTruthy();
    expect(within(tab).getByText('营业执照.pdf')).toBeTruthy();
    expect(summary).toBeTruthy();
  }, 60_000);
});
