import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import LoginPage, { validateLogin } from './LoginPage';

afterEach(cleanup);

function renderLogin() {
  const router = createMemoryRouter([{ path: '/login', element: <LoginPage /> }], {
    initialEntries: ['/login'],
  });
  render(<RouterProvider router={router} />);
}

describe('the login form (built without antd)', () => {
  it('asks for each field it needs, 用户名 and 验证码 not blank', () => {
    expect(validateLogin({ userName: '  ', passWord: '', vCode: '' }, false)).toEqual({
      userName: '请输入用户名',
      passWord: '请输入密码',
    });
    expect(validateLogin({ userName: ' a ', passWord: ' ', vCode: ' ' }, true)).toEqual({
      vCode: '请输入验证码',
    });
    expect(validateLogin({ userName: 'a', passWord: 'p', vCode: '' }, false)).toEqual({});
  });

  it('shows the messages on an empty submit, and each goes once its field is filled', () => {
    renderLogin();
    expect(screen.queryByText('请输入用户名')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: '登录' }));
    expect(screen.getByText('请输入用户名')).toBeTruthy();
    expect(screen.getByText('请输入密码')).toBeTruthy();
    expect(screen.getByPlaceholderText('用户名').getAttribute('aria-invalid')).toBe('true');

    fireEvent.change(screen.getByPlaceholderText('用户名'), { target: { value: 'admin' } });
    expect(screen.queryByText('请输入用户名')).toBeNull();
    expect(screen.getByText('请输入密码')).toBeTruthy();
    fireEvent.change(screen.getByPlaceholderText('密码'), { target: { value: 'x' } });
    expect(screen.queryByText('请输入密码')).toBeNull();
  });

  it('shows the password on request', () => {
    renderLogin();
    const password = screen.getByPlaceholderText('密码');
    expect(password.getAttribute('type')).toBe('password');
    fireEvent.click(screen.getByRole('button', { name: '显示密码' }));
    expect(password.getAttribute('type')).toBe('text');
  });
});
