import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';

const post = vi.hoisted(() => vi.fn());
const update = vi.hoisted(() => vi.fn());
const exportFile = vi.hoisted(() => vi.fn());
const postXlsx = vi.hoisted(() => vi.fn());
vi.mock('../../shared/request/http', () => ({
  post,
  update,
  exportFile,
  addUpdatedListener: () => () => undefined,
  ApiError: class ApiError extends Error {},
}));
vi.mock('../../shared/request/upload-xlsx', () => ({ postXlsx }));
vi.mock('../../shared/bank/our-accounts', () => ({
  useOurAccountOptions: () => ({
    loading: false,
    options: [{ value: '000000000001', label: '本公司 6214830000000001' }],
  }),
}));

import { INCOME_PATHS, type IncomeImportPreview, type IncomeView } from '@portal/contract/accounts';
import { IMPORT_TEMPLATE_PATH } from '@portal/contract/import-templates';
import { IncomeEditorPage, IncomeImportDialog } from './IncomePages';

afterEach(() => {
  cleanup();
  post.mockReset();
  update.mockReset();
  exportFile.mockReset();
  postXlsx.mockReset();
});

function renderEditor(query = '') {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={qc}>
      <MemoryRouter initialEntries={[`/factoring/accounts/income-editor${query}`]}>
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

describe('来款编辑 of a stored incoming', () => {
  const stored: IncomeView = {
    fiidBizCode: '000000000042',
    bankBizCode: '000000000001',
    bankAccountName: '本公司',
    bankAccountNo: '6214830000000001',
    payerName: '核心买方有限公司',
    payerAccount: null,
    payerBank: null,
    amount: '1234.50',
    allocated: '0.00',
    balance: '1234.50',
    valueDate: '2026-11-26',
    serialNo: 'QZ042',
    source: 'manual',
    state: 'draft',
    remark: null,
    updatedAt: '2026-11-26T08:00:00Z',
    version: 3,
    paids: [],
  };

  it('takes no input until the incoming has arrived (its first fill would overwrite it), then shows it', async () => {
    let answer: (v: IncomeView) => void = () => undefined;
    post.mockImplementation((path: string) =>
      path === INCOME_PATHS.viewBaseInfo
        ? new Promise<IncomeView>((resolve) => (answer = resolve))
        : Promise.resolve([]),
    );
    renderEditor('?fiidBizCode=000000000042');
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith(INCOME_PATHS.viewBaseInfo, undefined, expect.anything()),
    );
    const serial = screen.getByLabelText('银行流水号') as HTMLInputElement;
    const amount = screen.getByLabelText('来款金额') as HTMLInputElement;
    // The form's own inputs and buttons, disabled (not only covered by the spinner).
    expect(serial.disabled).toBe(true);
    expect(amount.disabled).toBe(true);
    expect((saveButton() as HTMLButtonElement).disabled).toBe(true);
    // The spinner shows from antd's own effect.
    await waitFor(() =>
      expect(screen.getByTestId('income-editor').querySelector('.ant-spin-spinning')).not.toBeNull(),
    );

    await act(async () => answer(stored));
    await waitFor(() => expect(serial.disabled).toBe(false));
    expect(serial.value).toBe('QZ042');
    expect(amount.value).toBe('1,234.50');
    expect((saveButton() as HTMLButtonElement).disabled).toBe(false);
    await waitFor(() =>
      expect(screen.getByTestId('income-editor').querySelector('.ant-spin-spinning')).toBeNull(),
    );
  });
});

describe('导入银行流水', () => {
  const PREVIEW: IncomeImportPreview = {
    rows: [
      {
        row: 2,
        item: { serialNo: 'S-1', payerName: '甲', amount: '12345.67', valueDate: '2026-01-14' },
        errors: [],
        duplicate: false,
      },
      {
        row: 3,
        item: { serialNo: 'S-2', payerName: '乙', amount: '100.123', valueDate: '2026-01-14' },
        errors: ['来款金额必须是最多两位小数的金额'],
        duplicate: false,
      },
    ],
    valid: [
      {
        bankBizCode: '000000000001',
        serialNo: 'S-1',
        payerName: '甲',
        amount: '12345.67',
        valueDate: '2026-01-14',
      },
    ],
    total: '12345.67',
  } as IncomeImportPreview;

  it('offers 下载模板, shows that it is reading, then the amounts with separators and the bad row', async () => {
    exportFile.mockResolvedValue(new Blob());
    let answer: (p: IncomeImportPreview) => void = () => undefined;
    postXlsx.mockReturnValue(new Promise<IncomeImportPreview>((resolve) => (answer = resolve)));
    render(<IncomeImportDialog open onClose={() => undefined} />);
    fireEvent.click(screen.getByRole('button', { name: /下载模板/ }));
    expect(exportFile).toHaveBeenCalledWith(
      IMPORT_TEMPLATE_PATH,
      { kind: 'income' },
      { fileName: '银行流水导入模板.xlsx' },
    );

    const input = document.querySelector('input[type="file"]')!;
    const file = new File(['x'], '流水.xlsx', {
      type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    });
    fireEvent.change(input, { target: { files: [file] } });
    await waitFor(() => expect(postXlsx).toHaveBeenCalledTimes(1), { timeout: 10_000 });
    const choose = screen.getByRole('button', { name: /选择xlsx文件/ });
    expect(choose.className).toContain('ant-btn-loading');
    expect(document.querySelector('.ant-modal .ant-spin-spinning')).not.toBeNull();

    await act(async () => answer(PREVIEW));
    const table = screen.getByTestId('income-import-preview');
    expect(table.textContent).toContain('12,345.67');
    expect(table.textContent).toContain('100.123');
    expect(table.textContent).toContain('来款金额必须是最多两位小数的金额');
    expect(screen.getByTestId('income-import-summary').textContent).toContain('有误 1 行');
    expect(choose.className).not.toContain('ant-btn-loading');
  }, 120_000);
});
