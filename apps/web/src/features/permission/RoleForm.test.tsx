import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { PERMISSION_MESSAGES, type OrgNode, type RoleView } from '@portal/contract/permission';
import { updateRole } from './api';
import { RoleForm } from './RolePage';

const org = (deptBizCode: string, name: string, children: OrgNode[] = []): OrgNode => ({
  deptBizCode,
  name,
  parentCode: null,
  parentName: null,
  sort: 0,
  leader: null,
  phone: null,
  state: 'enabled',
  userCount: 0,
  version: 0,
  children,
});
const ORGS = [org('000000000001', '总部', [org('000000000002', '华东'), org('000000000003', '华北')])];

vi.mock('./api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./api')>()),
  updateRole: vi.fn(async () => ({ ok: true, confirmed: true, data: null, msg: '' })),
  useOrgTree: () => ({ data: ORGS }),
}));

const ROLE: RoleView = {
  bizCode: '000000000009',
  name: '华东数据',
  code: 'east-data',
  description: null,
  state: 'enabled',
  dataScope: 'custom',
  deptCodes: ['000000000002'],
  builtIn: false,
  userCount: 0,
  version: 1,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

function open(role: RoleView) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <RoleForm editing={role} onClose={vi.fn()} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}
const save = () => fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

describe('角色 form: 自定义 data scope', () => {
  it('shows the chosen organisations and saves them as they were', async () => {
    open(ROLE);
    expect(await screen.findByText('华东')).toBeTruthy();
    save();
    await waitFor(() => expect(updateRole).toHaveBeenCalled());
    expect(vi.mocked(updateRole).mock.calls[0]![0]).toMatchObject({
      bizCode: ROLE.bizCode,
      dataScope: 'custom',
      deptCodes: ['000000000002'],
    });
  }, 30_000);

  it('asks for an organisation before saving 自定义 without one', async () => {
    open({ ...ROLE, deptCodes: [] });
    save();
    expect(await screen.findByText(PERMISSION_MESSAGES.customDeptsMissing)).toBeTruthy();
    expect(updateRole).not.toHaveBeenCalled();
  }, 30_000);
});
