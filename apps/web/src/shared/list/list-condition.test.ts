import { beforeEach, describe, expect, it } from 'vitest';
import {
  applyRouteKey,
  clearListConditions,
  listConditionKey,
  readListCondition,
  saveListCondition,
  trackRouteForListCondition,
  type ListConditionState,
} from './list-condition';

const cond = { filters: { contName: '甲' }, pageNum: 3, pageSize: 20 };

describe('list-condition rule', () => {
  beforeEach(() => clearListConditions());

  it('gives a list and its editor/view pages one key', () => {
    expect(listConditionKey('/factoring/contract/info')).toBe('/factoring/contract/info');
    expect(listConditionKey('/factoring/contract/info-editor')).toBe('/factoring/contract/info');
    expect(listConditionKey('/factoring/contract/info-view')).toBe('/factoring/contract/info');
    expect(listConditionKey('/factoring/contract/change-view')).toBe('/factoring/contract/change');
    expect(listConditionKey('/dashboard')).toBe('/dashboard');
  });

  it('keeps the condition while one key is tracked, clears it when a second key accumulates', () => {
    let s: ListConditionState = { keys: [], conditions: {} };
    s = applyRouteKey(s, '/l');
    s = { ...s, conditions: { '/l': cond } };
    expect(applyRouteKey(s, '/l')).toBe(s);
    const after = applyRouteKey(s, '/other');
    expect(after).toEqual({ keys: ['/other'], conditions: {} });
  });

  it('restores the search after list -> editor -> list, not after visiting another list', () => {
    trackRouteForListCondition('/factoring/contract/info');
    saveListCondition('/factoring/contract/info', cond);
    trackRouteForListCondition('/factoring/contract/info-editor');
    trackRouteForListCondition('/factoring/contract/info');
    expect(readListCondition('/factoring/contract/info')).toEqual(cond);

    trackRouteForListCondition('/factoring/pa/mgr');
    trackRouteForListCondition('/factoring/contract/info');
    expect(readListCondition('/factoring/contract/info')).toBeUndefined();
  });
});
