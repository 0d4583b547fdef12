import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { BIZDATE_PATHS, type DayEndProgress as Answer } from '@portal/contract/bizdate';
import { progressPercent, progressText, type RunProgress } from '@portal/contract/jobs';

const post = vi.hoisted(() => vi.fn());
vi.mock('../request/http', () => ({ post, update: vi.fn() }));

import { DayEndProgress } from './DayEndProgress';

afterEach(() => {
  cleanup();
  post.mockReset();
});

const running = (businessDate: string, progress: RunProgress | null): Answer => ({
  running: {
    id: 1,
    businessDate,
    trigger: 'manual',
    state: 'running',
    startedAt: '2026-11-20T01:00:00.000Z',
    endedAt: null,
    startedByName: null,
    contracts: 0,
    overdueItems: 0,
    penaltyOfDay: '0.00',
    remindersAdded: 0,
    error: null,
    progress,
  },
});

function show(from: string, to: string, answers: Answer[]) {
  let i = 0;
  post.mockImplementation((path: string) => {
    if (path !== BIZDATE_PATHS.progress) return Promise.reject(new Error(`unexpected ${path}`));
    return Promise.resolve(answers[Math.min(i++, answers.length - 1)]);
  });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <DayEndProgress from={from} to={to} />
    </QueryClientProvider>,
  );
}

describe('the day-end’s progress on 营业日管理', () => {
  it('shows the phase and the contracts done of all, polled while it runs', async () => {
    const p = (done: number): RunProgress => ({
      phase: 'overdue',
      done,
      total: 100_000,
      rows: 61_126,
      date: '2026-11-20',
    });
    show('2026-11-20', '2026-11-20', [running('2026-11-20', p(12_000)), running('2026-11-20', p(40_000))]);
    expect(
      await screen.findByText('2026-11-20 正在计算逾期 12,000 / 100,000 份合同（已写入 61,126 行）'),
    ).toBeTruthy();
    // The next poll (every second) moves it on; the bar follows the count.
    expect(
      await screen.findByText(
        '2026-11-20 正在计算逾期 40,000 / 100,000 份合同（已写入 61,126 行）',
        {},
        { timeout: 5000 },
      ),
    ).toBeTruthy();
    expect(screen.getByText('40%')).toBeTruthy();
  });

  it('says which day of a catch-up runs, and a phase of one statement without counts', async () => {
    show('2026-01-15', '2026-01-25', [
      running('2026-01-18', { phase: 'classify', done: 0, total: 0, rows: 0, date: '2026-01-18' }),
    ]);
    expect(await screen.findByText('正在运行 2026-01-18 的日终（3 / 10）')).toBeTruthy();
    expect(screen.getByText('2026-01-18 正在五级分类')).toBeTruthy();
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('shows nothing when no day-end runs (or another date’s)', async () => {
    show('2026-11-20', '2026-11-20', [{ running: null }]);
    await vi.waitFor(() => expect(post).toHaveBeenCalled());
    expect(screen.queryByTestId('day-end-progress')).toBeNull();
  });

  it('words a progress in Chinese with thousands separators', () => {
    const p: RunProgress = { phase: 'accrual', done: 12_000, total: 100_000, rows: 0, date: null };
    expect(progressText(p)).toBe('正在计提 12,000 / 100,000 份合同');
    expect(progressPercent(p)).toBe(12);
    expect(progressPercent({ ...p, total: 0 })).toBeNull();
  });
});
