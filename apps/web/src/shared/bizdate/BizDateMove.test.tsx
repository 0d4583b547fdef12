import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { BIZDATE_PATHS, tooFarForwardMessage } from '@portal/contract/bizdate';

const post = vi.hoisted(() => vi.fn());
const update = vi.hoisted(() => vi.fn());
vi.mock('../request/http', () => ({ post, update }));

import { BizDateMove } from './BizDateMove';

afterEach(() => {
  cleanup();
  post.mockReset();
  update.mockReset();
});

describe('moving the business date forward', () => {
  it('shows which day’s day-end runs while the move catches up, and asks about every day', async () => {
    post.mockImplementation((path: string) =>
      Promise.resolve(
        path === BIZDATE_PATHS.view
          ? { businessDate: '2026-01-15', source: 'stored', lastPostingDate: null, lastDayEnd: null }
          : { running: { businessDate: '2026-01-18', state: 'running' } },
      ),
    );
    let finish: (v: unknown) => void = () => undefined;
    update.mockReturnValue(new Promise((resolve) => (finish = resolve)));
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <BizDateMove />
      </QueryClientProvider>,
    );
    await screen.findByRole('button', { name: '设置营业日' });
    await vi.waitFor(() => expect(post).toHaveBeenCalledWith(BIZDATE_PATHS.view));
    fireEvent.change(screen.getByLabelText('新营业日'), { target: { value: '2026-01-25' } });
    fireEvent.click(screen.getByRole('button', { name: '设置营业日' }));
    expect(await screen.findByText('正在运行 2026-01-18 的日终（3 / 10）')).toBeTruthy();
    expect(update.mock.calls[0]![2]).toMatchObject({
      confirm: '此操作将把营业日由 2026-01-15 改为 2026-01-25，并依次运行其间 10 天的日终！ 是否继续？',
    });
    finish({ ok: true, confirmed: true });
    await vi.waitFor(() => expect(screen.queryByTestId('day-end-progress')).toBeNull());
  });

  it('refuses a move of more than a year in the form, before any confirmation', async () => {
    post.mockResolvedValue({
      businessDate: '2026-01-15',
      source: 'stored',
      lastPostingDate: null,
      lastDayEnd: null,
    });
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <BizDateMove />
      </QueryClientProvider>,
    );
    await vi.waitFor(() => expect(post).toHaveBeenCalledWith(BIZDATE_PATHS.view));
    // The current date has reached the control before the move is asked for.
    await act(async () => {
      await post.mock.results[0]!.value;
    });
    fireEvent.change(screen.getByLabelText('新营业日'), { target: { value: '2062-01-15' } });
    fireEvent.click(screen.getByRole('button', { name: '设置营业日' }));
    expect(await screen.findByText(tooFarForwardMessage('2026-01-15'))).toBeTruthy();
    expect(update).not.toHaveBeenCalled();
  });
});
