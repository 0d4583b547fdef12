import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';

const reconcile = vi.hoisted(() => vi.fn());
vi.mock('./api', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./api')>();
  Object.assign(actual.paidApi, { reconcile });
  return actual;
});
vi.mock('../../shared/bizdate/api', () => ({
  useBizDate: () => ({ isLoading: false, data: { businessDate: '2025-12-31' } }),
}));

import ReconcilePage from './ReconcilePage';

afterEach(() => {
  cleanup();
  reconcile.mockReset();
});

describe('对账', () => {
  it('defaults to the year of the business date, not of the browser’s clock', async () => {
    vi.useFakeTimers({ now: new Date('2026-01-02T09:00:00+08:00'), toFake: ['Date'] });
    try {
      reconcile.mockResolvedValue({ incomes: 0, balanced: true, items: [], incomeRows: [] });
      render(
        <QueryClientProvider client={new QueryClient()}>
          <ReconcilePage />
        </QueryClientProvider>,
      );
      expect((screen.getByLabelText('开始日期') as HTMLInputElement).value).toBe('2025-01-01');
      expect((screen.getByLabelText('结束日期') as HTMLInputElement).value).toBe('2025-12-31');
      await waitFor(() => expect(reconcile).toHaveBeenCalledWith('2025-01-01', '2025-12-31'));
    } finally {
      vi.useRealTimers();
    }
  });
});
