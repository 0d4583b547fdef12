import { z } from 'zod';
import { optionalText, text } from './fields';

/** PROTOCOL.md §2 and §7: the session calls (without the /api prefix, as SPEC writes them). */
export const AUTH_PATHS = {
  rsaKey: '/admin/portal/login/user/rsa/secretKey',
  captcha: '/admin/portal/api/login/captcha',
  login: '/admin/portal/api/login/user/mobileNumberLogin',
  logout: '/admin/portal/user/logout',
  userInfo: '/admin/portal/user/info',
  menus: '/admin/portal/user/res/menus',
  buttons: '/admin/portal/user/res/menu/btns',
  passwordUpdate: '/admin/portal/user/password/update',
} as const;

/** SPEC §3 login payload; userType is always '2' (internal staff). */
export const loginSchema = z.object({
  userName: text('用户名', 64),
  passWord: z.string({ error: '密码不能为空' }).min(1, '密码不能为空').max(200, '密码过长'),
  userType: z.literal('2', { error: '用户类型不正确' }),
  vCode: optionalText('验证码', 16),
  vCodeToken: optionalText('验证码标识', 100),
  browserID: optionalText('浏览器标识', 200),
  code: optionalText('code', 200),
  isPassing: z.unknown().optional(),
  isCode: z.unknown().optional(),
});
export type LoginPayload = z.input<typeof loginSchema>;

export interface LoginResult {
  accessToken: string;
  mustChangePassword: boolean;
}

export interface UserInfo {
  userCode: string;
  userName: string;
  name: string;
  avatar: string;
  introduction: string;
  mustChangePassword: boolean;
  deptCode: string | null;
  dataScope: 'all' | 'dept' | 'self';
}

export const menuButtonsSchema = z.object({ menuCode: text('菜单编码', 100) });

export const LOGIN_MESSAGES = {
  badCredentials: '用户名或密码错误',
  captchaRequired: '请输入验证码',
  captchaWrong: '验证码错误',
  locked: '登录失败次数过多，账号已锁定15分钟，请稍后再试',
  disabled: '账号已停用，请联系管理员',
  oldPasswordWrong: '旧密码不正确',
} as const;

/** PROTOCOL.md §2: captcha after 3 failures, lock after 10 failures in 15 minutes, for 15 minutes. */
export const CAPTCHA_AFTER_FAILURES = 3;
export const LOCK_AFTER_FAILURES = 10;
export const LOCK_WINDOW_MINUTES = 15;
