import { describe, expect, it } from 'vitest';
import { buildLoginPayload } from './api';
import { safeRedirect } from './LoginPage';

describe('login payload', () => {
  it('trims the user name, fixes userType 2, sends the captcha only with its token', () => {
    const p = buildLoginPayload({ userName: '  admin \t', passWord: ' pw ' });
    expect(p).toMatchObject({ userName: 'admin', passWord: ' pw ', userType: '2', isCode: false });
    expect(p.vCode).toBeUndefined();
    expect(typeof p.browserID).toBe('string');
    const withCaptcha = buildLoginPayload({ userName: 'a', passWord: 'b', vCode: ' 1234 ', vCodeToken: 't' });
    expect(withCaptcha).toMatchObject({ vCode: '1234', vCodeToken: 't', isCode: true });
    expect(buildLoginPayload({ userName: 'a', passWord: 'b' }).browserID).toBe(p.browserID);
  });

  it('follows only same-site redirects', () => {
    expect(safeRedirect('/factoring/pa/mgr?x=1')).toBe('/factoring/pa/mgr?x=1');
    expect(safeRedirect(null)).toBe('/');
    expect(safeRedirect('//evil.example.com')).toBe('/');
    expect(safeRedirect('https://evil.example.com')).toBe('/');
    expect(safeRedirect('/login?redirect=/x')).toBe('/');
  });
});
