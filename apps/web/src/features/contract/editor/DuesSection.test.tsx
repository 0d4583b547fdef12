import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { CONTRACT_PATHS, type ContractInfo, type DueItem, type DueView } from '@portal/contract/contract';

const post = vi.hoisted(() => vi.fn());
vi.mock('../../../shared/request/http', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../shared/request/http')>()),
  post,
}));

import { renderScreen } from '../../../test/render-screen';
import { CONTRACT_ROUTES } from '../api';
import { DuesTable } from '../components';
import type { ContractDoc } from './contract-doc';
import { DuesSection } from './DuesSection';

const CODE = '000000000021';
const stored: DueView[] = [
  {
    id: 5,
    kind: 'margin',
    amount: '10000.00',
    dueDate: '2026-01-15',
    receivedAmount: '0.00',
    remark: null,
    ruleAmount: '10000.00',
    reason: null,
  },
];
const implied: DueItem[] = [{ kind: 'margin', amount: '10000.00', dueDate: '2026-01-15' }];

// antd tables render slowly in jsdom, the more so on a busy machine.
const slow = { timeout: 30_000 };

function renderDues() {
  post.mockImplementation((path: string) => {
    if (path === CONTRACT_PATHS.dueView) return Promise.resolve(stored);
    if (path === CONTRACT_PATHS.due) return Promise.resolve(implied);
    return Promise.reject(new Error(`unexpected ${path}`));
  });
  const save = vi.fn().mockResolvedValue({ version: 4 });
  const doc: ContractDoc = {
    bizCode: CODE,
    info: { startDate: '2026-01-15' } as ContractInfo,
    loading: false,
    version: 3,
    editable: true,
    save,
  };
  renderScreen(<DuesSection doc={doc} />, `${CONTRACT_ROUTES.editor}?bizCode=${CODE}`);
  return save;
}

afterEach(() => {
  cleanup();
  post.mockReset();
});

describe('应收费用 (dues tab)', () => {
  it('asks for the reason of an implied amount other than the rule’s, and sends it', async () => {
    const save = renderDues();
    const amount = () => screen.getByLabelText('费用金额') as HTMLInputElement;
    await waitFor(() => expect(amount().value).toBe('10,000.00'), slow);
    // At the rule's figure: no reason asked.
    expect(screen.queryByLabelText('保证金原因')).toBeNull();

    fireEvent.change(amount(), { target: { value: '8000.00' } });
    fireEvent.blur(amount());
    const reason = (await screen.findByLabelText('保证金原因', {}, slow)) as HTMLInputElement;
    // The rule's figure stays beside the amount (the footer sums the amounts: 8,000.00).
    expect(screen.getByText('10,000.00', { selector: 'td' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '保 存' }));
    expect(await screen.findByText('金额与规则金额不同，请填写原因', {}, slow)).toBeTruthy();
    expect(save).not.toHaveBeenCalled();

    fireEvent.change(reason, { target: { value: '老客户，保证金比例经审批下调' } });
    fireEvent.click(screen.getByRole('button', { name: '保 存' }));
    await waitFor(() => expect(save).toHaveBeenCalled(), slow);
    expect(save.mock.calls[0]![0]).toEqual({
      path: CONTRACT_PATHS.dueSave,
      body: {
        contBizCode: CODE,
        version: 3,
        items: [
          {
            kind: 'margin',
            amount: '8000.00',
            dueDate: '2026-01-15',
            reason: '老客户，保证金比例经审批下调',
          },
        ],
      },
      what: '应收费用',
    });
  }, 90_000);

  it('shows the checker the rule’s figure and the reason beside a changed amount (合同查看)', async () => {
    renderScreen(
      <DuesTable rows={[{ ...stored[0]!, amount: '8000.00', reason: '老客户，保证金比例经审批下调' }]} />,
      CONTRACT_ROUTES.view,
    );
    const row = (await screen.findByText('老客户，保证金比例经审批下调', {}, slow)).closest('tr')!;
    expect([...row.querySelectorAll('td')].map((td) => td.textContent)).toEqual([
      '保证金',
      '8,000.00',
      '10,000.00',
      '老客户，保证金比例经审批下调',
      '2026-01-15',
      '0.00',
    ]);
  }, 90_000);
});
