import Decimal from 'decimal.js';

/** Business codes are 12 digits, zero-padded (docs/protocol.md "On screen"). */
export function formatCode(value: number | bigint | string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const s = String(value).trim();
  if (!/^\d+$/.test(s)) return s;
  return s.padStart(12, '0');
}

/** Money with thousands separators and 2 decimals, rounded half-up to the cent. */
export function formatMoney(value: string | Decimal | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  let d: Decimal;
  try {
    d = new Decimal(value);
  } catch {
    return String(value);
  }
  const fixed = d.toFixed(2, Decimal.ROUND_HALF_UP);
  const negative = fixed.startsWith('-');
  const [intPart, frac] = (negative ? fixed.slice(1) : fixed).split('.') as [string, string];
  const grouped = intPart.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative && fixed !== '-0.00' ? '-' : ''}${grouped}.${frac}`;
}

/** An amount in a message or an audit subject: `1,920,000.00元` (never a raw decimal). */
export function formatYuan(value: string | Decimal): string {
  return `${formatMoney(value)}元`;
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/**
 * Default date format YYYY-MM-DD. A date-only string is returned as it is (it names a
 * calendar day, not an instant); an instant is shown in the given zone offset, default +08:00.
 */
export function formatDate(value: string | Date | null | undefined, offsetMinutes = 480): string {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  const t = typeof value === 'string' ? Date.parse(value) : value.getTime();
  if (Number.isNaN(t)) return '';
  const d = new Date(t + offsetMinutes * 60_000);
  return `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}`;
}

/** Date and time at a fixed zone offset, +08:00 unless told. */
export function formatDateTime(value: string | Date | null | undefined, offsetMinutes = 480): string {
  if (value === null || value === undefined || value === '') return '';
  const t = typeof value === 'string' ? Date.parse(value) : value.getTime();
  if (Number.isNaN(t)) return '';
  const d = new Date(t + offsetMinutes * 60_000);
  return `${formatDate(value, offsetMinutes)} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}`;
}
