import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { ACCOUNT_ROLES, VOUCHER_PATHS, type AccountRow } from '@portal/contract/voucher';
import type { ScreenProps } from '../../shared/ui/screen';

const post = vi.hoisted(() => vi.fn());
const update = vi.hoisted(() => vi.fn());
vi.mock('../../shared/request/http', () => ({ post, update }));

import { useSessionStore } from '../../shared/session/session-store';
import AccountPage from './AccountPage';

afterEach(() => {
  cleanup();
  post.mockReset();
  update.mockReset();
  useSessionStore.setState({ roles: null });
});

/** Reads of the 科目映射 list (the page also lists the 财务软件科目 below it). */
const listReads = () => post.mock.calls.filter(([path]) => path === VOUCHER_PATHS.accountList).length;

const ROW = { roleLabel: '银行存款', code: '1002', name: '银行存款', version: 3, updatedAt: null };

/** The page with one row, to a holder of every button; an edit typed into its 科目编码, then 保存. */
async function editAndSave(answer: unknown): Promise<AccountRow> {
  useSessionStore.setState({ roles: ['admin'] });
  const row: AccountRow = { ...ROW, role: ACCOUNT_ROLES[0] };
  post.mockImplementation((path: string) => Promise.resolve(path === VOUCHER_PATHS.accountList ? [row] : []));
  update.mockResolvedValue(answer);
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={qc}>
      <AccountPage {...({} as ScreenProps)} />
    </QueryClientProvider>,
  );
  const code = await screen.findByLabelText('银行存款科目编码', {}, { timeout: 10_000 });
  expect(listReads()).toBe(1);
  fireEvent.change(code, { target: { value: '100201' } });
  fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
  await waitFor(() => expect(update).toHaveBeenCalledTimes(1), { timeout: 10_000 });
  return row;
}

describe('科目映射', () => {
  it('saves through the update wrapper: 是否继续？ first, then the list is read again', async () => {
    const row = await editAndSave({ confirmed: true, ok: true, data: undefined, msg: '' });
    expect(update).toHaveBeenCalledWith(
      VOUCHER_PATHS.accountSave,
      { role: row.role, code: '100201', name: '银行存款', version: 3 },
      { confirm: '此操作将保存“银行存款”的科目映射！ 是否继续？' },
    );
    await waitFor(() => expect(listReads()).toBe(2), { timeout: 10_000 });
  }, 120_000);

  it('keeps the edit when the confirmation is cancelled', async () => {
    await editAndSave({ confirmed: false, ok: false, data: undefined });
    expect((screen.getByLabelText('银行存款科目编码') as HTMLInputElement).value).toBe('100201');
    expect(listReads()).toBe(1);
  }, 120_000);
});
