import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { AUTH_PATHS } from '@portal/contract/auth';
import { COMPANY_EXPORT_FILE_NAME, COMPANY_PATHS } from '@portal/contract/company';

import type { RouteMeta } from '../../shared/routing/route-table';

const post = vi.hoisted(() => vi.fn());
const fetchList = vi.hoisted(() => vi.fn());
const exportFile = vi.hoisted(() => vi.fn());
vi.mock('../../shared/request/http', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../shared/request/http')>()),
  post,
  fetchList,
  exportFile,
}));

import { useSessionStore } from '../../shared/session/session-store';
import CorporationListPage from './CorporationListPage';

const slow = { timeout: 30_000 };

function renderList(buttons: string[]) {
  post.mockImplementation((path: string) => {
    if (path === AUTH_PATHS.buttons) return Promise.resolve(buttons);
    return Promise.resolve({ roles: [], states: [], types: [], industries: [] });
  });
  fetchList.mockResolvedValue({ ok: true, data: { list: [], total: 0 } });
  exportFile.mockResolvedValue(new Blob());
  useSessionStore.setState({ roles: ['crm-user'] });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/crm/corporation/list']}>
        <CorporationListPage meta={{ path: '/crm/corporation/list', title: '企业列表' } as RouteMeta} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  post.mockReset();
  fetchList.mockReset();
  exportFile.mockReset();
  useSessionStore.setState({ roles: null });
});

describe('企业列表 导出', () => {
  it('exports the filtered list as xlsx for a holder of the export button', async () => {
    renderList(['crm-cor-cor:export']);
    const button = await screen.findByRole('button', { name: /导\s*出/ }, slow);
    fireEvent.change(screen.getByPlaceholderText('企业名称'), { target: { value: '担保' } });
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() =>
      expect(fetchList).toHaveBeenLastCalledWith(
        COMPANY_PATHS.list,
        expect.objectContaining({ compName: '担保' }),
      ),
    );
    fireEvent.click(button);
    await waitFor(() => expect(exportFile).toHaveBeenCalled());
    expect(exportFile.mock.calls[0]![0]).toBe(COMPANY_PATHS.listExport);
    expect(exportFile.mock.calls[0]![1]).toMatchObject({ compName: '担保' });
    expect(exportFile.mock.calls[0]![2]).toMatchObject({ fileName: COMPANY_EXPORT_FILE_NAME });
  }, 60_000);

  it('shows no 导出 without the export button', async () => {
    renderList([]);
    await waitFor(() => expect(fetchList).toHaveBeenCalled());
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith(AUTH_PATHS.buttons, expect.anything(), expect.anything()),
    );
    expect(screen.queryByRole('button', { name: /导\s*出/ })).toBeNull();
  }, 60_000);
});
