import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { SERVER_MONITOR_PATHS, type ServerStatus } from '@portal/contract/server-monitor';
import type { ScreenProps } from '../../shared/ui/screen';
import { renderScreen } from '../../test/render-screen';

const post = vi.hoisted(() => vi.fn());
vi.mock('../../shared/request/http', () => ({ post }));

import ServerPage, { formatMb, formatUptime } from './ServerPage';

afterEach(() => {
  cleanup();
  post.mockReset();
});

const STATUS: ServerStatus = {
  uptimeSeconds: 93_784,
  memory: {
    rssBytes: 512 * 1024 * 1024,
    heapUsedBytes: 96.5 * 1024 * 1024,
    heapTotalBytes: 128 * 1024 * 1024,
    externalBytes: 3 * 1024 * 1024,
  },
  eventLoopDelayMs: { p50: 10.2, p99: 25.75, max: 131 },
  dbPool: { max: 20, inUse: 3, idle: 5, waiting: 2 },
  sessions: { active: 17, cached: 4 },
  nodeVersion: 'v20.19.0',
  pid: 4321,
};

describe('服务监控', () => {
  it('shows uptime, memory, event-loop delay, the pool and sessions from the server’s status', async () => {
    post.mockResolvedValue(STATUS);
    renderScreen(<ServerPage {...({} as ScreenProps)} />, '/system/server');
    expect(await screen.findByText('1天2小时3分')).toBeTruthy();
    expect(post).toHaveBeenCalledWith(SERVER_MONITOR_PATHS.status);
    expect(screen.getByText('4321')).toBeTruthy();
    expect(screen.getByText('512.0 MB')).toBeTruthy();
    expect(screen.getByText('96.5 MB / 128.0 MB')).toBeTruthy();
    expect(screen.getByText('10.2 ms')).toBeTruthy();
    expect(screen.getByText('25.8 ms')).toBeTruthy();
    expect(screen.getByText('131.0 ms')).toBeTruthy();
    expect(screen.getByText('3 / 5 / 20')).toBeTruthy();
    expect(screen.getByText('17')).toBeTruthy();
  });

  it('reads again on 刷新', async () => {
    post.mockResolvedValue(STATUS);
    renderScreen(<ServerPage {...({} as ScreenProps)} />, '/system/server');
    await screen.findByText('17');
    post.mockResolvedValue({ ...STATUS, sessions: { active: 18, cached: 4 } });
    fireEvent.click(screen.getByRole('button', { name: /刷\s*新/ }));
    await waitFor(() => expect(screen.getByText('18')).toBeTruthy());
    expect(post).toHaveBeenCalledTimes(2);
  });

  it('formats bytes and durations', () => {
    expect(formatMb(1024 * 1024 * 1.25)).toBe('1.3 MB');
    expect(formatUptime(42)).toBe('42秒');
    expect(formatUptime(3_660)).toBe('1小时1分');
    expect(formatUptime(86_400)).toBe('1天0小时0分');
  });
});
