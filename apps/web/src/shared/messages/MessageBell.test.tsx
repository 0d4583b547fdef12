import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';

const getRevalidated = vi.hoisted(() => vi.fn());
const post = vi.hoisted(() => vi.fn());
vi.mock('../request/http', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../request/http')>()),
  getRevalidated,
  post,
}));

import { MESSAGE_PATHS, type MessageView } from '@portal/contract/messages';
import { NOTICE_PATHS } from '@portal/contract/notices';
import { renderScreen } from '../../test/render-screen';
import { MessageBell } from './MessageBell';

afterEach(() => {
  cleanup();
  getRevalidated.mockReset();
  post.mockReset();
});

const tooltips = () => screen.queryAllByRole('tooltip').filter((t) => t.textContent === '消息中心');

describe('消息中心', () => {
  it('names the bell on hover, but not over the open list (it would cover 全部已读)', async () => {
    getRevalidated.mockResolvedValue({ etag: null, data: { unread: 2, latestId: 5 } });
    post.mockResolvedValue({ list: [], total: 0 });
    renderScreen(<MessageBell />, '/dashboard');
    const bell = screen.getByTestId('message-bell');
    fireEvent.mouseEnter(bell);
    await waitFor(() => expect(tooltips()).toHaveLength(1), { timeout: 10_000 });
    fireEvent.click(bell);
    await screen.findByRole('button', { name: '全部已读' });
    await waitFor(() => expect(tooltips()).toHaveLength(0), { timeout: 10_000 });
  }, 60_000);

  it('opens an announcement’s message as the announcement itself, and marks it read', async () => {
    getRevalidated.mockResolvedValue({ etag: null, data: { unread: 1, latestId: 9, notices: 'c1' } });
    const message: MessageView = {
      id: 9,
      kind: 'notice',
      kindLabel: '通知公告',
      title: '管理员发布了通知公告「系统维护通知」',
      docType: 'notice',
      docTypeLabel: '通知公告',
      docCode: '4',
      subject: '系统维护通知',
      fromName: '管理员',
      detail: null,
      createdAt: '2026-11-29T00:00:00.000Z',
      read: false,
    };
    const answers: Record<string, unknown> = {
      [MESSAGE_PATHS.list]: { list: [message], total: 1 },
      [MESSAGE_PATHS.read]: { unread: 0, latestId: 9, notices: 'c1' },
      [NOTICE_PATHS.mine]: [
        {
          id: 4,
          title: '系统维护通知',
          content: '周六 22:00 起维护',
          publishFrom: '2026-11-29 08:00',
          publishTo: '2026-11-30 08:00',
        },
      ],
    };
    post.mockImplementation((path: string) => Promise.resolve(answers[path]));
    renderScreen(<MessageBell />, '/dashboard');
    fireEvent.click(screen.getByTestId('message-bell'));
    fireEvent.click(await screen.findByText('管理员发布了通知公告「系统维护通知」'));
    const shown = await screen.findByTestId('message-notice');
    expect(shown.textContent).toContain('周六 22:00 起维护');
    expect(post).toHaveBeenCalledWith(MESSAGE_PATHS.read, { ids: [9] });
  }, 60_000);
});
