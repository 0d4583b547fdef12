import { describe, expect, it } from 'vitest';
import {
  DAY_COUNT_LABELS,
  DAY_COUNTS,
  interestRuleCalc,
  METHOD_LABELS,
  METHODS,
  type InterestRuleCalcInput,
} from './rule';

const minimal: InterestRuleCalcInput = {
  annualRate: '0.0850',
  dayCount: 'ACT/360',
  method: 'ANNUITY',
  interestCollection: 'BACK',
  feeRate: '0',
  feeCollection: 'INSTALMENT',
  penalty: { mode: 'MULTIPLE', value: '1.5' },
  graceDays: 3,
};

const firstMessage = (input: unknown) => {
  const r = interestRuleCalc.safeParse(input);
  return r.success ? undefined : r.error.issues[0]?.message;
};

describe('interest rule (calculation part)', () => {
  it('applies the defaults: 计头不计尾, Fineract-style allocation orders', () => {
    expect(interestRuleCalc.parse(minimal)).toEqual({
      ...minimal,
      countBothEnds: false,
      allocationOrder: ['PENALTY', 'INTEREST', 'FEE', 'PRINCIPAL'],
      inAdvanceOrder: ['PRINCIPAL', 'PENALTY', 'FEE', 'INTEREST'],
    });
  });

  it('names the field in Chinese', () => {
    expect(firstMessage({ ...minimal, annualRate: '8.5%' })).toBe('年利率必须是不超过8位小数的非负小数');
    expect(firstMessage({ ...minimal, annualRate: '12' })).toBe('年利率不能大于10');
    expect(firstMessage({ ...minimal, annualRate: undefined })).toBe('年利率不能为空');
    expect(firstMessage({ ...minimal, dayCount: 'ACT/366' })).toBe('计息基准取值不正确');
    expect(firstMessage({ ...minimal, method: undefined })).toBe('还款方式不能为空');
    expect(firstMessage({ ...minimal, feeCollection: 'LATER' })).toBe('费用收取方式取值不正确');
    expect(firstMessage({ ...minimal, graceDays: -1 })).toBe('宽限期天数不能小于0');
    expect(firstMessage({ ...minimal, graceDays: 1.5 })).toBe('宽限期天数必须是整数');
    expect(firstMessage({ ...minimal, penalty: { mode: 'WEEKLY', value: '1' } })).toBe('罚息方式取值不正确');
    expect(firstMessage({ ...minimal, penalty: { mode: 'DAILY', value: '0.05' } })).toBe(
      '罚息日利率不能大于0.01',
    );
    expect(firstMessage({ ...minimal, penalty: { mode: 'MULTIPLE', value: 'x' } })).toBe(
      '罚息倍数必须是不超过8位小数的非负小数',
    );
    expect(firstMessage({ ...minimal, allocationOrder: ['PENALTY', 'INTEREST', 'FEE', 'FEE'] })).toBe(
      '还款分配顺序必须包含罚息、利息、费用、本金各一次',
    );
    expect(firstMessage({ ...minimal, inAdvanceOrder: ['PRINCIPAL'] })).toBe(
      '未到期分配顺序必须包含罚息、利息、费用、本金各一次',
    );
    expect(firstMessage({ ...minimal, allocationOrder: ['PENALTY', 'INTEREST', 'FEE', 'CAPITAL'] })).toBe(
      '还款分配顺序取值不正确',
    );
  });

  it('accepts any permutation and a DAILY penalty', () => {
    const r = interestRuleCalc.parse({
      ...minimal,
      countBothEnds: true,
      penalty: { mode: 'DAILY', value: '0.0005' },
      allocationOrder: ['PRINCIPAL', 'FEE', 'INTEREST', 'PENALTY'],
    });
    expect(r.allocationOrder).toEqual(['PRINCIPAL', 'FEE', 'INTEREST', 'PENALTY']);
    expect(r.penalty).toEqual({ mode: 'DAILY', value: '0.0005' });
  });

  it('labels every method and day count for the UI dictionaries', () => {
    expect(METHODS.map((m) => METHOD_LABELS[m])).toEqual([
      '到期一次还本付息',
      '按月付息到期还本',
      '按季付息到期还本',
      '等额本息',
      '等额本金',
      '自定义',
    ]);
    expect(DAY_COUNTS.every((d) => DAY_COUNT_LABELS[d].length > 0)).toBe(true);
  });
});
