import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { TrialBalance } from '@portal/contract/voucher';
import type { ScreenProps } from '../../shared/ui/screen';

const trial = vi.hoisted(() => vi.fn());
const exportFile = vi.hoisted(() => vi.fn());
vi.mock('./api', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./api')>();
  Object.assign(actual.voucherApi, { trial });
  return { ...actual, currentPeriod: () => '2026-05' };
});
vi.mock('../../shared/request/http', () => ({ exportFile, post: vi.fn() }));

import { useSessionStore } from '../../shared/session/session-store';
import TrialPage from './TrialPage';

afterEach(() => {
  cleanup();
  trial.mockReset();
  exportFile.mockReset();
  useSessionStore.setState({ roles: null });
});

const MAY: TrialBalance = {
  period: '2026-05',
  rows: [
    {
      accountCode: '1002',
      accountName: '银行存款',
      openingDebit: '0.00',
      openingCredit: '95000.00',
      debit: '50000.00',
      credit: '200000.00',
      closingDebit: '0.00',
      closingCredit: '245000.00',
    },
  ],
  totals: {
    openingDebit: '100000.00',
    openingCredit: '100000.00',
    debit: '251240.00',
    credit: '251240.00',
    closingDebit: '301240.00',
    closingCredit: '301240.00',
  },
  balanced: true,
};

function show() {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={qc}>
      <TrialPage {...({} as ScreenProps)} />
    </QueryClientProvider>,
  );
}

describe('试算平衡', () => {
  it('shows the period’s accounts, the totals and that debits equal credits', async () => {
    trial.mockResolvedValue(MAY);
    show();
    expect(await screen.findByText('借贷平衡')).toBeTruthy();
    expect(trial).toHaveBeenCalledWith('2026-05');
    expect(screen.getByText('银行存款')).toBeTruthy();
    const totals = screen.getByTestId('trial-totals');
    expect(totals.textContent).toContain('251,240.00');
    expect(totals.textContent).toContain('301,240.00');
  });

  it('exports the period shown as 试算平衡.xlsx for holders of its export button', async () => {
    useSessionStore.setState({ roles: ['admin'] });
    trial.mockResolvedValue(MAY);
    exportFile.mockResolvedValue(undefined);
    show();
    await screen.findByText('借贷平衡');
    fireEvent.click(screen.getByRole('button', { name: /导\s*出/ }));
    await waitFor(() =>
      expect(exportFile).toHaveBeenCalledWith(
        '/ft/api/voucher/trial/export',
        { period: '2026-05' },
        { fileName: '试算平衡.xlsx' },
      ),
    );
  });

  it('names a malformed period and asks nothing', async () => {
    trial.mockResolvedValue(MAY);
    show();
    await screen.findByText('借贷平衡');
    trial.mockClear();
    fireEvent.change(screen.getByLabelText('会计期间'), { target: { value: '2026-13' } });
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    expect(await screen.findByText('会计期间格式应为YYYY-MM')).toBeTruthy();
    await waitFor(() => expect(trial).not.toHaveBeenCalled());
  });
});
