import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { CRM_PATHS } from '@portal/contract/crm';

const post = vi.hoisted(() => vi.fn());
vi.mock('../../shared/request/http', () => ({ post, update: vi.fn() }));

import { CompUserSelect } from './CompUserSelect';

afterEach(() => {
  cleanup();
  post.mockReset();
});

function renderSelect(state?: 'enabled') {
  post.mockResolvedValue({ list: [], total: 0, pageNum: 1, pageSize: 20 });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <CompUserSelect compCode="000000000001" {...(state ? { state } : {})} />
    </QueryClientProvider>,
  );
}

describe('CompUserSelect', () => {
  it('asks the server for enabled users only when the picker is limited to them (企业角色)', async () => {
    renderSelect('enabled');
    await waitFor(() => expect(post).toHaveBeenCalled());
    expect(post.mock.calls[0]![0]).toBe(CRM_PATHS.employeeList);
    expect(post.mock.calls[0]![1]).toMatchObject({ compCode: '000000000001', state: 'enabled' });
  });

  it('offers users of every state when not limited (银行账户 operators mark them instead)', async () => {
    renderSelect();
    await waitFor(() => expect(post).toHaveBeenCalled());
    expect(post.mock.calls[0]![1]).not.toHaveProperty('state');
  });
});
