import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';

const post = vi.hoisted(() => vi.fn());
vi.mock('../request/http', () => ({ post }));

import { useSessionStore } from '../session/session-store';
import { Auth } from './Auth';

const wrap = (ui: ReactNode) =>
  render(<QueryClientProvider client={new QueryClient()}>{ui}</QueryClientProvider>);

afterEach(() => {
  cleanup();
  post.mockReset();
  useSessionStore.setState({ roles: null });
});

describe('<Auth> and useButtons', () => {
  it('renders children only for the button codes of the menu, fetched once per menu', async () => {
    useSessionStore.setState({ roles: ['ft-pa-mgr'] });
    post.mockResolvedValue(['ft-pa-mgr:add', 'ft-pa-mgr:save']);
    wrap(
      <>
        <Auth code="ft-pa-mgr:add">新增</Auth>
        <Auth code="ft-pa-mgr:delete" fallback={<span>无删除权限</span>}>
          删除
        </Auth>
      </>,
    );
    expect(await screen.findByText('新增')).toBeTruthy();
    expect(screen.queryByText('删除')).toBeNull();
    expect(screen.getByText('无删除权限')).toBeTruthy();
    expect(post).toHaveBeenCalledTimes(1);
    expect(post).toHaveBeenCalledWith(
      '/admin/portal/user/res/menu/btns',
      { menuCode: 'ft-pa-mgr' },
      { loading: false },
    );
  });

  it("lets 'admin' see everything without asking", () => {
    useSessionStore.setState({ roles: ['admin'] });
    wrap(<Auth code="permission-user:resetPassword">重置密码</Auth>);
    expect(screen.getByText('重置密码')).toBeTruthy();
    expect(post).not.toHaveBeenCalled();
  });
});
