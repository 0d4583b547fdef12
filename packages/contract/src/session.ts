/**
 * The session calls' paths, answers and messages, without zod: the login page's first chunk
 * imports these, and the schemas in `auth.ts` would bring the whole validator along.
 */

/** The session calls, without the /api prefix (docs/protocol.md "Sessions"). */
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

export const LOGIN_MESSAGES = {
  badCredentials: '用户名或密码错误',
  captchaRequired: '请输入验证码',
  captchaWrong: '验证码错误',
  locked: '登录失败次数过多，账号已锁定15分钟，请稍后再试',
  /** Right password, account disabled: says no more than that (SECURITY.md "Sign-in"). */
  cannotSignIn: '该账号无法登录，请联系管理员',
  /** Over the per-IP or per-user-name login limit (LOGIN_RATE_PER_*_PER_MINUTE). */
  tooFrequent: '登录尝试过于频繁，请稍后再试',
  oldPasswordWrong: '旧密码不正确',
} as const;

/**
 * docs/protocol.md "Sessions": captcha after 3 failures, lock after 10 failures in 15 minutes, for 15
 * minutes.
 */
export const CAPTCHA_AFTER_FAILURES = 3;
export const LOCK_AFTER_FAILURES = 10;
export const LOCK_WINDOW_MINUTES = 15;
