import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { PaidRow } from '@portal/contract/accounts';

const rushRed = vi.hoisted(() => vi.fn());
vi.mock('./api', () => ({ paidApi: { rushRed } }));

import { RushRedDialog } from './RushRedDialog';

afterEach(() => {
  cleanup();
  rushRed.mockReset();
});

const row = { paidBizCode: '000000000042' } as PaidRow;
const submit = () => fireEvent.click(screen.getByRole('button', { name: /提交冲红/ }));

describe('冲红 reason dialog', () => {
  it('refuses an empty or blank reason with the server’s message and sends nothing', async () => {
    render(<RushRedDialog row={row} onClose={() => {}} onDone={() => {}} />);
    submit();
    expect(await screen.findByText('冲红原因不能为空')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('冲红原因'), { target: { value: '   ' } });
    submit();
    expect(await screen.findByText('冲红原因不能为空')).toBeTruthy();
    expect(rushRed).not.toHaveBeenCalled();
  });

  it('sends the reason with the write-off code and opens the red entry', async () => {
    rushRed.mockResolvedValue({
      confirmed: true,
      ok: true,
      data: { paidRedBizCode: '000000000043' },
      msg: '',
    });
    const onDone = vi.fn();
    render(<RushRedDialog row={row} onClose={() => {}} onDone={onDone} />);
    fireEvent.change(screen.getByLabelText('冲红原因'), { target: { value: '付款人错误' } });
    submit();
    await waitFor(() => expect(onDone).toHaveBeenCalledWith('000000000043'));
    expect(rushRed).toHaveBeenCalledWith('000000000042', '付款人错误');
  });
});
