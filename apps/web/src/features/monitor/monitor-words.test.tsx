import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import {
  MONITOR_PATHS,
  type LoginLogView,
  type OnlineSessionView,
  type OperLogView,
} from '@portal/contract/monitor';

const fetchList = vi.hoisted(() => vi.fn());
vi.mock('../../shared/request/http', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../shared/request/http')>()),
  fetchList,
}));

import { renderScreen } from '../../test/render-screen';
import LoginLogPage from './LoginLogPage';
import OnlinePage from './OnlinePage';
import OperLogPage from './OperLogPage';
import type { RouteMeta } from '../../shared/routing/route-table';

const meta = { path: '/monitor', title: '系统监控' } as RouteMeta;

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.71 Safari/537.36';
const page = (list: unknown[]) => ({ ok: true, data: { list, total: list.length } });
const slow = { timeout: 30_000 };

afterEach(() => {
  cleanup();
  fetchList.mockReset();
});

describe('系统监控 in words', () => {
  it('登录日志 shows the browser and system, and 详情 the raw user agent', async () => {
    const row: LoginLogView = {
      id: 1,
      at: '2026-11-28T02:00:00.000Z',
      userName: 'admin',
      outcome: 'success',
      ip: '10.0.0.1',
      userAgent: CHROME,
      lockedUntil: null,
    };
    fetchList.mockImplementation((path: string) =>
      Promise.resolve(page(path === MONITOR_PATHS.loginLogList ? [row] : [])),
    );
    renderScreen(<LoginLogPage meta={meta} />, '/monitor/logininfor');
    expect(await screen.findByText('Chrome 120', {}, slow)).toBeTruthy();
    expect(screen.getByText('Windows 10')).toBeTruthy();
    expect(screen.queryByText(CHROME)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: '详情' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(CHROME)).toBeTruthy();
    expect(within(dialog).getByText('电脑')).toBeTruthy();
  }, 60_000);

  it('在线用户 shows the browser and system, and has 详情', async () => {
    const row: OnlineSessionView = {
      sessionId: 7,
      userName: 'admin',
      realName: '管理员',
      orgName: '总部',
      ip: '10.0.0.1',
      userAgent: CHROME,
      createdAt: '2026-11-28T02:00:00.000Z',
      lastSeenAt: '2026-11-28T02:05:00.000Z',
      current: true,
    };
    fetchList.mockResolvedValue(page([row]));
    renderScreen(<OnlinePage meta={meta} />, '/monitor/online');
    expect(await screen.findByText('Chrome 120', {}, slow)).toBeTruthy();
    expect(screen.getByText('Windows 10')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '详情' }));
    expect(within(await screen.findByRole('dialog')).getByText(CHROME)).toBeTruthy();
  }, 60_000);

  it('操作日志 heads no two columns alike', async () => {
    // A row, so that the actions column (详情) is there: a list without rows has none.
    const row: OperLogView = {
      id: 1,
      at: '2026-11-28T02:00:00.000Z',
      userName: 'admin',
      realName: '管理员',
      orgName: '总部',
      entity: 'user',
      entityLabel: '用户',
      entityCode: 'U0001',
      action: 'update',
      actionLabel: '修改',
      ip: '10.0.0.1',
      requestId: null,
      result: 'success',
      resultLabel: '成功',
    };
    fetchList.mockResolvedValue(page([row]));
    renderScreen(<OperLogPage meta={meta} />, '/monitor/operlog');
    await screen.findByText('U0001', {}, slow);
    const heads = screen.getAllByRole('columnheader').map((h) => h.textContent?.trim() ?? '');
    expect(heads.filter((h) => h === '操作')).toHaveLength(1);
    expect(heads).toContain('操作类型');
  }, 60_000);
});
