import { renderScreen } from '../../test/render-screen';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { JOB_PATHS, type JobRunView, type JobView } from '@portal/contract/jobs';
import { AUTH_PATHS } from '@portal/contract/session';

const post = vi.hoisted(() => vi.fn());
const update = vi.hoisted(() => vi.fn());
vi.mock('../../shared/request/http', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../shared/request/http')>()),
  post,
  update,
}));

import { useSessionStore } from '../../shared/session/session-store';
import JobsPage, { formatDuration, runDetail } from './JobsPage';

const slow = { timeout: 30_000 };

const failedRun: JobRunView = {
  id: 7,
  job: 'backup',
  jobLabel: '数据备份',
  trigger: 'schedule',
  triggerLabel: '定时',
  scheduledFor: '2026-11-28T18:00:00.000Z',
  startedAt: '2026-11-28T18:00:00.100Z',
  endedAt: '2026-11-28T18:00:02.600Z',
  durationMs: 2500,
  result: 'failed',
  resultLabel: '失败',
  detail: null,
  error: '备份目录不可写',
  server: 'web-1:4242',
  startedByName: null,
  progress: null,
};
const jobs: JobView[] = [
  {
    code: 'backup',
    label: '数据备份',
    description: '备份',
    cron: '0 2 * * *',
    defaultCron: '0 2 * * *',
    paused: false,
    nextAt: '2026-11-29T18:00:00.000Z',
    lastRun: failedRun,
  },
  {
    code: 'logPurge',
    label: '日志清理',
    description: '清理',
    cron: '0 3 * * *',
    defaultCron: '0 3 * * *',
    paused: true,
    nextAt: null,
    lastRun: null,
  },
];

function serve(codes: string[]) {
  post.mockImplementation((path: string) => {
    if (path === JOB_PATHS.list) return Promise.resolve(jobs);
    if (path === JOB_PATHS.runs)
      return Promise.resolve({ list: [failedRun], total: 1, pageNum: 1, pageSize: 10 });
    if (path === AUTH_PATHS.buttons) return Promise.resolve(codes);
    return Promise.reject(new Error(`unexpected ${path}`));
  });
}

beforeEach(() => {
  useSessionStore.setState({ roles: ['ops'] });
  update.mockResolvedValue({ confirmed: true, ok: true, data: null, msg: '' });
});
afterEach(() => {
  cleanup();
  post.mockReset();
  update.mockReset();
  useSessionStore.setState({ roles: null });
});

describe('定时任务', { timeout: 90_000 }, () => {
  it('lists each job with its schedule, last run, duration, result and next run', async () => {
    serve([]);
    renderScreen(<JobsPage />, '/system/job');
    const row = (await screen.findByText('数据备份', {}, slow)).closest('tr')!;
    const cells = within(row);
    expect(cells.getByText('0 2 * * *')).toBeTruthy();
    expect(cells.getByText('2026-11-29 02:00:00')).toBeTruthy();
    expect(cells.getByText('2.5 秒')).toBeTruthy();
    expect(cells.getByText('失败')).toBeTruthy();
    expect(cells.getByText('2026-11-30 02:00:00')).toBeTruthy();
    const paused = within(screen.getByText('日志清理').closest('tr')!);
    expect(paused.getByText('已暂停')).toBeTruthy();
    // Without the buttons' codes: no 立即执行, 修改 or 暂停; the history is still there.
    expect(screen.queryByRole('button', { name: '立即执行' })).toBeNull();
    expect(screen.queryByRole('button', { name: '修改' })).toBeNull();
    fireEvent.click(cells.getByRole('button', { name: '运行记录' }));
    const history = await screen.findByTestId('job-runs', {}, slow);
    expect(await within(history).findByText('备份目录不可写', {}, slow)).toBeTruthy();
    expect(within(history).getByText('系统')).toBeTruthy();
  });

  it('立即执行 and 恢复 call their routes for a holder of the codes', async () => {
    serve(['system-job:run', 'system-job:status']);
    renderScreen(<JobsPage />, '/system/job');
    const row = within((await screen.findByText('数据备份', {}, slow)).closest('tr')!);
    fireEvent.click(await row.findByRole('button', { name: '立即执行' }, slow));
    await waitFor(() => expect(update).toHaveBeenCalledTimes(1));
    expect(update.mock.calls[0]!.slice(0, 2)).toEqual([JOB_PATHS.run, { code: 'backup' }]);
    expect(row.queryByRole('button', { name: '修改' })).toBeNull();
    const paused = within(screen.getByText('日志清理').closest('tr')!);
    fireEvent.click(paused.getByRole('button', { name: '恢复' }));
    await waitFor(() => expect(update).toHaveBeenCalledTimes(2));
    expect(update.mock.calls[1]!.slice(0, 2)).toEqual([
      JOB_PATHS.setPaused,
      { code: 'logPurge', paused: false },
    ]);
  });

  it('shows a running job’s progress as its server last wrote it, read again while it runs', async () => {
    const running: JobRunView = {
      ...failedRun,
      id: 8,
      job: 'monthEndAccrual',
      jobLabel: '月末计提',
      endedAt: null,
      durationMs: null,
      result: 'running',
      resultLabel: '运行中',
      error: null,
      progress: { phase: 'accrual', done: 12_000, total: 100_000, rows: 24_000, date: '2026-10-31' },
    };
    let done = 12_000;
    post.mockImplementation((path: string) => {
      if (path === JOB_PATHS.list) {
        const now = { ...running, progress: { ...running.progress!, done } };
        done += 1000;
        return Promise.resolve([{ ...jobs[0]!, code: 'monthEndAccrual', label: '月末计提', lastRun: now }]);
      }
      if (path === AUTH_PATHS.buttons) return Promise.resolve([]);
      return Promise.reject(new Error(`unexpected ${path}`));
    });
    renderScreen(<JobsPage />, '/system/job');
    const shown = await screen.findByTestId('job-progress-monthEndAccrual', {}, slow);
    expect(within(shown).getByText('运行中')).toBeTruthy();
    expect(
      within(shown).getByText('2026-10-31 正在计提 12,000 / 100,000 份合同（已写入 24,000 行）'),
    ).toBeTruthy();
    // Read again while 运行中: the next answer's count reaches the screen.
    expect(
      await within(shown).findByText(
        '2026-10-31 正在计提 13,000 / 100,000 份合同（已写入 24,000 行）',
        {},
        { timeout: 10_000 },
      ),
    ).toBeTruthy();
    // A run that has ended says what it did, not its last progress.
    expect(runDetail({ ...running, result: 'ok', resultLabel: '成功', detail: '计提1个月' })).toBe(
      '计提1个月',
    );
  });

  it('says how long a run took', () => {
    expect(formatDuration(null)).toBe('—');
    expect(formatDuration(1234)).toBe('1.2 秒');
    expect(formatDuration(185_000)).toBe('3 分 5 秒');
  });
});
