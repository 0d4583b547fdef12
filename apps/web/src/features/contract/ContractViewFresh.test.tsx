import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { CONTRACT_PATHS, type ContractInfo } from '@portal/contract/contract';
import { WORKFLOW_PATHS, type ApprovalRecord, type ProcessView } from '@portal/contract/workflow';

const post = vi.hoisted(() => vi.fn());
const update = vi.hoisted(() => vi.fn());
vi.mock('../../shared/request/http', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../shared/request/http')>()),
  post,
  update,
}));
vi.mock('../../shared/plan/PlanChart', () => ({ PlanChart: () => null }));

import { ApiError } from '../../shared/request/http';
import { useSessionStore } from '../../shared/session/session-store';
import { renderKept } from '../../test/render-screen';
import ContractViewPage from './ContractViewPage';

/**
 * 合同查看 is never stale (docs/architecture.md "A view is never stale"): a view kept behind
 * another tab fetches the document again when it shows, and after an action on it even when the
 * server refused it; a draft back with its maker says why at the top and offers 编辑.
 */
const BIZ = '000000000021';

const info = (state: ContractInfo['state']) =>
  ({
    bizCode: BIZ,
    version: 2,
    state,
    status: 'none',
    loanState: 'none',
    contractNo: 'HT-FRESH-1',
    recourse: 'with',
    disclosure: 'disclosed',
    product: 'factoring',
    custCode: '000000000001',
    custName: '新鲜度测试有限公司',
    coreCompCode: null,
    coreCompName: null,
    platCredBizCode: '000000000002',
    lineCode: '000000000003',
    financingRatio: '0.8',
    financingAmount: '80000.00',
    marginRatio: null,
    receivablesAmount: '100000.00',
    currency: 'CNY',
    startDate: '2027-01-01',
    maturityDate: '2027-06-30',
    ruleBizCode: '000000000004',
    ruleName: '测试规则',
    bankBizCode: '000000000005',
    bankName: null,
    bankAccountNo: null,
    deptCode: null,
    deptName: null,
    managerId: null,
    managerName: null,
    remark: null,
    occupiedAmount: '80000.00',
    loanDate: null,
    loanAmount: null,
    loanBizCode: null,
    receivables: [],
    payers: [],
  }) as unknown as ContractInfo;

const process = (p: Partial<ProcessView>): ProcessView => ({
  docType: 'contract',
  docTypeLabel: '合同',
  menuCode: 'ft-contract-info',
  docCode: BIZ,
  docState: 'pending',
  procName: '合同审批',
  status: 'pending',
  startTime: '2027-01-02 09:00:00',
  endTime: null,
  useTime: 1,
  notic: null,
  amount: '80000.00',
  submitterName: '管理员',
  round: 1,
  currentStep: 1,
  steps: [],
  canApprove: false,
  cannotReason: null,
  canWithdraw: false,
  rejection: null,
  decide: null,
  ...p,
});

/** What the server answers now (a test changes it as the document moves on). */
let now: { info: ContractInfo; process: ProcessView; records: ApprovalRecord[] };

function serve() {
  post.mockImplementation((path: string) => {
    if (path === CONTRACT_PATHS.infoView) return Promise.resolve(now.info);
    if (path === WORKFLOW_PATHS.process) return Promise.resolve(now.process);
    if (path === WORKFLOW_PATHS.records) return Promise.resolve(now.records);
    if (path === WORKFLOW_PATHS.circulation) return Promise.resolve([]);
    return Promise.reject(new Error(`not needed here: ${path}`));
  });
}

let show: (visible: boolean) => void = () => undefined;

/** The view as a kept tab: hidden and shown again by the test. The app's queries stay fresh 30 s. */
function renderView() {
  ({ show } = renderKept(<ContractViewPage />, `/factoring/contract/info-view?bizCode=${BIZ}`, 30_000));
}

const processCalls = () => post.mock.calls.filter(([p]) => p === WORKFLOW_PATHS.process).length;

afterEach(() => {
  cleanup();
  post.mockReset();
  update.mockReset();
  useSessionStore.setState({ roles: null });
});

describe('合同查看 is never stale', { timeout: 90_000 }, () => {
  it('shown again after the maker resubmitted elsewhere: 审核中 with 撤回, not the old rejection', async () => {
    useSessionStore.setState({ roles: ['admin'] });
    now = {
      info: info('rejected'),
      process: process({
        docState: 'rejected',
        status: 'rejected',
        currentStep: null,
        rejection: { actorName: '复核员', comment: '金额不符', at: '2027-01-03 10:00:00' },
      }),
      records: [],
    };
    serve();
    renderView();
    await screen.findByTestId('rejection-notice', {}, { timeout: 30_000 });

    act(() => show(false));
    // Meanwhile the maker resubmits from the editor (which refreshes the contract, not this view's process).
    now = { info: info('pending'), process: process({ canWithdraw: true }), records: [] };
    act(() => show(true));

    await screen.findByTestId('doc-withdraw', {}, { timeout: 30_000 });
    expect(screen.queryByTestId('rejection-notice')).toBeNull();
    expect(screen.getByTestId('audit-status').textContent).toBe('审核中');
  });

  it('offers no 撤回 beside a title that reads 草稿, though the workflow’s answer still allows one', async () => {
    useSessionStore.setState({ roles: ['admin'] });
    // The document's answer is newer than the workflow's (two reads fetched again apart).
    now = { info: info('draft'), process: process({ canWithdraw: true }), records: [] };
    serve();
    renderView();
    await screen.findByText('草稿', {}, { timeout: 30_000 });
    await waitFor(() => expect(processCalls()).toBeGreaterThan(0), { timeout: 30_000 });
    expect(screen.queryByTestId('doc-withdraw')).toBeNull();
  });

  it('a refused 撤回 (an approver was first) fetches the document again: no 撤回 left', async () => {
    useSessionStore.setState({ roles: ['admin'] });
    now = { info: info('pending'), process: process({ canWithdraw: true }), records: [] };
    serve();
    update.mockImplementation(() => {
      now = { ...now, process: process({ canWithdraw: false, currentStep: 2 }) };
      return Promise.reject(new ApiError('api', 409, '审批人已处理，不能撤回'));
    });
    renderView();
    const withdraw = await screen.findByTestId('doc-withdraw', {}, { timeout: 30_000 });
    const before = processCalls();
    fireEvent.click(withdraw);
    await waitFor(() => expect(processCalls()).toBeGreaterThan(before), { timeout: 30_000 });
    await waitFor(() => expect(screen.queryByTestId('doc-withdraw')).toBeNull(), { timeout: 30_000 });
  });

  it('the maker’s rejected draft says why at the top and offers 编辑; so does a withdrawn one', async () => {
    useSessionStore.setState({ roles: ['admin'] });
    now = {
      info: info('rejected'),
      process: process({
        docState: 'rejected',
        status: 'rejected',
        currentStep: null,
        rejection: { actorName: '复核员', comment: '融资比例过高', at: '2027-01-03 10:00:00' },
      }),
      records: [],
    };
    serve();
    renderView();
    const notice = await screen.findByTestId('rejection-notice', {}, { timeout: 30_000 });
    expect(notice.textContent).toContain('融资比例过高');
    await screen.findByTestId('doc-edit');
    cleanup();

    now = {
      info: info('draft'),
      process: process({ docState: 'draft', status: 'withdrawn', currentStep: null }),
      records: [
        {
          id: 7,
          round: 1,
          step: 0,
          stepName: '提交',
          action: 'withdraw',
          actorId: 1,
          actorName: '经办员甲',
          comment: null,
          at: '2027-01-02 11:00:00',
        },
      ],
    };
    renderView();
    const withdrawn = await screen.findByTestId('withdrawal-notice', {}, { timeout: 30_000 });
    await waitFor(() => expect(withdrawn.textContent).toContain('经办员甲'));
    await screen.findByTestId('doc-edit');
  });
});
