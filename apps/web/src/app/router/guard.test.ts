import { describe, expect, it } from 'vitest';
import type { PathAccess } from '../../shared/routing/route-table';
import { decideGuard, externalSiteUrl, type GuardInput } from './guard';

const access =
  (map: Record<string, PathAccess> = {}) =>
  (path: string): PathAccess =>
    map[path] ?? 'unknown';

function input(over: Partial<GuardInput>): GuardInput {
  return {
    path: '/dashboard',
    fullPath: '/dashboard',
    hasToken: true,
    rolesLoaded: true,
    access: access({
      '/dashboard': 'public',
      '/factoring/contract/info': 'permitted',
      '/permission/role': 'forbidden',
    }),
    frame: { embedded: false, headerHidden: false },
    sites: {},
    ...over,
  };
}

describe('session guard decisions', () => {
  it('opens /login and /auth-redirect without a session', () => {
    expect(decideGuard(input({ path: '/login', fullPath: '/login', hasToken: false }))).toEqual({
      type: 'allow',
    });
    expect(
      decideGuard(input({ path: '/auth-redirect', fullPath: '/auth-redirect?code=1', hasToken: false })),
    ).toEqual({
      type: 'allow',
    });
  });

  it('sends any other path without a session to /login?redirect= with the original path', () => {
    expect(
      decideGuard(
        input({
          path: '/factoring/contract/info',
          fullPath: '/factoring/contract/info?x=1',
          hasToken: false,
        }),
      ),
    ).toEqual({
      type: 'redirect',
      to: '/login?redirect=%2Ffactoring%2Fcontract%2Finfo%3Fx%3D1',
    });
    expect(decideGuard(input({ path: '/404', fullPath: '/404', hasToken: false }))).toEqual({
      type: 'redirect',
      to: '/login?redirect=%2F404',
    });
  });

  it('sends /login with a session to /', () => {
    expect(decideGuard(input({ path: '/login', fullPath: '/login?redirect=/x' }))).toEqual({
      type: 'redirect',
      to: '/',
    });
  });

  it('loads the session first when the roles are not loaded', () => {
    expect(decideGuard(input({ rolesLoaded: false }))).toEqual({ type: 'load-session' });
    // /auth-redirect never waits for the roles
    expect(decideGuard(input({ path: '/auth-redirect', rolesLoaded: false }))).toEqual({ type: 'allow' });
  });

  it('allows public and permitted paths, sends unknown ones to /404 and forbidden ones to /401', () => {
    expect(decideGuard(input({}))).toEqual({ type: 'allow' });
    expect(decideGuard(input({ path: '/factoring/contract/info' }))).toEqual({ type: 'allow' });
    expect(decideGuard(input({ path: '/permission/role' }))).toEqual({ type: 'redirect', to: '/401' });
    expect(decideGuard(input({ path: '/no/such/page' }))).toEqual({ type: 'redirect', to: '/404' });
  });

  it('sends /ec and /fc to the voucher site and /dw to the other site, at the same hash path, when configured', () => {
    const sites = { voucher: 'https://voucher.example.com/', dw: 'https://dw.example.com' };
    expect(
      decideGuard(input({ path: '/ec/permit/comp', fullPath: '/ec/permit/comp?judge=comp', sites })),
    ).toEqual({
      type: 'external',
      url: 'https://voucher.example.com/#/ec/permit/comp?judge=comp',
    });
    expect(decideGuard(input({ path: '/fc/fc', fullPath: '/fc/fc', sites, hasToken: false }))).toEqual({
      type: 'external',
      url: 'https://voucher.example.com/#/fc/fc',
    });
    expect(decideGuard(input({ path: '/dw/permit/comp', fullPath: '/dw/permit/comp', sites }))).toEqual({
      type: 'external',
      url: 'https://dw.example.com/#/dw/permit/comp',
    });
    // /ecx is not the /ec section; unset sites are served here
    expect(externalSiteUrl('/ecx', '/ecx', sites)).toBeNull();
    expect(
      decideGuard(
        input({
          path: '/ec/permit/comp',
          fullPath: '/ec/permit/comp',
          access: access({ '/ec/permit/comp': 'permitted' }),
        }),
      ),
    ).toEqual({
      type: 'allow',
    });
  });

  it('moves the top window when embedded with the header hidden and the path has fewer than 5 segments', () => {
    const frame = { embedded: true, headerHidden: true };
    expect(
      decideGuard(
        input({ path: '/crm/corporation/list', fullPath: '/crm/corporation/list?hideHeader=1&a=2', frame }),
      ),
    ).toEqual({
      type: 'top-window',
      url: '/crm/corporation/list?a=2',
    });
    const deep = '/crm/corporation/edit/corporation/extra';
    expect(
      decideGuard(input({ path: deep, fullPath: deep, frame, access: access({ [deep]: 'permitted' }) })),
    ).toEqual({ type: 'allow' });
    // not embedded, or the header shown: no move
    expect(decideGuard(input({ frame: { embedded: false, headerHidden: true } }))).toEqual({ type: 'allow' });
    expect(decideGuard(input({ frame: { embedded: true, headerHidden: false } }))).toEqual({ type: 'allow' });
  });
});
