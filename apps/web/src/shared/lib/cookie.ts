export interface CookieOptions {
  /** Parent domain (e.g. `.example.com`); omitted = current host only. */
  domain?: string | undefined;
  /** Days until expiry; omitted = session cookie. */
  days?: number;
}

export function getCookie(name: string): string | undefined {
  if (typeof document === 'undefined') return undefined;
  const prefix = `${encodeURIComponent(name)}=`;
  for (const part of document.cookie.split(';')) {
    const item = part.trim();
    if (item.startsWith(prefix)) return decodeURIComponent(item.slice(prefix.length));
  }
  return undefined;
}

function attributes(opts: CookieOptions, expires?: Date): string {
  let attrs = '; path=/; SameSite=Lax';
  if (opts.domain) attrs += `; domain=${opts.domain}`;
  if (expires) attrs += `; expires=${expires.toUTCString()}`;
  if (typeof location !== 'undefined' && location.protocol === 'https:') attrs += '; Secure';
  return attrs;
}

export function setCookie(name: string, value: string, opts: CookieOptions = {}): void {
  const expires = opts.days === undefined ? undefined : new Date(Date.now() + opts.days * 86_400_000);
  document.cookie = `${encodeURIComponent(name)}=${encodeURIComponent(value)}${attributes(opts, expires)}`;
}

export function removeCookie(name: string, opts: CookieOptions = {}): void {
  document.cookie = `${encodeURIComponent(name)}=${attributes(opts, new Date(0))}`;
  // A cookie written before the domain setting existed lives on the host only: clear that one too.
  if (opts.domain) document.cookie = `${encodeURIComponent(name)}=${attributes({}, new Date(0))}`;
}
