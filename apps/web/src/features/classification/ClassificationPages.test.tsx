import { renderScreen } from '../../test/render-screen';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { AUTH_PATHS } from '@portal/contract/auth';
import { BIZDATE_PATHS } from '@portal/contract/bizdate';
import {
  CLASS_MENU,
  CLASS_PATHS,
  type ClassAdjInit,
  type ClassAdjView,
  type ClassRow,
} from '@portal/contract/classification';

const post = vi.hoisted(() => vi.fn());
const update = vi.hoisted(() => vi.fn());
const fetchList = vi.hoisted(() => vi.fn());
vi.mock('../../shared/request/http', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../shared/request/http')>()),
  post,
  update,
  fetchList,
}));

import { useSessionStore } from '../../shared/session/session-store';
import { ClassAdjEditorPage, ClassificationListPage } from './ClassificationPages';

const init: ClassAdjInit = {
  contBizCode: '000000000011',
  contractNo: 'BL-2027-0001',
  custName: '分类测试供应商有限公司',
  overdueDays: 361,
  proposedClass: 'loss',
  fromClass: 'loss',
};
const view: ClassAdjView = {
  ...init,
  adjBizCode: '000000000005',
  toClass: 'doubtful',
  reason: '抵押物足值',
  state: 'rejected',
  effectiveDate: null,
  createdByName: '张经办',
  updatedAt: '2027-03-31T00:00:00Z',
  version: 3,
};

// antd forms render slowly in jsdom, the more so on a busy machine.
const slow = { timeout: 30_000 };

function renderAt(url: string) {
  post.mockImplementation((path: string) => {
    if (path === CLASS_PATHS.initBase) return Promise.resolve(init);
    if (path === CLASS_PATHS.viewBaseInfo) return Promise.resolve(view);
    // The rejection notice of the editor frame asks the workflow; nothing to show here.
    return Promise.reject(new Error(`unexpected ${path}`));
  });
  update.mockResolvedValue({ ok: true, data: { adjBizCode: view.adjBizCode, version: 4 } });
  renderScreen(<ClassAdjEditorPage />, url);
}

afterEach(() => {
  cleanup();
  post.mockReset();
  update.mockReset();
});

describe('分类调整单编辑', () => {
  it('shows the contract and its class now, and names the missing fields before sending', async () => {
    renderAt(`/factoring/accounts/classification-editor?contBizCode=${init.contBizCode}`);
    expect(await screen.findByText(`${init.contractNo}（${init.contBizCode}）`, {}, slow)).toBeTruthy();
    expect(screen.getByText('361')).toBeTruthy();
    expect(screen.getAllByText('损失').length).toBe(2);
    fireEvent.click(screen.getByRole('button', { name: '保 存' }));
    expect(await screen.findByText('调整后分类不能为空', {}, slow)).toBeTruthy();
    expect(await screen.findByText('调整原因不能为空', {}, slow)).toBeTruthy();
    expect(update).not.toHaveBeenCalled();
  });

  it('saves a rejected document again with its code and version, and submits it', async () => {
    renderAt(`/factoring/accounts/classification-editor?adjBizCode=${view.adjBizCode}`);
    await waitFor(
      () => expect((screen.getByLabelText('调整原因') as HTMLTextAreaElement).value).toBe('抵押物足值'),
      slow,
    );
    fireEvent.click(screen.getByRole('button', { name: '保存并提交' }));
    await waitFor(() => expect(update).toHaveBeenCalled(), slow);
    expect(update.mock.calls[0]![0]).toBe(CLASS_PATHS.saveBaseInfo);
    expect(update.mock.calls[0]![1]).toEqual({
      contBizCode: init.contBizCode,
      toClass: 'doubtful',
      reason: '抵押物足值',
      adjBizCode: view.adjBizCode,
      version: 3,
      submit: true,
    });
  });
});

describe('五级分类 list', () => {
  const rows: ClassRow[] = [
    {
      contBizCode: '000000000021',
      contractNo: 'BL-2027-0021',
      custName: '甲公司',
      classDate: '2027-03-31',
      overdueDays: 361,
      proposedClass: 'loss',
      assetClass: 'doubtful',
      adjBizCode: '000000000005',
      principalOutstanding: '10000.00',
      provision: '5000.00',
      openAdjBizCode: null,
    },
    {
      contBizCode: '000000000022',
      contractNo: 'BL-2027-0022',
      custName: '乙公司',
      classDate: null,
      overdueDays: 0,
      proposedClass: null,
      assetClass: null,
      adjBizCode: null,
      principalOutstanding: '20000.00',
      provision: '200.00',
      openAdjBizCode: '000000000006',
    },
  ];

  it('shows each contract’s proposal and class (未分类 before a day-end), 调整 only without an open document', async () => {
    post.mockImplementation((path: string) => {
      if (path === AUTH_PATHS.buttons) return Promise.resolve([`${CLASS_MENU}:add`, `${CLASS_MENU}:save`]);
      if (path === BIZDATE_PATHS.view) return Promise.resolve({ businessDate: '2027-03-31' });
      return Promise.reject(new Error(`unexpected ${path}`));
    });
    fetchList.mockImplementation((path: string) =>
      path === CLASS_PATHS.list
        ? Promise.resolve({ ok: true, data: { list: rows, total: 2, pageNum: 1, pageSize: 20 } })
        : Promise.reject(new Error(`unexpected ${path}`)),
    );
    useSessionStore.setState({ roles: [CLASS_MENU] });
    renderScreen(<ClassificationListPage />, '/factoring/accounts/classification');
    expect(await screen.findByText('BL-2027-0021', {}, slow)).toBeTruthy();
    expect(screen.getByText('损失')).toBeTruthy();
    expect(screen.getByText('可疑')).toBeTruthy();
    expect(screen.getAllByText('未分类').length).toBe(2);
    // 调整 only on the row without an open 分类调整单 (the other's code stands in its place).
    await waitFor(
      () => expect(screen.getAllByText('调整').filter((e) => e.closest('button')).length).toBe(1),
      slow,
    );
    expect(screen.getByText('000000000006')).toBeTruthy();
    useSessionStore.setState({ roles: null });
  });
});
