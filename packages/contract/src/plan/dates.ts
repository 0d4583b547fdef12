/**
 * Calendar arithmetic on 'YYYY-MM-DD' strings. Dates are calendar days, never instants: everything
 * goes through integer day numbers (days since 1970-01-01, proleptic Gregorian), so no result can
 * depend on the process time zone (the same code runs on the server and in the browser).
 */

export const DAY_COUNTS = ['ACT/360', 'ACT/365', '30/360'] as const;
export type DayCount = (typeof DAY_COUNTS)[number];

const ISO = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** Days in a month, month 1..12. */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

export interface YMD {
  year: number;
  month: number;
  day: number;
}

/** Splits a date string; throws RangeError on a malformed or non-existent date (2023-02-29). */
export function parseDate(date: string): YMD {
  const m = ISO.exec(date);
  if (!m) throw new RangeError(`日期格式不正确：${date}`);
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    throw new RangeError(`日期不存在：${date}`);
  }
  return { year, month, day };
}

export function isValidDate(date: string): boolean {
  const m = ISO.exec(date);
  if (!m) return false;
  const month = Number(m[2]);
  const day = Number(m[3]);
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(Number(m[1]), month);
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

export function formatYMD(year: number, month: number, day: number): string {
  return `${String(year).padStart(4, '0')}-${pad2(month)}-${pad2(day)}`;
}

// H. Hinnant's days_from_civil / civil_from_days: exact integer arithmetic, no Date object.
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** Days since 1970-01-01 (that day is 0). */
export function toDayNumber(date: string): number {
  const { year, month, day } = parseDate(date);
  return daysFromCivil(year, month, day);
}

export function fromDayNumber(n: number): string {
  const z = n + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return formatYMD(yoe + era * 400 + (month <= 2 ? 1 : 0), month, day);
}

export function addDays(date: string, days: number): string {
  return fromDayNumber(toDayNumber(date) + days);
}

/**
 * Adds calendar months; a day that the target month lacks rolls back to its last day
 * (2024-01-31 + 1 = 2024-02-29, 2023-01-31 + 1 = 2023-02-28). Schedules must always add k months
 * to the *start* date (not chain period to period), so a 31st start keeps targeting the month end:
 * Jan 31 -> Feb 29 -> Mar 31 -> Apr 30. A start on Feb 28 keeps the 28th (对日 convention, no
 * end-of-month rule): 2023-02-28 + 1 = 2023-03-28.
 */
export function addMonths(date: string, months: number): string {
  const r = addMonthsYMD(parseDate(date), months);
  return formatYMD(r.year, r.month, r.day);
}

/** addMonths on a parsed date (schedules parse the anchor once). */
export function addMonthsYMD(date: YMD, months: number): YMD {
  const index = date.year * 12 + (date.month - 1) + months;
  const year = Math.floor(index / 12);
  const month = index - year * 12 + 1;
  return { year, month, day: Math.min(date.day, daysInMonth(year, month)) };
}

/** Day number of a parsed date. */
export function ymdToDayNumber(date: YMD): number {
  return daysFromCivil(date.year, date.month, date.day);
}

/** Actual days from `from` to `to` (to − from; negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return toDayNumber(to) - toDayNumber(from);
}

/**
 * 30/360 Bond Basis (ISDA 2006 §4.16(f), also "30/360", "360/360"):
 *   days = 360·(Y2−Y1) + 30·(M2−M1) + (D2−D1), with D1 = 31 → 30, and D2 = 31 → 30 only when D1
 *   (after that change) is 30. There is no February end-of-month adjustment (that is the SIA
 *   "30/360 US" variant): 2024-01-31 → 2024-02-29 counts 29 days, 2024-02-29 → 2024-03-31 counts 32
 *   and 2023-02-28 → 2023-03-28 counts 30. The count is not additive across periods.
 */
export function days360(from: string, to: string): number {
  return days360YMD(parseDate(from), parseDate(to));
}

export function days360YMD(a: YMD, b: YMD): number {
  const d1 = a.day === 31 ? 30 : a.day;
  const d2 = b.day === 31 && d1 === 30 ? 30 : b.day;
  return 360 * (b.year - a.year) + 30 * (b.month - a.month) + (d2 - d1);
}

/** Days of an accrual period under a day count (30/360 days or actual days), 计头不计尾. */
export function dayCountDays(dayCount: DayCount, from: string, to: string): number {
  return dayCount === '30/360' ? days360(from, to) : daysBetween(from, to);
}

/** Days of the year for a day count. ACT/365 is "Fixed": 365 in leap years too. */
export function yearBasis(dayCount: DayCount): 360 | 365 {
  return dayCount === 'ACT/365' ? 365 : 360;
}
