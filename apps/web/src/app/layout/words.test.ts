import { describe, expect, it } from 'vitest';
import { SIZE_OPTIONS } from './settings-store';
import { SIZE_SWITCH_MESSAGE } from './management/SizeSelect';

const LATIN = /[A-Za-z]/;

describe('the size menu in Chinese', () => {
  it('names every size and the switch in Chinese', () => {
    expect(SIZE_OPTIONS.filter((o) => LATIN.test(o.label))).toEqual([]);
    expect(SIZE_OPTIONS.map((o) => o.label)).toEqual(['默认', '中等', '紧凑', '迷你']);
    expect(SIZE_SWITCH_MESSAGE).not.toMatch(LATIN);
  });
});
