import { renderScreen } from '../../test/render-screen';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { BANK_PATHS } from '@portal/contract/bank';
import { PA_PATHS, type PaView } from '@portal/contract/prepayment';

const post = vi.hoisted(() => vi.fn());
const update = vi.hoisted(() => vi.fn());
vi.mock('../../shared/request/http', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../shared/request/http')>()),
  post,
  update,
}));

import { clearUnsaved, isDirty } from '../../shared/editor/unsaved';
import { PA_ROUTES } from './api';
import { PaEditorPage } from './PrepaymentPages';

const view: PaView = {
  preamtBizCode: '000000000041',
  contBizCode: '000000000011',
  contractNo: 'BL-2027-0003',
  custName: '前期款测试有限公司',
  method: 'transfer',
  receiveDate: '2027-03-01',
  amount: '1500.00',
  state: 'draft',
  updatedAt: '2027-03-01 10:00:00',
  version: 4,
  bankBizCode: '000000000031',
  payerName: '前期款测试有限公司',
  remark: null,
  lines: [
    {
      dueId: 7,
      kind: 'serviceFee',
      amount: '2000.00',
      receivedAmount: '500.00',
      openAmount: '1500.00',
      dueDate: '2027-03-01',
      lineAmount: '1500.00',
    },
    {
      dueId: 8,
      kind: 'margin',
      amount: '800.00',
      receivedAmount: '0.00',
      openAmount: '800.00',
      dueDate: '2027-03-01',
      lineAmount: '0',
    },
  ],
} as PaView;

// antd forms render slowly in jsdom, the more so on a busy machine.
const slow = { timeout: 30_000 };

function renderEditor(shown: PaView = view) {
  post.mockImplementation((path: string) => {
    if (path === PA_PATHS.viewBaseInfo) return Promise.resolve(shown);
    if (path === BANK_PATHS.list) return Promise.resolve({ list: [] });
    return Promise.reject(new Error(`unexpected ${path}`));
  });
  update.mockResolvedValue({ ok: true, data: { preamtBizCode: view.preamtBizCode, version: 5 } });
  renderScreen(<PaEditorPage />, `${PA_ROUTES.editor}?preamtBizCode=${shown.preamtBizCode}`);
}

afterEach(() => {
  cleanup();
  post.mockReset();
  update.mockReset();
  clearUnsaved();
});

describe('前期款编辑 on the editor frame', () => {
  it('refuses more than is open, and a malformed amount, before sending; typed input is unsaved', async () => {
    renderEditor();
    const inputs = () => screen.getAllByLabelText(/^本次收取/) as HTMLInputElement[];
    await waitFor(() => expect(inputs()[0]!.value).toBe('1,500.00'), slow);
    // The buttons are enabled once the watched amounts make a total above zero.
    await waitFor(() => expect(screen.getByTestId('pa-total').textContent).toContain('1,500.00'), slow);
    expect(isDirty(PA_ROUTES.editor)).toBe(false);
    fireEvent.change(inputs()[0]!, { target: { value: '1500.01' } });
    fireEvent.blur(inputs()[0]!);
    expect(isDirty(PA_ROUTES.editor)).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: '保 存' }));
    expect(await screen.findByText('超过该项待收金额 1,500.00', {}, slow)).toBeTruthy();
    fireEvent.change(inputs()[0]!, { target: { value: '12.345' } });
    fireEvent.blur(inputs()[0]!);
    // The only due with an amount holds a malformed one: 保存 still runs, to say so.
    expect((screen.getByRole('button', { name: '保 存' }) as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: '保 存' }));
    expect(await screen.findByText('本次收取金额必须是最多两位小数的金额', {}, slow)).toBeTruthy();
    expect(update).not.toHaveBeenCalled();
  }, 90_000);

  it('saves the draft with its code, version and only the dues with an amount', async () => {
    renderEditor();
    const inputs = () => screen.getAllByLabelText(/^本次收取/) as HTMLInputElement[];
    await waitFor(() => expect(inputs()[0]!.value).toBe('1,500.00'), slow);
    // The buttons are enabled once the watched amounts make a total above zero.
    await waitFor(() => expect(screen.getByTestId('pa-total').textContent).toContain('1,500.00'), slow);
    fireEvent.click(screen.getByRole('button', { name: '保存并提交' }));
    await waitFor(() => expect(update).toHaveBeenCalled(), slow);
    expect(update.mock.calls[0]![0]).toBe(PA_PATHS.saveBaseInfo);
    expect(update.mock.calls[0]![1]).toEqual({
      contBizCode: view.contBizCode,
      method: 'transfer',
      bankBizCode: '000000000031',
      receiveDate: '2027-03-01',
      payerName: '前期款测试有限公司',
      lines: [{ dueId: 7, amount: '1500.00' }],
      preamtBizCode: view.preamtBizCode,
      version: 4,
      submit: true,
    });
  }, 90_000);

  it('offers cash methods only; a draft left with 放款时扣收 must be given one before it is saved', async () => {
    renderEditor({ ...view, method: 'deduct' });
    const inputs = () => screen.getAllByLabelText(/^本次收取/) as HTMLInputElement[];
    await waitFor(() => expect(inputs()[0]!.value).toBe('1,500.00'), slow);
    await waitFor(() => expect(screen.getByTestId('pa-total').textContent).toContain('1,500.00'), slow);
    expect(screen.queryByText(/放款时扣收/)).toBeNull();
    const transfer = screen.getByRole('radio', { name: '客户转账' }) as HTMLInputElement;
    expect(transfer.checked).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: '保 存' }));
    expect(await screen.findByText('收取方式不能为空', {}, slow)).toBeTruthy();
    expect(update).not.toHaveBeenCalled();
    fireEvent.click(transfer);
    fireEvent.click(screen.getByRole('button', { name: '保 存' }));
    await waitFor(() => expect(update).toHaveBeenCalled(), slow);
    expect(update.mock.calls[0]![1]).toMatchObject({ method: 'transfer' });
  }, 90_000);
});
