import { renderScreen } from '../../test/render-screen';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { PRINT_PATHS } from '@portal/contract/print';

const post = vi.hoisted(() => vi.fn());
const update = vi.hoisted(() => vi.fn());
vi.mock('../../shared/request/http', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../shared/request/http')>()),
  post,
  update,
}));

import { clearUnsaved, isDirty } from '../../shared/editor/unsaved';
import { useSessionStore } from '../../shared/session/session-store';
import { PRINT_EDITOR_PATH, PRINT_LIST_PATH } from './api';
import PrintEditorPage from './PrintEditorPage';
import type { RouteMeta } from '../../shared/routing/route-table';

// antd forms render slowly in jsdom, the more so on a busy machine.
const slow = { timeout: 30_000 };

const meta = { path: PRINT_EDITOR_PATH, title: '打印模板编辑' } as RouteMeta;

function renderEditor() {
  post.mockImplementation((path: string) => {
    if (path === PRINT_PATHS.info)
      return Promise.resolve({ bizType: 'contract', label: '合同', fields: [], lists: [] });
    if (path === PRINT_PATHS.getCoreComp) return Promise.resolve([]);
    return Promise.reject(new Error(`unexpected ${path}`));
  });
  renderScreen(<PrintEditorPage meta={meta} />, PRINT_EDITOR_PATH, {
    path: PRINT_LIST_PATH,
    testId: 'print-list',
  });
}

beforeEach(() => {
  // admin holds every button without asking for them
  useSessionStore.setState({ roles: ['admin'] });
});
afterEach(() => {
  cleanup();
  post.mockReset();
  update.mockReset();
  clearUnsaved();
  useSessionStore.setState({ roles: null });
});

describe('打印模板编辑 on the editor frame', { timeout: 90_000 }, () => {
  it('refuses an empty name and content with the schema’s messages before anything is sent', async () => {
    renderEditor();
    const content = (await screen.findByTestId('print-content', {}, slow)) as HTMLTextAreaElement;
    fireEvent.change(content, { target: { value: '   ' } });
    expect(isDirty(PRINT_EDITOR_PATH)).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    expect(await screen.findByText('模板名称不能为空', {}, slow)).toBeTruthy();
    expect(await screen.findByText('模板内容不能为空', {}, slow)).toBeTruthy();
    expect(update).not.toHaveBeenCalled();
    expect(screen.queryByTestId('print-list')).toBeNull();
  });

  it('awaits the save, then goes back to the list', async () => {
    let answer: (r: unknown) => void = () => undefined;
    update.mockReturnValue(new Promise((resolve) => (answer = resolve)));
    renderEditor();
    fireEvent.change(await screen.findByPlaceholderText('如：标准保理合同', {}, slow), {
      target: { value: '测试模板' },
    });
    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(update).toHaveBeenCalled(), slow);
    expect(update.mock.calls[0]![0]).toBe(PRINT_PATHS.save);
    expect(update.mock.calls[0]![1]).toMatchObject({ name: '测试模板', bizType: 'contract' });
    // Not before the server has answered.
    expect(screen.queryByTestId('print-list')).toBeNull();
    answer({ ok: true, confirmed: true, data: { bizCode: '000000000009' } });
    expect(await screen.findByTestId('print-list', {}, slow)).toBeTruthy();
  });
});
