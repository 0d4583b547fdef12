import { describe, expect, it } from 'vitest';
import { toIsoTimestamp } from './columns';

describe('timestamps leave the database as ISO-8601 with offset', () => {
  it.each([
    ['2026-11-23 01:10:02.633+00', '2026-11-23T01:10:02.633+00:00'],
    ['2026-11-23 09:10:02+08', '2026-11-23T09:10:02+08:00'],
    ['2026-11-23 09:10:02.5+05:30', '2026-11-23T09:10:02.5+05:30'],
    [new Date('2026-11-23T01:10:02.633Z'), '2026-11-23T01:10:02.633Z'],
  ])('%s -> %s', (input, out) => {
    expect(toIsoTimestamp(input)).toBe(out);
    expect(Number.isNaN(Date.parse(out))).toBe(false);
  });
});
