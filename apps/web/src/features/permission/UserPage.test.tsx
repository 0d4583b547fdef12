import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { ADMIN_CODE } from '@portal/contract/menus';
import type { UserView } from '@portal/contract/permission';

const fetchList = vi.hoisted(() => vi.fn());
const post = vi.hoisted(() => vi.fn());
vi.mock('../../shared/request/http', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../shared/request/http')>()),
  fetchList,
  post,
}));

import { renderScreen } from '../../test/render-screen';
import type { RouteMeta } from '../../shared/routing/route-table';
import { useSessionStore } from '../../shared/session/session-store';
import UserPage from './UserPage';

const meta = { path: '/permission/user', title: '用户管理' } as RouteMeta;
const user = (userCode: string, userName: string): UserView => ({
  userCode,
  userName,
  realName: userName,
  phone: null,
  email: null,
  deptCode: null,
  deptName: null,
  roles: [],
  state: 'enabled',
  mustChangePassword: false,
  version: 1,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
});

afterEach(() => {
  cleanup();
  fetchList.mockReset();
  post.mockReset();
});

describe('用户管理', () => {
  it('offers neither 删除 nor 停用 on one’s own row', async () => {
    useSessionStore.getState().setUser(
      {
        userCode: '000000000001',
        userName: 'admin',
        name: '管理员',
        avatar: '',
        introduction: '',
        mustChangePassword: false,
        deptCode: null,
        dataScope: 'all',
      },
      [ADMIN_CODE],
    );
    post.mockResolvedValue([]);
    fetchList.mockResolvedValue({
      ok: true,
      data: { list: [user('000000000001', 'admin'), user('000000000002', 'clerk')], total: 2 },
    });
    renderScreen(<UserPage meta={meta} />, '/permission/user');
    expect(await screen.findByRole('switch', { name: '启停用 clerk' }, { timeout: 30_000 })).toBeTruthy();
    expect(screen.queryByRole('switch', { name: '启停用 admin' })).toBeNull();
    expect(screen.getAllByRole('button', { name: '删除' })).toHaveLength(1);
    expect(screen.getAllByRole('button', { name: '修改' })).toHaveLength(2);
  }, 60_000);
});
