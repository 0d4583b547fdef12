import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  addMonths,
  dayCountDays,
  days360,
  daysBetween,
  daysInMonth,
  fromDayNumber,
  isLeapYear,
  isValidDate,
  parseDate,
  toDayNumber,
  yearBasis,
} from './dates';

describe('plan dates', () => {
  it('knows leap years (Gregorian century rule)', () => {
    expect([1900, 2000, 2023, 2024, 2100].map(isLeapYear)).toEqual([false, true, false, true, false]);
    expect(daysInMonth(2024, 2)).toBe(29);
    expect(daysInMonth(2023, 2)).toBe(28);
    expect(daysInMonth(2024, 4)).toBe(30);
  });

  it('refuses dates that do not exist', () => {
    expect(isValidDate('2024-02-29')).toBe(true);
    expect(isValidDate('2023-02-29')).toBe(false);
    expect(isValidDate('2024-13-01')).toBe(false);
    expect(isValidDate('2024-1-01')).toBe(false);
    expect(() => parseDate('2023-02-29')).toThrow(RangeError);
  });

  it('adds months with the month-end roll, always from the anchor date', () => {
    expect(addMonths('2024-01-31', 1)).toBe('2024-02-29'); // leap February
    expect(addMonths('2023-01-31', 1)).toBe('2023-02-28');
    // A 31st start keeps targeting the month end: Jan 31 -> Feb 29 -> Mar 31 -> Apr 30.
    expect([1, 2, 3].map((k) => addMonths('2024-01-31', k))).toEqual([
      '2024-02-29',
      '2024-03-31',
      '2024-04-30',
    ]);
    expect(addMonths('2023-02-28', 1)).toBe('2023-03-28'); // 对日, no end-of-month rule
    expect(addMonths('2024-11-30', 3)).toBe('2025-02-28'); // across a year end
    expect(addMonths('2024-03-31', -1)).toBe('2024-02-29');
    expect(addMonths('2024-01-15', 360)).toBe('2054-01-15');
  });

  it('counts actual days across February and year ends', () => {
    expect(daysBetween('2024-02-28', '2024-03-01')).toBe(2); // 28th, 29th
    expect(daysBetween('2023-02-28', '2023-03-01')).toBe(1);
    expect(daysBetween('2023-12-31', '2024-12-31')).toBe(366);
    expect(daysBetween('2024-03-01', '2024-02-28')).toBe(-2);
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2024-12-31', 1)).toBe('2025-01-01');
    expect(toDayNumber('1970-01-01')).toBe(0);
    expect(fromDayNumber(-1)).toBe('1969-12-31');
  });

  it('counts 30/360 on the Bond Basis (ISDA 2006 §4.16(f))', () => {
    expect(days360('2024-01-15', '2024-02-15')).toBe(30);
    expect(days360('2024-01-31', '2024-02-29')).toBe(29); // D1 31->30; 30 + (29 − 30)
    expect(days360('2024-02-29', '2024-03-31')).toBe(32); // no February rule: D1 = 29 keeps D2 = 31
    expect(days360('2024-03-31', '2024-04-30')).toBe(30);
    expect(days360('2024-04-30', '2024-05-31')).toBe(30); // D1 = 30 so D2 31 -> 30
    expect(days360('2024-01-01', '2025-01-01')).toBe(360);
    expect(dayCountDays('30/360', '2024-01-31', '2024-02-29')).toBe(29);
    expect(dayCountDays('ACT/365', '2024-01-31', '2024-02-29')).toBe(29);
    expect(dayCountDays('ACT/360', '2024-02-01', '2024-03-01')).toBe(29);
    expect([yearBasis('ACT/360'), yearBasis('ACT/365'), yearBasis('30/360')]).toEqual([360, 365, 360]);
  });

  it('agrees with Date.UTC day numbers over 1900..2200', () => {
    fc.assert(
      fc.property(fc.integer({ min: -25567, max: 84000 }), (n) => {
        const d = new Date(n * 86_400_000);
        const iso = d.toISOString().slice(0, 10);
        expect(fromDayNumber(n)).toBe(iso);
        expect(toDayNumber(iso)).toBe(n);
      }),
      { numRuns: 300 },
    );
  });
});
