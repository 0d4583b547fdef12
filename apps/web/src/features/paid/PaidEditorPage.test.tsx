import { renderScreen } from '../../test/render-screen';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import {
  PAID_PATHS,
  type OpenPlanItem,
  type PaidSuggestion,
  type PaidView,
  type ValidPlan,
} from '@portal/contract/accounts';
import { WORKFLOW_PATHS, type ProcessView } from '@portal/contract/workflow';

const post = vi.hoisted(() => vi.fn());
const update = vi.hoisted(() => vi.fn());
vi.mock('../../shared/request/http', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../shared/request/http')>()),
  post,
  update,
}));

import { clearUnsaved, isDirty } from '../../shared/editor/unsaved';
import { PAID_ROUTES } from './api';
import PaidEditorPage from './PaidEditorPage';

const income = {
  fiidBizCode: '000000000051',
  payerName: '核销测试有限公司',
  valueDate: '2027-03-01',
  amount: '1000.00',
  balance: '1000.00',
  serialNo: 'SN-1',
};

/** A draft allocated by hand: 300.00 of the first period's principal. */
const view = {
  paidBizCode: '000000000061',
  fiidBizCode: income.fiidBizCode,
  payerName: income.payerName,
  contBizCode: '000000000011',
  contractNo: 'BL-2027-0009',
  custName: '核销测试有限公司',
  paidDate: '2027-03-05',
  kind: 'manual',
  amount: '300.00',
  principal: '300.00',
  state: 'draft',
  red: false,
  updatedAt: '2027-03-05 10:00:00',
  version: 3,
  remark: null,
  income,
  lines: [{ itemId: 11, period: 1, dueDate: '2027-03-01', component: 'PRINCIPAL', amount: '300.00' }],
  released: '0.00',
  settledContract: false,
  redBizCode: null,
} satisfies PaidView;

const item = (itemId: number, period: number, principal: string): OpenPlanItem => ({
  itemId,
  period,
  dueDate: `2027-0${period + 2}-01`,
  status: '待还',
  overdueDays: 0,
  principal,
  interest: '50.00',
  fee: '0.00',
  penaltyAccrued: '0.00',
  open: { PENALTY: '0.00', INTEREST: '50.00', FEE: '0.00', PRINCIPAL: principal },
  openTotal: principal,
});

const plan: ValidPlan = {
  contBizCode: view.contBizCode,
  contractNo: view.contractNo,
  custName: view.custName,
  paidDate: view.paidDate,
  penaltyThrough: '2027-03-04',
  items: [item(11, 1, '500.00'), item(12, 2, '600.00')],
  openTotal: '1200.00',
};

// antd forms render slowly in jsdom, the more so on a busy machine.
const slow = { timeout: 30_000 };

/** The draft came back from its approval: rejected by the checker, with a reason. */
const process: ProcessView = {
  docType: 'paid',
  docTypeLabel: '来款核销',
  menuCode: 'ft-paid',
  docCode: view.paidBizCode,
  docState: 'rejected',
  procName: '来款核销审批流程',
  status: 'rejected',
  startTime: '2027-03-05T02:00:00.000Z',
  endTime: '2027-03-05T03:00:00.000Z',
  useTime: 0.1,
  notic: '来款核销 000000000061',
  amount: '300.00',
  submitterName: '钱财务',
  round: 1,
  currentStep: null,
  canApprove: false,
  cannotReason: null,
  canWithdraw: false,
  decide: null,
  rejection: { actorName: '王复核', comment: '本金分配有误', at: '2027-03-05T03:00:00.000Z' },
  steps: [],
};

function renderEditor() {
  post.mockImplementation((path: string) => {
    if (path === PAID_PATHS.viewBaseInfo) return Promise.resolve(view);
    if (path === WORKFLOW_PATHS.process) return Promise.resolve(process);
    if (path === PAID_PATHS.initPaidBase)
      return Promise.resolve({ income, contracts: [], paidDate: view.paidDate });
    if (path === PAID_PATHS.getValidPlanPaid) return Promise.resolve(plan);
    if (path === PAID_PATHS.getPaiPlanInfo)
      return Promise.resolve({
        kind: 'normal',
        amount: '100.50',
        lines: [{ itemId: 12, period: 2, dueDate: '2027-04-01', component: 'INTEREST', amount: '50.00' }],
        allocated: '50.00',
        unallocated: '50.50',
      } satisfies PaidSuggestion);
    return Promise.reject(new Error(`unexpected ${path}`));
  });
  update.mockResolvedValue({ ok: true, data: { paidBizCode: view.paidBizCode, version: 4 } });
  renderScreen(<PaidEditorPage />, `${PAID_ROUTES.editor}?paidBizCode=${view.paidBizCode}`);
}

const cell = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
function type(label: string, value: string) {
  fireEvent.change(cell(label), { target: { value } });
  fireEvent.blur(cell(label));
}
const totals = () => screen.getByTestId('paid-totals').textContent;

afterEach(() => {
  cleanup();
  post.mockReset();
  update.mockReset();
  clearUnsaved();
});

describe('来款核销编辑 on the editor frame, validated by the contract schemas', () => {
  it('refuses a malformed cell and one over its open amount under the cell, sending nothing', async () => {
    renderEditor();
    await waitFor(() => expect(cell('第1期本金').value).toBe('300.00'), slow);
    await waitFor(() => expect(totals()).toContain('本次核销合计300.00'), slow);
    expect(isDirty(PAID_ROUTES.editor)).toBe(false);
    // The frame shows why the draft came back.
    expect((await screen.findByTestId('rejection-notice', {}, slow)).textContent).toContain(
      '驳回原因：本金分配有误',
    );

    type('第1期本金', '12.345');
    expect(isDirty(PAID_ROUTES.editor)).toBe(true);
    // The only cell with an amount holds a malformed one: 保存 still runs, to say so.
    expect((screen.getByRole('button', { name: '保 存' }) as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: '保 存' }));
    expect(await screen.findByText('核销金额必须是最多两位小数的金额', {}, slow)).toBeTruthy();

    type('第1期本金', '500.01');
    fireEvent.click(screen.getByRole('button', { name: '保存并提交' }));
    expect(await screen.findByText('超过第1期待还本金 500.00', {}, slow)).toBeTruthy();
    expect(update).not.toHaveBeenCalled();
  }, 90_000);

  it('blocks a total over the incoming’s balance', async () => {
    renderEditor();
    await waitFor(() => expect(cell('第1期本金').value).toBe('300.00'), slow);
    type('第1期本金', '500.00');
    type('第2期本金', '500.01');
    await waitFor(() => expect(totals()).toContain('核销后来款余额-0.01'), slow);
    // Each figure says the date it is as of (docs/money-rules.md "Figures as of a date").
    const asOf = screen.getByTestId('paid-as-of').textContent;
    expect(asOf).toContain('金额截至 2027-03-05');
    expect(asOf).toContain('本次可核销罚息计至 2027-03-04');
    expect(screen.getByText('核销金额超过来款可核销余额')).toBeTruthy();
    expect((screen.getByRole('button', { name: '保 存' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: '保存并提交' }) as HTMLButtonElement).disabled).toBe(true);
  }, 90_000);

  it('saves a manual allocation as the exact decimal strings typed, in the grid’s order', async () => {
    renderEditor();
    await waitFor(() => expect(cell('第1期本金').value).toBe('300.00'), slow);
    type('第1期本金', '300.10');
    type('第1期利息', '0.05');
    type('第2期本金', '0');
    await waitFor(() => expect(totals()).toContain('本次核销合计300.15'), slow);
    fireEvent.click(screen.getByRole('button', { name: '保 存' }));
    await waitFor(() => expect(update).toHaveBeenCalled(), slow);
    expect(update.mock.calls[0]![0]).toBe(PAID_PATHS.savePlanPaidInfo);
    expect(update.mock.calls[0]![1]).toEqual({
      fiidBizCode: income.fiidBizCode,
      contBizCode: view.contBizCode,
      paidDate: view.paidDate,
      kind: 'manual',
      lines: [
        { itemId: 11, component: 'INTEREST', amount: '0.05' },
        { itemId: 11, component: 'PRINCIPAL', amount: '300.10' },
      ],
      paidBizCode: view.paidBizCode,
      version: 3,
      submit: false,
    });
    // The confirmation is asked only once the form is valid.
    expect(update.mock.calls[0]![2]).toEqual({ confirm: '此操作将保存来款核销！ 是否继续？' });
  }, 90_000);

  it('按规则分配 checks 核销金额 first, then replaces the whole allocation with the rule’s', async () => {
    renderEditor();
    await waitFor(() => expect(cell('第1期本金').value).toBe('300.00'), slow);
    const suggested = () => post.mock.calls.filter(([path]) => path === PAID_PATHS.getPaiPlanInfo);
    type('核销金额', '12.345');
    fireEvent.click(screen.getByRole('button', { name: '按规则分配' }));
    expect(await screen.findByText('核销金额必须是最多两位小数的金额', {}, slow)).toBeTruthy();
    expect(suggested()).toHaveLength(0);

    type('核销金额', '100.50');
    fireEvent.click(screen.getByRole('button', { name: '按规则分配' }));
    await waitFor(() => expect(cell('第2期利息').value).toBe('50.00'), slow);
    expect(suggested()[0]![1]).toEqual({
      fiidBizCode: income.fiidBizCode,
      contBizCode: view.contBizCode,
      paidDate: view.paidDate,
      amount: '100.50',
    });
    // The draft's 300.00 of the first period is gone: the rule's allocation is the whole of it.
    expect(cell('第1期本金').value).toBe('');
    expect(totals()).toContain('本次核销合计50.00');
    expect(screen.getByText('有 50.50 未能分配（计划已全部覆盖），将留在来款余额中')).toBeTruthy();
  }, 90_000);
});
