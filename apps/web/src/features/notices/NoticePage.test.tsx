import { renderScreen } from '../../test/render-screen';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { NOTICE_PATHS } from '@portal/contract/notices';

const post = vi.hoisted(() => vi.fn());
const update = vi.hoisted(() => vi.fn());
const fetchList = vi.hoisted(() => vi.fn());
vi.mock('../../shared/request/http', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../shared/request/http')>()),
  post,
  update,
  fetchList,
}));

import { clearUnsaved, isDirty } from '../../shared/editor/unsaved';
import { useSessionStore } from '../../shared/session/session-store';
import NoticePage from './NoticePage';
import type { RouteMeta } from '../../shared/routing/route-table';

const PATH = '/system/notice';
// antd forms render slowly in jsdom, the more so on a busy machine.
const slow = { timeout: 30_000 };

const meta = { path: PATH, title: '通知公告' } as RouteMeta;

beforeEach(() => {
  // admin holds every button without asking for them
  useSessionStore.setState({ roles: ['admin'] });
  fetchList.mockResolvedValue({ data: { list: [], total: 0 } });
  post.mockImplementation((path: string) =>
    path === NOTICE_PATHS.orgTree ? Promise.resolve([]) : Promise.reject(new Error(`unexpected ${path}`)),
  );
});
afterEach(() => {
  cleanup();
  post.mockReset();
  update.mockReset();
  fetchList.mockReset();
  clearUnsaved();
  useSessionStore.setState({ roles: null });
});

describe('通知公告: the edit dialog keeps the unsaved-input guard', { timeout: 90_000 }, () => {
  it('typed input marks the page unsaved; 取消 gives it up; an empty title is refused unsent', async () => {
    renderScreen(<NoticePage meta={meta} />, PATH);
    fireEvent.click(await screen.findByRole('button', { name: /新\s*增/ }, slow));
    // The dialog's field, not the search form's of the same name.
    const dialog = within(await screen.findByRole('dialog', {}, slow));
    const title = dialog.getByLabelText('公告标题');
    expect(isDirty(PATH)).toBe(false);
    fireEvent.change(title, { target: { value: '年终结账安排' } });
    expect(isDirty(PATH)).toBe(true);
    // The dialog's footer (the list has no 取消 or 保存); without the app's locale antd says Cancel.
    fireEvent.click(screen.getByRole('button', { name: /^(取\s*消|Cancel)$/ }));
    await waitFor(() => expect(isDirty(PATH)).toBe(false), slow);

    fireEvent.click(screen.getByRole('button', { name: /新\s*增/ }));
    fireEvent.click(await screen.findByRole('button', { name: /保\s*存/ }, slow));
    expect(await screen.findByText('公告标题不能为空', {}, slow)).toBeTruthy();
    expect(update).not.toHaveBeenCalled();
  });
});
