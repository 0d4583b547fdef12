import type { LoginPayload } from '@portal/contract/auth';
import { AUTH_PATHS, type LoginResult, type UserInfo } from '@portal/contract/session';
import { post, request } from '../../shared/request/http';
import { randomAlnum } from '@portal/contract/envelope';

export interface Captcha {
  vCodeToken: string;
  /** An SVG data URI. */
  image: string;
}

/** User type is always '2' (internal staff). */
export const LOGIN_USER_TYPE = '2';

const BROWSER_ID_KEY = 'portal:browser-id';

/** A stable random id of this browser (the login payload's browserID). */
export function browserId(): string {
  try {
    let id = localStorage.getItem(BROWSER_ID_KEY);
    if (!id) {
      id = randomAlnum(32);
      localStorage.setItem(BROWSER_ID_KEY, id);
    }
    return id;
  } catch {
    return randomAlnum(32);
  }
}

export interface LoginForm {
  userName: string;
  passWord: string;
  vCode?: string;
  vCodeToken?: string;
}

/** Login payload: the user name is trimmed before sending. */
export function buildLoginPayload(form: LoginForm): LoginPayload {
  const withCaptcha = !!form.vCodeToken;
  return {
    userName: form.userName.trim(),
    passWord: form.passWord,
    userType: LOGIN_USER_TYPE,
    vCode: withCaptcha ? (form.vCode ?? '').trim() : undefined,
    vCodeToken: form.vCodeToken,
    browserID: browserId(),
    code: undefined,
    isPassing: withCaptcha,
    isCode: withCaptcha,
  };
}

export function login(form: LoginForm): Promise<LoginResult> {
  return post<LoginResult>(AUTH_PATHS.login, buildLoginPayload(form));
}

export function fetchCaptcha(): Promise<Captcha> {
  return post<Captcha>(AUTH_PATHS.captcha, undefined, { envelope: false, loading: false });
}

export function fetchUserInfo(): Promise<UserInfo> {
  return post<UserInfo>(AUTH_PATHS.userInfo);
}

export function fetchMenuCodes(): Promise<string[]> {
  return post<string[]>(AUTH_PATHS.menus).then((codes) => codes ?? []);
}

/** Revokes the server session; failures are ignored (the local session is cleared regardless). */
export async function logoutCall(): Promise<void> {
  try {
    await post(AUTH_PATHS.logout, undefined, { loading: false });
  } catch {
    // already reported by the request layer, or the session was gone
  }
}

export interface PasswordChangeBody {
  pwd: string;
  newPwd: string;
  reNewPwd: string;
}

/** An answer without a status shows its msg as an error (missingStatusAsError). */
export function changePassword(body: PasswordChangeBody) {
  return request<null>(AUTH_PATHS.passwordUpdate, body, { missingStatusAsError: true });
}
