import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { PASSWORD_MESSAGES } from '@portal/contract/password';

const changePassword = vi.hoisted(() => vi.fn());
vi.mock('./api', () => ({ changePassword }));

import { setToken, getToken } from '../../shared/auth/token';
import { PasswordDialog, PASSWORD_DIALOG_WIDTH } from './PasswordDialog';

afterEach(() => {
  cleanup();
  changePassword.mockReset();
});

const type = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
const ok = () => fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));

describe('password dialog', () => {
  it('is 680 wide and shows every validation message', async () => {
    expect(PASSWORD_DIALOG_WIDTH).toBe(680);
    render(<PasswordDialog open onClose={() => {}} onChanged={() => {}} />);
    ok();
    expect(await screen.findByText(PASSWORD_MESSAGES.oldRequired)).toBeTruthy();
    expect(screen.getByText(PASSWORD_MESSAGES.newRequiredField)).toBeTruthy();
    expect(screen.getByText(PASSWORD_MESSAGES.confirmRequired)).toBeTruthy();

    type('确认密码', 'x');
    expect(await screen.findByText(PASSWORD_MESSAGES.newRequired)).toBeTruthy();

    type('旧密码', 'Old@12345678');
    type('新密码', 'weak');
    expect(await screen.findByText(PASSWORD_MESSAGES.pattern)).toBeTruthy();
    type('新密码', 'Old@12345678');
    expect(await screen.findByText(PASSWORD_MESSAGES.sameAsOld)).toBeTruthy();
    type('新密码', 'New@12345678');
    expect(await screen.findByText(PASSWORD_MESSAGES.mismatch)).toBeTruthy();
    expect(changePassword).not.toHaveBeenCalled();
  });

  it('sends pwd/newPwd/reNewPwd; success clears the tokens and returns to login', async () => {
    changePassword.mockResolvedValue({ status: 200, ok: true, msg: '操作成功', data: null });
    setToken('tok');
    const onChanged = vi.fn();
    render(<PasswordDialog open onClose={() => {}} onChanged={onChanged} />);
    type('旧密码', 'Old@12345678');
    type('新密码', 'New@12345678');
    type('确认密码', 'New@12345678');
    ok();
    await waitFor(() => expect(onChanged).toHaveBeenCalled());
    expect(changePassword).toHaveBeenCalledWith({
      pwd: 'Old@12345678',
      newPwd: 'New@12345678',
      reNewPwd: 'New@12345678',
    });
    expect(getToken()).toBeUndefined();
  });
});
