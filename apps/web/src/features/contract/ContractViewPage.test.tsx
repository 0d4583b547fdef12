import { renderScreen } from '../../test/render-screen';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { CONTRACT_PATHS, type PlanItemView, type SchemeView } from '@portal/contract/contract';

const post = vi.hoisted(() => vi.fn());
vi.mock('../../shared/request/http', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../shared/request/http')>()),
  post,
}));
// ECharts needs a canvas jsdom does not have; the chart is not what this test reads.
vi.mock('../../shared/plan/PlanChart', () => ({ PlanChart: () => null }));

import ContractViewPage from './ContractViewPage';

const item: PlanItemView = {
  id: 1,
  period: 1,
  startDate: '2027-01-01',
  dueDate: '2027-02-28',
  days: 58,
  principal: '100000.00',
  interest: '1160.00',
  fee: '0.00',
  penalty: '150.00',
  total: '101310.00',
  principalPaid: '0.00',
  interestPaid: '0.00',
  feePaid: '0.00',
  penaltyPaid: '0.00',
  outstanding: '101310.00',
  overdueDays: 5,
  status: '逾期',
};
const scheme: SchemeView = {
  contBizCode: '000000000011',
  version: 3,
  ruleBizCode: '000000000005',
  ruleName: '测试规则',
  rule: null,
  method: 'BULLET',
  upfrontInterest: '0.00',
  upfrontFee: '0.00',
  totalInterest: '1160.00',
  totalFee: '0.00',
  asOf: '2027-03-05',
  items: [item],
};

afterEach(() => {
  cleanup();
  post.mockReset();
});

describe('合同查看 方案/还款计划', () => {
  it('says the business date its outstanding, overdue and penalty are as of', async () => {
    post.mockImplementation((path: string) =>
      path === CONTRACT_PATHS.schemeView
        ? Promise.resolve(scheme)
        : Promise.reject(new Error(`not needed here: ${path}`)),
    );
    renderScreen(<ContractViewPage />, `/factoring/contract/view?bizCode=${scheme.contBizCode}`);
    fireEvent.click(await screen.findByRole('tab', { name: '方案/还款计划' }));
    const table = await screen.findByTestId('plan-table', {}, { timeout: 30_000 });
    await waitFor(() =>
      expect(screen.getByTestId('plan-as-of').textContent).toContain('金额截至 2027-03-05'),
    );
    // The penalty column names the same date (antd repeats a scrolling table's header).
    expect(within(table).getAllByText('罚息（截至2027-03-05）').length).toBeGreaterThan(0);
    expect(within(table).getByText('150.00')).toBeTruthy();
  }, 90_000);
});
