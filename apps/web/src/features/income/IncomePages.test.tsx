import '../../test/jsdom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';

const post = vi.hoisted(() => vi.fn());
const update = vi.hoisted(() => vi.fn());
vi.mock('../../shared/request/http', () => ({
  post,
  update,
  addUpdatedListener: () => () => undefined,
  ApiError: class ApiError extends Error {},
}));
vi.mock('../../shared/bank/our-accounts', () => ({
  useOurAccountOptions: () => ({
    loading: false,
    options: [{ value: '000000000001', label: '本公司 6214830000000001' }],
  }),
}));

import { IncomeEditorPage } from './IncomePages';

afterEach(() => {
  cleanup();
  post.mockReset();
  update.mockReset();
});

function renderEditor() {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={qc}>
      <MemoryRouter initialEntries={['/factoring/accounts/income-editor']}>
        <IncomeEditorPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const amountHelp = () => document.querySelector('[id$="amount_help"]')?.textContent;
const saveButton = () => screen.getByRole('button', { name: /^保\s*存$/ });

describe('新增来款 checks its fields before asking 是否继续？', () => {
  it('shows the schema’s messages for an empty form and never opens the confirmation', async () => {
    renderEditor();
    fireEvent.click(saveButton());
    // The validation of every field renders its messages; jsdom takes seconds on a busy machine.
    expect(await screen.findByText('来款金额不能为空', {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByText('来款日期不能为空')).toBeTruthy();
    expect(screen.getByText('收款账户不能为空')).toBeTruthy();
    expect(screen.getByText('付款人名称不能为空')).toBeTruthy();
    expect(screen.getByText('银行流水号不能为空')).toBeTruthy();
    expect(update).not.toHaveBeenCalled();
    expect(screen.queryByText(/是否继续/)).toBeNull();
  });

  it('refuses 12.345, 0 and −5 in 来款金额 with the schema’s messages', async () => {
    renderEditor();
    const amount = screen.getByLabelText('来款金额');
    const cases: [string, string][] = [
      ['12.345', '来款金额必须是最多两位小数的金额'],
      ['0', '来款金额必须大于0'],
      ['\u22125', '来款金额必须大于0'],
    ];
    for (const [value, message] of cases) {
      fireEvent.change(amount, { target: { value } });
      fireEvent.blur(amount);
      fireEvent.click(saveButton());
      await waitFor(() => expect(amountHelp()).toBe(message), { timeout: 5000 });
    }
    expect(update).not.toHaveBeenCalled();
    expect(screen.queryByText(/是否继续/)).toBeNull();
  });

  it('sends exact strings once every field passes', async () => {
    update.mockResolvedValue({ confirmed: true, ok: false, msg: '' });
    renderEditor();
    fireEvent.mouseDown(screen.getByRole('combobox', { name: '收款账户' }));
    fireEvent.click(await screen.findByText('本公司 6214830000000001'));
    fireEvent.change(screen.getByLabelText('付款人名称'), { target: { value: '核心买方有限公司' } });
    fireEvent.change(screen.getByLabelText('来款金额'), { target: { value: '1,234.50' } });
    const date = screen.getByLabelText('来款日期');
    await act(async () => {
      fireEvent.focus(date);
      fireEvent.change(date, { target: { value: '2026-11-26' } });
    });
    await act(async () => {
      fireEvent.blur(date);
    });
    fireEvent.change(screen.getByLabelText('银行流水号'), { target: { value: 'QZ001' } });
    fireEvent.click(saveButton());
    await waitFor(() => expect(update).toHaveBeenCalledTimes(1), { timeout: 5000 });
    const body = update.mock.calls[0]?.[1] as Record<string, unknown>;
    expect(body).toMatchObject({
      bankBizCode: '000000000001',
      payerName: '核心买方有限公司',
      amount: '1234.50',
      valueDate: '2026-11-26',
      serialNo: 'QZ001',
      submit: false,
    });
  });
});
