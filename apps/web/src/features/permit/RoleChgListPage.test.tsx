import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { AUTH_PATHS } from '@portal/contract/auth';
import { PERMIT_PATHS, type RoleChangeRow } from '@portal/contract/permit';

import type { RouteMeta } from '../../shared/routing/route-table';

const post = vi.hoisted(() => vi.fn());
const fetchList = vi.hoisted(() => vi.fn());
vi.mock('../../shared/request/http', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../shared/request/http')>()),
  post,
  fetchList,
}));

import { RoleChgListPage } from './RoleChgListPage';

const row = (over: Partial<RoleChangeRow>): RoleChangeRow => ({
  bizCode: '000000000101',
  permitCode: '000000000201',
  subject: 'cust',
  area: 'ec',
  compCode: '000000000301',
  compName: '角色变更测试有限公司',
  userCode: null,
  userName: null,
  kind: 'change',
  rolesBefore: ['issuer'],
  rolesAfter: ['issuer', 'holder'],
  reason: null,
  createdAt: '2026-11-01T02:00:00Z',
  createdByName: '张经办',
  ...over,
});

const slow = { timeout: 30_000 };

afterEach(() => {
  cleanup();
  post.mockReset();
  fetchList.mockReset();
});

describe('企业角色变更 list', () => {
  it('asks for ec customer admissions from the first load and names every role in Chinese', async () => {
    post.mockImplementation((path: string) =>
      path === AUTH_PATHS.buttons ? Promise.resolve([]) : Promise.reject(new Error(`unexpected ${path}`)),
    );
    // Rows of other areas and subjects, as an unfiltered answer would hold, still read in Chinese.
    const list = [
      row({}),
      row({ bizCode: '000000000102', area: 'dw', rolesBefore: [], rolesAfter: ['core'] }),
      row({
        bizCode: '000000000103',
        subject: 'user',
        area: 'dw',
        userName: '李四',
        rolesAfter: ['operator'],
      }),
    ];
    fetchList.mockResolvedValue({ ok: true, data: { list, total: list.length } });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={['/ec/permit/comp-role-chg']}>
          <RoleChgListPage meta={{ path: '/ec/permit/comp-role-chg', title: '企业角色变更' } as RouteMeta} />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect(await screen.findByText('开立方、持有方', {}, slow)).toBeTruthy();
    expect(screen.getByText('核心企业')).toBeTruthy();
    expect(screen.getByText('经办人')).toBeTruthy();
    expect(screen.queryByText('core')).toBeNull();
    expect(screen.queryByText('operator')).toBeNull();
    // Area and subject have their own columns.
    expect(screen.getByRole('columnheader', { name: '准入区域' })).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: '准入对象' })).toBeTruthy();
    expect(screen.getAllByText('山高E融').length).toBe(2);
    expect(screen.getByText('企业用户')).toBeTruthy();
    await waitFor(() => expect(fetchList).toHaveBeenCalled());
    expect(fetchList.mock.calls[0]![0]).toBe(PERMIT_PATHS.roleChgList);
    expect(fetchList.mock.calls[0]![1]).toMatchObject({ area: 'ec', subject: 'cust' });
  }, 60_000);
});
