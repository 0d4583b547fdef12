import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { InstanceItem } from '@portal/contract/workflow';

vi.mock('../../shared/workflow/api', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../shared/workflow/api')>();
  return { ...real, workflowApi: { ...real.workflowApi, instances: vi.fn() } };
});

import { renderScreen } from '../../test/render-screen';
import { refreshAfterAction, workflowApi } from '../../shared/workflow/api';
import { MonitorPanel } from './MonitorPanel';

/**
 * 流程监控 on the shared list kit (docs/architecture.md "Lists fit their box"): 审核中 first, the
 * form's filters sent trimmed, and an action taken on a document refreshes the list.
 */
const ROW: InstanceItem = {
  docType: 'contract',
  docTypeLabel: '合同信息',
  docCode: '000000000041',
  round: 1,
  status: 'pending',
  notic: '合同 HT-MON-1 监控测试有限公司',
  amount: '1234567.80',
  stepName: '风控复核',
  submitterName: '张经办',
  startTime: '2027-01-02T02:00:00.000Z',
  endTime: null,
} as unknown as InstanceItem;

const SLOW = { timeout: 30_000 };

afterEach(() => {
  cleanup();
  vi.mocked(workflowApi.instances).mockReset();
  window.sessionStorage.clear();
});

describe('流程监控', { timeout: 90_000 }, () => {
  it('lists 审核中 first, sends the filters, and a document action refreshes it', async () => {
    vi.mocked(workflowApi.instances).mockResolvedValue({ list: [ROW], total: 1 } as never);
    const { client } = renderScreen(<MonitorPanel />, '/factoring/config/process');
    expect(await screen.findByText('合同 HT-MON-1 监控测试有限公司', undefined, SLOW)).toBeTruthy();
    expect(screen.getByText('1,234,567.80')).toBeTruthy();
    expect(vi.mocked(workflowApi.instances)).toHaveBeenLastCalledWith({
      status: 'pending',
      pageNum: 1,
      pageSize: 20,
    });

    fireEvent.change(screen.getByPlaceholderText('单据编号 / 摘要 / 提交人'), {
      target: { value: ' HT-MON-1 ' },
    });
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(
      () =>
        expect(vi.mocked(workflowApi.instances)).toHaveBeenLastCalledWith({
          status: 'pending',
          keyword: 'HT-MON-1',
          pageNum: 1,
          pageSize: 20,
        }),
      SLOW,
    );

    const calls = vi.mocked(workflowApi.instances).mock.calls.length;
    await act(() => refreshAfterAction(client, undefined));
    await waitFor(
      () => expect(vi.mocked(workflowApi.instances).mock.calls.length).toBeGreaterThan(calls),
      SLOW,
    );
  });
});
