import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ApprovalRecord, ProcessView } from '@portal/contract/workflow';
import { useSessionStore } from '../session/session-store';
import { workflowApi } from './api';
import { AuditView } from './AuditView';

vi.mock('./api', async (importOriginal) => {
  const real = await importOriginal<typeof import('./api')>();
  // In place: the query options of ./api call these.
  Object.assign(real.workflowApi, {
    process: vi.fn(),
    records: vi.fn(),
    circulation: vi.fn(async () => []),
    users: vi.fn(async () => []),
    circulate: vi.fn(),
    markRead: vi.fn(),
    todo: vi.fn(),
    toRead: vi.fn(),
    counts: vi.fn(),
    decide: vi.fn(async () => ({ confirmed: true, ok: true, data: { state: 'pending' }, msg: '' })),
  });
  return real;
});

const VIEW: ProcessView = {
  docType: 'contract',
  docTypeLabel: '合同信息',
  menuCode: 'ft-contract-info',
  docCode: '000000000001',
  docState: 'pending',
  procName: '合同审批流程',
  status: 'pending',
  startTime: '2026-01-10T02:00:00.000Z',
  endTime: null,
  useTime: 2.5,
  notic: '合同 000000000001 某某科技',
  amount: '6000000.00',
  submitterName: '张经办',
  round: 1,
  currentStep: 2,
  canWithdraw: false,
  rejection: null,
  steps: [
    {
      no: 1,
      name: '风控复核',
      roleCode: 'risk',
      roleName: '风控',
      status: 'done',
      actorName: '李风控',
      at: '2026-01-11T02:00:00.000Z',
    },
    {
      no: 2,
      name: '总经理审批',
      roleCode: 'gm',
      roleName: '总经理',
      status: 'current',
      actorName: null,
      at: null,
    },
  ],
  canApprove: true,
  cannotReason: null,
  decide: null,
};
const RECORDS: ApprovalRecord[] = [
  {
    id: 1,
    round: 1,
    step: 0,
    stepName: '提交',
    action: 'submit',
    actorId: 2,
    actorName: '张经办',
    comment: null,
    at: VIEW.startTime!,
  },
  {
    id: 2,
    round: 1,
    step: 1,
    stepName: '风控复核',
    action: 'approve',
    actorId: 3,
    actorName: '李风控',
    comment: '资料齐全',
    at: '2026-01-11T02:00:00.000Z',
  },
];

function renderView(decide = false) {
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>
        <AuditView
          docType="contract"
          docCode="000000000001"
          menuCode="ft-contract-info"
          {...(decide
            ? {
                decide: {
                  auditPath: '/ft/api/contract/info/audit',
                  unAuditPath: '/ft/api/contract/info/unAudit',
                },
              }
            : {})}
        >
          <div>合同正文</div>
        </AuditView>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  useSessionStore.setState({ roles: ['admin'] });
  vi.mocked(workflowApi.process).mockResolvedValue(VIEW);
  vi.mocked(workflowApi.records).mockResolvedValue(RECORDS);
});
afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

// Antd renders slowly on a loaded 2-core machine: room beyond the 5 s default.
const SLOW = 30_000;
const SLOW_WAIT = { timeout: 20_000 };

describe('AuditView', () => {
  it(
    'shows the header and opens on 业务单据 with the four tabs',
    async () => {
      renderView();
      expect(await screen.findByText('合同审批流程')).toBeTruthy();
      expect(screen.getByTestId('audit-status').textContent).toBe('审核中');
      expect(screen.getByText('2.5 天')).toBeTruthy();
      expect(screen.getByText('合同 000000000001 某某科技')).toBeTruthy();
      expect(screen.getByText('2026-01-10 10:00:00')).toBeTruthy();
      expect(screen.getByText('合同正文')).toBeTruthy();
      const tabs = screen.getAllByRole('tab').map((t) => t.textContent);
      expect(tabs).toEqual(['业务单据', '审批记录', '流程图', '传阅']);
    },
    SLOW,
  );

  it(
    'draws the flow chart with the current step highlighted, and the records as a timeline',
    async () => {
      renderView();
      await screen.findByText('合同审批流程');
      fireEvent.click(screen.getByRole('tab', { name: '流程图' }));
      const nodes = await screen.findAllByTestId('flow-node');
      expect(nodes.map((n) => [n.getAttribute('data-title'), n.getAttribute('data-status')])).toEqual([
        ['提交', 'start'],
        ['1. 风控复核', 'done'],
        ['2. 总经理审批', 'current'],
        ['结束', 'end-open'],
      ]);
      fireEvent.click(screen.getByRole('tab', { name: '审批记录' }));
      const records = await screen.findAllByTestId('approval-record');
      expect(records).toHaveLength(2);
      expect(records[1]!.textContent).toContain('资料齐全');
    },
    SLOW,
  );

  it(
    'the editor adds 流程审批: a rejection needs a comment; approval sends the step it saw',
    async () => {
      renderView(true);
      await screen.findByText('合同审批流程');
      fireEvent.click(screen.getByRole('tab', { name: '流程审批' }));
      fireEvent.click(await screen.findByTestId('decision-reject'));
      expect(await screen.findByText('请填写驳回意见')).toBeTruthy();
      expect(workflowApi.decide).not.toHaveBeenCalled();
      fireEvent.change(screen.getByTestId('decision-comment'), { target: { value: '同意' } });
      fireEvent.click(screen.getByTestId('decision-approve'));
      await waitFor(() =>
        expect(workflowApi.decide).toHaveBeenCalledWith(
          '/ft/api/contract/info/audit',
          '000000000001',
          { comment: '同意', step: 2 },
          '确定通过该单据吗？',
        ),
      );
    },
    SLOW,
  );

  it(
    'a refused decision (another approver was first) fetches the document again: no 流程审批 left',
    async () => {
      renderView(true);
      await screen.findByText('合同审批流程');
      fireEvent.click(screen.getByRole('tab', { name: '流程审批' }));
      await screen.findByTestId('decision-approve');
      const before = vi.mocked(workflowApi.process).mock.calls.length;
      // Meanwhile 总经理 decided elsewhere: the server refuses, and now answers the approved process.
      vi.mocked(workflowApi.decide).mockImplementationOnce(() => {
        vi.mocked(workflowApi.process).mockResolvedValue({
          ...VIEW,
          status: 'approved',
          docState: 'approved',
          currentStep: null,
          canApprove: false,
        });
        return Promise.reject(new Error('审批人已处理'));
      });
      fireEvent.click(screen.getByTestId('decision-approve'));
      await waitFor(
        () => expect(vi.mocked(workflowApi.process).mock.calls.length).toBeGreaterThan(before),
        SLOW_WAIT,
      );
      expect(await screen.findByText('流程已审核，无需审批', undefined, SLOW_WAIT)).toBeTruthy();
      expect(screen.queryByTestId('decision-approve')).toBeNull();
    },
    SLOW,
  );
});
