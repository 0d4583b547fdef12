import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { CRM_PATHS, type BankUserList } from '@portal/contract/crm';

const post = vi.hoisted(() => vi.fn());
const update = vi.hoisted(() => vi.fn());
vi.mock('../../shared/request/http', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../shared/request/http')>()),
  post,
  update,
}));

import type { RouteMeta } from '../../shared/routing/route-table';
import { useSessionStore } from '../../shared/session/session-store';
import { renderScreen } from '../../test/render-screen';
import { BANK_EDIT_PATH } from './api';
import { BankEmployeeTab } from './BankPages';

const BIZ = '000000000071';
const meta = { path: `${BANK_EDIT_PATH}/employee`, tabOf: BANK_EDIT_PATH } as unknown as RouteMeta;

afterEach(() => {
  cleanup();
  post.mockReset();
  update.mockReset();
  useSessionStore.setState({ roles: null });
});

describe('银行账户 → 授权企业用户', () => {
  it('offers no 保存 until the authorised users have arrived: a save before them would save none', async () => {
    useSessionStore.setState({ roles: ['admin'] });
    let answer: (list: BankUserList) => void = () => undefined;
    post.mockImplementation((path: string) => {
      if (path === CRM_PATHS.bankUserList) return new Promise<BankUserList>((r) => (answer = r));
      if (path === CRM_PATHS.employeeList)
        return Promise.resolve({ list: [], total: 0, pageNum: 1, pageSize: 20 });
      return Promise.reject(new Error(`not needed here: ${path}`));
    });
    renderScreen(<BankEmployeeTab meta={meta} />, `${BANK_EDIT_PATH}/employee?bizCode=${BIZ}`);
    const save = (await screen.findByRole(
      'button',
      { name: /保\s*存/ },
      { timeout: 30_000 },
    )) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    answer({ bizCode: BIZ, ownerCode: '000000000001', users: [] });
    await waitFor(() => expect(save.disabled).toBe(false), { timeout: 30_000 });
    expect(update).not.toHaveBeenCalled();
  }, 60_000);
});
