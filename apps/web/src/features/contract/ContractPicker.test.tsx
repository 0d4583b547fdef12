import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { HANDOVER_PATHS, type ContractPick } from '@portal/contract/contract';

const post = vi.hoisted(() => vi.fn());
vi.mock('../../shared/request/http', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../shared/request/http')>()),
  post,
}));

import { ContractPicker } from './ContractPicker';

const ROWS: ContractPick[] = [
  { bizCode: '000000000011', contractNo: 'BL-2026-0011', custName: '甲供应链有限公司' },
  { bizCode: '000000000012', contractNo: 'BL-2026-0012', custName: '乙贸易有限公司' },
];

afterEach(() => {
  cleanup();
  post.mockReset();
});

describe('ContractPicker', () => {
  it('searches on the server by what is typed and answers the chosen contract’s code', async () => {
    post.mockImplementation(async (_path: string, body: { keyword?: string }) =>
      ROWS.filter((r) => !body.keyword || `${r.contractNo} ${r.custName}`.includes(body.keyword)),
    );
    const onChange = vi.fn();
    render(
      <QueryClientProvider client={new QueryClient()}>
        <ContractPicker onChange={onChange} />
      </QueryClientProvider>,
    );
    // The newest contracts before anything is typed.
    await waitFor(() => expect(post).toHaveBeenCalledWith(HANDOVER_PATHS.contracts, {}, { loading: false }));
    const input = screen.getByRole('combobox');
    fireEvent.mouseDown(input);
    fireEvent.change(input, { target: { value: '乙贸易' } });
    await waitFor(() =>
      expect(post).toHaveBeenLastCalledWith(
        HANDOVER_PATHS.contracts,
        { keyword: '乙贸易' },
        { loading: false },
      ),
    );
    const option = await screen.findByText('BL-2026-0012 乙贸易有限公司', {
      normalizer: (s) => s.replace(/\s+/g, ' '),
    });
    expect(screen.queryByText(/甲供应链/)).toBeNull();
    fireEvent.click(option);
    expect(onChange).toHaveBeenCalledWith('000000000012');
  });
});
