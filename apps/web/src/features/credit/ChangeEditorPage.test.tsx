import { renderScreen } from '../../test/render-screen';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { CREDIT_PATHS, type ChangeView } from '@portal/contract/credit';

const post = vi.hoisted(() => vi.fn());
const update = vi.hoisted(() => vi.fn());
vi.mock('../../shared/request/http', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../shared/request/http')>()),
  post,
  update,
}));

import { CREDIT_ROUTES } from './api';
import ChangeEditorPage from './ChangeEditorPage';

const change: ChangeView = {
  bizCode: '000000000041',
  version: 4,
  state: 'rejected',
  credBizCode: '000000000031',
  custCode: '000000000003',
  custName: '变更测试供应商有限公司',
  lineCode: '000000000051',
  changeType: 'extend',
  oldLimit: '1000000.00',
  newLimit: null,
  oldEndDate: '2027-06-30',
  newEndDate: '2027-12-31',
  reason: '展期半年',
  line: null,
  updatedAt: '2027-01-01 00:00:00',
};

// antd forms render slowly in jsdom, the more so on a busy machine.
const slow = { timeout: 30_000 };

function renderEditor(url: string) {
  post.mockImplementation((path: string) => {
    if (path === CREDIT_PATHS.creditList)
      return Promise.resolve({
        list: [{ bizCode: change.credBizCode, custCode: change.custCode, custName: change.custName }],
        total: 1,
      });
    if (path === CREDIT_PATHS.credChange) return Promise.resolve(change);
    if (path === CREDIT_PATHS.creditPlatform) return Promise.resolve({ line: null });
    if (path === CREDIT_PATHS.creditFt || path === CREDIT_PATHS.lines) return Promise.resolve([]);
    // The rejection notice of the editor frame asks the workflow; nothing to show here.
    return Promise.reject(new Error(`unexpected ${path}`));
  });
  update.mockResolvedValue({ ok: true, confirmed: true, data: { bizCode: change.bizCode, version: 5 } });
  renderScreen(<ChangeEditorPage />, url, { path: CREDIT_ROUTES.chgView, testId: 'chg-view' });
}

afterEach(() => {
  cleanup();
  post.mockReset();
  update.mockReset();
});

describe('额度变更编辑 (the credit documents’ editor)', { timeout: 90_000 }, () => {
  it('refuses a new change without 授信 and 变更原因 before the confirmation', async () => {
    renderEditor(CREDIT_ROUTES.chgEditor);
    expect(await screen.findByText('新增额度变更', {}, slow)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    expect(await screen.findByText('授信编号不能为空', {}, slow)).toBeTruthy();
    expect(await screen.findByText('变更原因不能为空', {}, slow)).toBeTruthy();
    expect(update).not.toHaveBeenCalled();
  });

  it('submits a rejected change with its code and version, then shows its view', async () => {
    renderEditor(`${CREDIT_ROUTES.chgEditor}?bizCode=${change.bizCode}`);
    const reason = (await screen.findByLabelText('变更原因', {}, slow)) as HTMLTextAreaElement;
    await waitFor(() => expect(reason.value).toBe('展期半年'), slow);
    // Rejected: editable again.
    expect(reason.disabled).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: '提交审批' }));
    await waitFor(() => expect(update).toHaveBeenCalled(), slow);
    const [path, body, opts] = update.mock.calls[0]! as [
      string,
      Record<string, unknown>,
      { confirm: string },
    ];
    expect(path).toBe(CREDIT_PATHS.saveCredChange);
    expect(body).toMatchObject({
      bizCode: change.bizCode,
      version: 4,
      credBizCode: change.credBizCode,
      changeType: 'extend',
      newEndDate: '2027-12-31',
      submit: true,
    });
    expect(opts.confirm).toBe('此操作将保存额度变更并提交审批！ 是否继续？');
    expect(await screen.findByTestId('chg-view', {}, slow)).toBeTruthy();
  });
});
