import { getRuntimeConfig } from '../config/runtime';
import { getCookie, removeCookie, setCookie } from '../lib/cookie';

/** The session token lives in the cookie Admin-Token, on the configured parent domain. */
export const TOKEN_COOKIE = 'Admin-Token';

export function getToken(): string | undefined {
  return getCookie(TOKEN_COOKIE) || undefined;
}

export function setToken(token: string): void {
  setCookie(TOKEN_COOKIE, token, { domain: getRuntimeConfig().cookieDomain });
}

export function removeToken(): void {
  removeCookie(TOKEN_COOKIE, { domain: getRuntimeConfig().cookieDomain });
}
