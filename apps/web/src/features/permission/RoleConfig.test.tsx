import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { MenuTreeNode, RoleDetail, RoleView } from '@portal/contract/permission';
import { useSessionStore } from '../../shared/session/session-store';
import { confirmAction } from '../../shared/ui/feedback-lazy';
import { getRole, saveRoleConfig } from './api';
import { RoleConfig } from './RoleConfig';

const TREE: MenuTreeNode[] = [
  {
    code: 'ft-accounts',
    title: '账务管理',
    kind: 'menu',
    children: [
      {
        code: 'ft-loan',
        title: '放款单',
        kind: 'menu',
        children: [{ code: 'ft-loan:add', title: '新增放款', kind: 'button' }],
      },
      {
        code: 'ft-income',
        title: '来款',
        kind: 'menu',
        children: [{ code: 'ft-income:add', title: '新增来款', kind: 'button' }],
      },
    ],
  },
  {
    code: 'system',
    title: '系统管理',
    kind: 'menu',
    children: [{ code: 'system-param', title: '参数设置', kind: 'menu' }],
  },
];

vi.mock('./api', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./api')>();
  const getRole = vi.fn();
  return {
    getRole,
    saveRoleConfig: vi.fn(async () => ({ ok: true, confirmed: true, data: null, msg: '' })),
    useMenuTree: () => ({ data: TREE, isLoading: false }),
    // The role read as the screen declares it, fetched by the mocked getRole.
    permissionQueries: {
      role: (r: RoleView) => ({ ...actual.permissionQueries.role(r), queryFn: () => getRole(r.bizCode) }),
    },
  };
});
vi.mock('../../shared/ui/feedback-lazy', () => ({ confirmAction: vi.fn() }));

const ROLE: RoleDetail = {
  bizCode: '000000000009',
  name: '来款录入',
  code: 'income-only',
  description: null,
  state: 'enabled',
  dataScope: 'self',
  deptCodes: [],
  builtIn: false,
  userCount: 0,
  version: 3,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  // A role granted only 来款 (the screen, without its buttons); the server adds the directory.
  menuCodes: ['ft-accounts', 'ft-income'],
};

function open(onClose = vi.fn()) {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={['/permission/role']}>
        <RoleConfig role={ROLE} onClose={onClose} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return onClose;
}

/** The tick of a node: 'checked', 'half' or 'none'. */
function tick(title: string): 'checked' | 'half' | 'none' {
  const box = screen.getByText(title).closest('.ant-tree-treenode')!.querySelector('.ant-tree-checkbox')!;
  if (box.classList.contains('ant-tree-checkbox-checked')) return 'checked';
  return box.classList.contains('ant-tree-checkbox-indeterminate') ? 'half' : 'none';
}
const click = (title: string) =>
  fireEvent.click(
    screen.getByText(title).closest('.ant-tree-treenode')!.querySelector('.ant-tree-checkbox')!,
  );
const saved = () => [...vi.mocked(saveRoleConfig).mock.calls.at(-1)![0].menuCodes].sort();

beforeEach(() => {
  useSessionStore.setState({ roles: ['admin'] });
  vi.mocked(getRole).mockResolvedValue(ROLE);
});
afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

const SLOW = 30_000;

describe('权限配置', () => {
  it(
    'reopens a role granted only 来款 with its parent half-ticked, and saves it unchanged as it was',
    async () => {
      open();
      await screen.findByText('账务管理');
      expect([tick('账务管理'), tick('来款'), tick('放款单'), tick('系统管理'), tick('参数设置')]).toEqual([
        'half',
        'half',
        'none',
        'none',
        'none',
      ]);
      fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
      await waitFor(() => expect(saveRoleConfig).toHaveBeenCalled());
      expect(saved()).toEqual(['ft-accounts', 'ft-income']);
    },
    SLOW,
  );

  it(
    'a click on a half-ticked node grants what is below it; taking the last child away takes the directory',
    async () => {
      open();
      await screen.findByText('账务管理');
      click('来款');
      expect([tick('来款'), tick('账务管理')]).toEqual(['checked', 'half']);
      click('来款');
      expect([tick('来款'), tick('账务管理')]).toEqual(['none', 'none']);
      fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
      await waitFor(() => expect(saveRoleConfig).toHaveBeenCalled());
      expect(saved()).toEqual([]);
    },
    SLOW,
  );

  it(
    'closing with changes asks first; without changes it closes at once',
    async () => {
      const onClose = open();
      await screen.findByText('账务管理');
      const closeButton = () => document.querySelector<HTMLElement>('.ant-drawer-close')!;
      fireEvent.click(closeButton());
      await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
      expect(confirmAction).not.toHaveBeenCalled();
      click('参数设置');
      vi.mocked(confirmAction).mockResolvedValueOnce(false);
      fireEvent.click(closeButton());
      await waitFor(() => expect(confirmAction).toHaveBeenCalledTimes(1));
      expect(onClose).toHaveBeenCalledTimes(1);
      vi.mocked(confirmAction).mockResolvedValueOnce(true);
      fireEvent.click(closeButton());
      await waitFor(() => expect(onClose).toHaveBeenCalledTimes(2));
    },
    SLOW,
  );
});
