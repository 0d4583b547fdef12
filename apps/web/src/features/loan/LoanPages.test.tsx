import { renderScreen } from '../../test/render-screen';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { BANK_PATHS, type BankAccountView } from '@portal/contract/bank';
import { LOAN_PATHS, type LoanView } from '@portal/contract/loan';

const post = vi.hoisted(() => vi.fn());
const update = vi.hoisted(() => vi.fn());
vi.mock('../../shared/request/http', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../shared/request/http')>()),
  post,
  update,
}));

import { clearUnsaved, isDirty } from '../../shared/editor/unsaved';
import { LOAN_ROUTES } from './api';
import { LoanEditorPage } from './LoanPages';

// Only the fields the editor reads: the rest of the view is the list row's.
const view = {
  loanBizCode: '000000000021',
  contBizCode: '000000000011',
  contractNo: 'BL-2027-0002',
  custCode: '000000000003',
  custName: '放款测试供应商有限公司',
  state: 'draft',
  valueDate: '2027-03-01',
  payBankBizCode: '000000000031',
  payeeBankBizCode: '000000000032',
  serialNo: 'FK0001',
  remark: null,
  version: 2,
  financingAmount: '300000.00',
  lines: [],
  deductedTotal: '0.00',
  prepaidTotal: '0.00',
  netAmount: '300000.00',
} as unknown as LoanView;

// antd forms render slowly in jsdom, the more so on a busy machine.
const slow = { timeout: 30_000 };

const account = (bizCode: string, purpose: BankAccountView['purpose'], accountName: string) =>
  ({
    bizCode,
    bankName: '中国工商银行上海分行',
    accountNo: '6222021001123456789',
    accountName,
    purpose,
  }) as BankAccountView;
const ours = account('000000000031', 'pay', '本公司付款户');
const payee = account('000000000032', 'collect', '放款测试供应商有限公司');

function renderEditor() {
  post.mockImplementation((path: string, body?: { ownerType?: string }) => {
    if (path === LOAN_PATHS.viewBaseInfo) return Promise.resolve(view);
    if (path === BANK_PATHS.list)
      return Promise.resolve({ list: [body?.ownerType === 'self' ? ours : payee] });
    if (path === LOAN_PATHS.planDraft) return Promise.reject(new Error('no plan here'));
    // The rejection notice of the editor frame asks the workflow; nothing to show here.
    return Promise.reject(new Error(`unexpected ${path}`));
  });
  update.mockResolvedValue({ ok: true, data: { loanBizCode: view.loanBizCode, version: 3 } });
  renderScreen(<LoanEditorPage />, `${LOAN_ROUTES.editor}?loanBizCode=${view.loanBizCode}`);
}

afterEach(() => {
  cleanup();
  post.mockReset();
  update.mockReset();
  clearUnsaved();
});

describe('放款单编辑 on the editor frame', () => {
  it('marks typed input unsaved and refuses an empty 银行流水号 before sending', async () => {
    renderEditor();
    const serial = screen.getByLabelText('银行流水号') as HTMLInputElement;
    await waitFor(() => expect(serial.value).toBe('FK0001'), slow);
    expect(isDirty(LOAN_ROUTES.editor)).toBe(false);
    fireEvent.change(serial, { target: { value: '' } });
    expect(isDirty(LOAN_ROUTES.editor)).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: '保 存' }));
    expect(await screen.findByText('银行流水号不能为空', {}, slow)).toBeTruthy();
    expect(update).not.toHaveBeenCalled();
  }, 90_000);

  it('saves a draft with its code, version and the fields as loaded', async () => {
    renderEditor();
    const serial = screen.getByLabelText('银行流水号') as HTMLInputElement;
    await waitFor(() => expect(serial.value).toBe('FK0001'), slow);
    fireEvent.click(screen.getByRole('button', { name: '保存并提交' }));
    await waitFor(() => expect(update).toHaveBeenCalled(), slow);
    expect(update.mock.calls[0]![0]).toBe(LOAN_PATHS.saveBaseInfo);
    expect(update.mock.calls[0]![1]).toEqual({
      contBizCode: view.contBizCode,
      valueDate: '2027-03-01',
      payBankBizCode: '000000000031',
      payeeBankBizCode: '000000000032',
      serialNo: 'FK0001',
      remark: '',
      loanBizCode: view.loanBizCode,
      version: 2,
      submit: true,
    });
  }, 90_000);

  it('labels its two account boxes and shows each account’s bank, number and purpose', async () => {
    renderEditor();
    const serial = screen.getByLabelText('银行流水号') as HTMLInputElement;
    await waitFor(() => expect(serial.value).toBe('FK0001'), slow);
    for (const [label, shown] of [
      ['付款账户', '中国工商银行上海分行 6222 0210 0112 3456 789（付款账户）本公司付款户'],
      ['收款账户', '中国工商银行上海分行 6222 0210 0112 3456 789（收款账户）放款测试供应商有限公司'],
    ] as const) {
      // A visible label beside the box, not only a placeholder or an aria-label.
      const item = [...document.querySelectorAll('.ant-form-item')].find(
        (el) => el.querySelector('.ant-form-item-label')?.textContent === label,
      );
      expect(item, `${label} has a label`).toBeTruthy();
      // The box shows the saved account as the picker names it.
      await waitFor(() => expect(item!.textContent).toContain(shown), slow);
    }
  }, 90_000);
});
