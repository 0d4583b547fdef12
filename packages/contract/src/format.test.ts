import { describe, expect, it } from 'vitest';
import { formatCode, formatDate, formatDateTime, formatMoney, formatYuan } from './format';

describe('formatters', () => {
  it('pads codes to 12 digits', () => {
    expect(formatCode(42)).toBe('000000000042');
    expect(formatCode('7')).toBe('000000000007');
    expect(formatCode('123456789012')).toBe('123456789012');
    expect(formatCode(null)).toBe('');
  });
  it('formats money with separators, 2 decimals, half-up', () => {
    expect(formatMoney('1234567.8')).toBe('1,234,567.80');
    expect(formatMoney('0')).toBe('0.00');
    expect(formatMoney('-1000.005')).toBe('-1,000.01');
    expect(formatMoney('999.995')).toBe('1,000.00');
    expect(formatMoney('12345678901234567.89')).toBe('12,345,678,901,234,567.89');
    expect(formatMoney('-0.001')).toBe('0.00');
    expect(formatMoney('')).toBe('');
  });
  it('formats amounts in messages as 1,920,000.00元', () => {
    expect(formatYuan('1920000')).toBe('1,920,000.00元');
    expect(formatYuan('-2400.5')).toBe('-2,400.50元');
  });
  it('formats dates as YYYY-MM-DD, instants at a fixed offset', () => {
    expect(formatDate('2024-02-29')).toBe('2024-02-29');
    expect(formatDate('2024-02-29T17:00:00Z')).toBe('2024-03-01');
    expect(formatDate('2024-02-29T17:00:00Z', 0)).toBe('2024-02-29');
    expect(formatDateTime('2024-02-29T17:00:05Z')).toBe('2024-03-01 01:00:05');
    expect(formatDate(undefined)).toBe('');
  });
});
