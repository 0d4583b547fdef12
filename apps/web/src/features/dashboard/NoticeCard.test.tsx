import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import type { MessageCount } from '@portal/contract/messages';
import { NOTICE_PATHS, type NoticeShown } from '@portal/contract/notices';

const getRevalidated = vi.hoisted(() => vi.fn());
const post = vi.hoisted(() => vi.fn());
vi.mock('../../shared/request/http', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../shared/request/http')>()),
  getRevalidated,
  post,
}));

import { renderScreen } from '../../test/render-screen';
import { MESSAGE_COUNT_KEY } from '../../shared/messages/use-message-count';
import { NoticeCard } from './NoticeCard';

afterEach(() => {
  cleanup();
  getRevalidated.mockReset();
  post.mockReset();
});

const count = (notices: string): { etag: null; data: MessageCount } => ({
  etag: null,
  data: { unread: notices ? 1 : 0, latestId: notices ? 7 : 0, notices },
});
const maintenance: NoticeShown = {
  id: 3,
  title: '系统维护通知',
  content: '周六 22:00 起维护',
  publishFrom: '2026-11-29 08:00',
  publishTo: '2026-11-30 08:00',
};

describe('工作 dashboard: 通知公告', () => {
  it('shows an announcement published while it is open, on the message count’s next poll', async () => {
    getRevalidated.mockResolvedValue(count(''));
    post.mockResolvedValue([]);
    const { client } = renderScreen(<NoticeCard />, '/dashboard');
    await waitFor(() => expect(post).toHaveBeenCalledWith(NOTICE_PATHS.mine, undefined, { loading: false }));
    expect(screen.queryByTestId('widget-notices')).toBeNull();

    // Published meanwhile: the server now counts its message, and lists it as mine.
    getRevalidated.mockResolvedValue(count('9f1c'));
    post.mockResolvedValue([maintenance]);
    // What the bell's poll (MESSAGE_POLL_MS, or the window's focus) does.
    await client.refetchQueries({ queryKey: MESSAGE_COUNT_KEY });
    expect(await screen.findByText('系统维护通知')).toBeTruthy();
    expect(screen.getByText('周六 22:00 起维护')).toBeTruthy();

    // Withdrawn: gone on the next poll too.
    getRevalidated.mockResolvedValue(count(''));
    post.mockResolvedValue([]);
    await client.refetchQueries({ queryKey: MESSAGE_COUNT_KEY });
    await waitFor(() => expect(screen.queryByTestId('widget-notices')).toBeNull());
  }, 60_000);
});
