import type { ByteRange } from './storage';

/**
 * One byte range of an HTTP `Range` header (RFC 9110 §14.1.2): `bytes=a-b`, `bytes=a-`, `bytes=-n`.
 * Undefined: no header, several ranges or a unit we do not serve — the whole file is sent.
 * 'unsatisfiable': the range starts past the end (answered 416).
 */
export function parseRange(
  header: string | undefined,
  size: number,
): ByteRange | 'unsatisfiable' | undefined {
  const m = header?.trim().match(/^bytes=(\d*)-(\d*)$/);
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'unsatisfiable';
    return size === 0 ? 'unsatisfiable' : { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size) return 'unsatisfiable';
  if (end < start) return undefined;
  return { start, end };
}
