import { LOGIN_PATH, normalizePath, segmentCount, type PathAccess } from '../../shared/routing/route-table';

/** Open without a session (docs/architecture.md "The web shell"). */
export const OPEN_PATHS: readonly string[] = ['/login', '/auth-redirect'];

/** The query flag of a frame that hides the header menu (the embedding page sets it). */
export const HIDE_HEADER_PARAM = 'hideHeader';

/** The iframe rule applies to paths with fewer than this many segments. */
export const FRAME_SEGMENT_LIMIT = 5;

export interface ExternalSites {
  /** Voucher admin site: /ec (凭证) and /fc (银企链). */
  voucher?: string | undefined;
  /** The other admin site: /dw (山高E融). */
  dw?: string | undefined;
}

export interface GuardInput {
  path: string;
  /** Path with query, as the user asked for it. */
  fullPath: string;
  hasToken: boolean;
  rolesLoaded: boolean;
  /** Where the path stands for the signed-in user's generated routes (used once roles are loaded). */
  access: (path: string) => PathAccess;
  frame: { embedded: boolean; headerHidden: boolean };
  sites: ExternalSites;
}

export type GuardAction =
  | { type: 'allow' }
  | { type: 'redirect'; to: string }
  | { type: 'external'; url: string }
  | { type: 'top-window'; url: string }
  | { type: 'load-session' };

function startsWithSection(path: string, section: string): boolean {
  return path === section || path.startsWith(`${section}/`);
}

function joinHash(site: string, fullPath: string): string {
  return `${site.replace(/\/+$/, '').replace(/#.*$/, '')}/#${fullPath}`;
}

/** /ec and /fc go to the voucher site, /dw to the other site, at the same hash path. */
export function externalSiteUrl(path: string, fullPath: string, sites: ExternalSites): string | null {
  if (sites.voucher && (startsWithSection(path, '/ec') || startsWithSection(path, '/fc')))
    return joinHash(sites.voucher, fullPath);
  if (sites.dw && startsWithSection(path, '/dw')) return joinHash(sites.dw, fullPath);
  return null;
}

export function withoutParam(fullPath: string, name: string): string {
  const q = fullPath.indexOf('?');
  if (q < 0) return fullPath;
  const params = new URLSearchParams(fullPath.slice(q + 1));
  params.delete(name);
  const rest = params.toString();
  return rest ? `${fullPath.slice(0, q)}?${rest}` : fullPath.slice(0, q);
}

export function loginRedirect(fullPath: string): string {
  return `${LOGIN_PATH}?redirect=${encodeURIComponent(fullPath)}`;
}

/**
 * The session guard's decision for one navigation (docs/architecture.md "The web shell"), as a pure function:
 * 1. /ec, /fc, /dw leave for their admin site when one is configured;
 * 2. in a frame that hides the header menu, a path of fewer than 5 segments moves the top window;
 * 3. without a token only /login and /auth-redirect open, anything else goes to /login?redirect=;
 * 4. with a token /login goes to /; before the roles are loaded the session is loaded first;
 * 5. a path outside the generated routes goes to /404; one the user's menus do not grant to /401.
 */
export function decideGuard(input: GuardInput): GuardAction {
  const path = normalizePath(input.path);
  const external = externalSiteUrl(path, input.fullPath, input.sites);
  if (external) return { type: 'external', url: external };

  if (input.frame.embedded && input.frame.headerHidden && segmentCount(path) < FRAME_SEGMENT_LIMIT) {
    return { type: 'top-window', url: withoutParam(input.fullPath, HIDE_HEADER_PARAM) };
  }

  if (!input.hasToken) {
    return OPEN_PATHS.includes(path)
      ? { type: 'allow' }
      : { type: 'redirect', to: loginRedirect(input.fullPath) };
  }
  if (path === LOGIN_PATH) return { type: 'redirect', to: '/' };
  if (OPEN_PATHS.includes(path)) return { type: 'allow' };
  if (!input.rolesLoaded) return { type: 'load-session' };

  const access = input.access(path);
  if (access === 'forbidden') return { type: 'redirect', to: '/401' };
  if (access === 'unknown') return { type: 'redirect', to: '/404' };
  return { type: 'allow' };
}
