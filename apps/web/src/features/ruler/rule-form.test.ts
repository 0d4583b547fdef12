import { describe, expect, it } from 'vitest';
import type { RuleView } from '@portal/contract/ruler';
import { previewPlan } from './plan-preview';
import {
  checkRule,
  NEW_RULE_VALUES,
  percentToRate,
  rateToPercent,
  viewToForm,
  type RuleFormValues,
} from './rule-form';

const form = (over: Partial<RuleFormValues> = {}): RuleFormValues => ({
  ...NEW_RULE_VALUES,
  name: '测试规则',
  annualRatePct: '8.5',
  ...over,
});

describe('rate conversion (decimal strings, no floats)', () => {
  it('percent -> decimal fraction with at least 4 decimals', () => {
    expect(percentToRate('8.5')).toBe('0.0850');
    expect(percentToRate('0')).toBe('0.0000');
    expect(percentToRate('12.345678')).toBe('0.12345678');
    // 0.1 + 0.2 style float traps do not exist here
    expect(percentToRate('7.3')).toBe('0.0730');
    expect(percentToRate('  ')).toBeUndefined();
    expect(percentToRate(null)).toBeUndefined();
    expect(percentToRate('abc')).toBe('abc');
  });
  it('decimal fraction -> percent without trailing zeros', () => {
    expect(rateToPercent('0.0850')).toBe('8.5');
    expect(rateToPercent('0.0005')).toBe('0.05');
    expect(rateToPercent('0')).toBe('0');
    expect(rateToPercent('')).toBeNull();
  });
});

describe('form validation with the shared schema', () => {
  it('builds the save body the server expects', () => {
    const check = checkRule(form({ penaltyMode: 'DAILY', penaltyValue: '0.05', remark: '  备注 ' }));
    expect(check.ok).toBe(true);
    if (!check.ok) return;
    expect(check.body).toMatchObject({
      name: '测试规则',
      annualRate: '0.0850',
      feeRate: '0.0000',
      penalty: { mode: 'DAILY', value: '0.0005' },
      allocationOrder: ['PENALTY', 'INTEREST', 'FEE', 'PRINCIPAL'],
      remark: '备注',
    });
    expect(check.body.bizCode).toBeUndefined();
    const update = checkRule(form(), { bizCode: '000000000042', version: 3 });
    expect(update.ok && [update.body.bizCode, update.body.version]).toEqual(['000000000042', 3]);
  });
  it('reports the server messages on the right fields', () => {
    const check = checkRule(
      form({ name: ' ', annualRatePct: null, feeRatePct: '1200', graceDays: 400, penaltyValue: '11' }),
    );
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.errors).toMatchObject({
      name: '规则名称不能为空',
      annualRatePct: '年利率不能为空',
      feeRatePct: '费率不能大于10',
      graceDays: '宽限期天数不能大于365',
      penaltyValue: '罚息倍数不能大于10',
    });
  });
  it('round-trips a view', () => {
    const view: RuleView = {
      bizCode: '000000000001',
      version: 2,
      name: '等额本息 6.5%',
      state: 'disabled',
      contBizCode: null,
      remark: null,
      updatedAt: '2026-01-01T00:00:00Z',
      annualRate: '0.0650',
      dayCount: '30/360',
      method: 'ANNUITY',
      interestCollection: 'BACK',
      feeRate: '0.003',
      feeCollection: 'INSTALMENT',
      penalty: { mode: 'DAILY', value: '0.0005' },
      graceDays: 5,
      countBothEnds: true,
      allocationOrder: ['INTEREST', 'PENALTY', 'FEE', 'PRINCIPAL'],
      inAdvanceOrder: ['PRINCIPAL', 'PENALTY', 'FEE', 'INTEREST'],
    };
    const values = viewToForm(view);
    expect(values).toMatchObject({
      annualRatePct: '6.5',
      feeRatePct: '0.3',
      penaltyValue: '0.05',
      remark: '',
    });
    const check = checkRule(values, view);
    expect(check.ok && check.body).toMatchObject({
      annualRate: '0.0650',
      feeRate: '0.0030',
      penalty: { mode: 'DAILY', value: '0.0005' },
      allocationOrder: view.allocationOrder,
    });
  });
});

describe('live preview', () => {
  const sample = { principal: '1000000.00', startDate: '2026-01-15', termMonths: 12 };
  it('runs the engine and totals the items in decimal', () => {
    // 1,000,000.00 × 8.5 % × 365 / 360 = 86,180.555… -> 86,180.56 (BULLET, ACT/360, one period)
    const p = previewPlan(form(), sample);
    expect(p.ok).toBe(true);
    if (!p.ok) return;
    expect(p.plan.items).toHaveLength(1);
    expect(p.totals).toEqual({
      principal: '1000000.00',
      interest: '86180.56',
      fee: '0.00',
      total: '1086180.56',
    });
  });
  it('equal principal over 12 months sums to the principal', () => {
    const p = previewPlan(form({ method: 'EQUAL_PRINCIPAL' }), sample);
    expect(p.ok && p.plan.items.length).toBe(12);
    expect(p.ok && p.totals.principal).toBe('1000000.00');
  });
  it('returns input errors instead of throwing', () => {
    expect(previewPlan(form({ annualRatePct: null }), sample)).toMatchObject({
      ok: false,
      message: '年利率不能为空',
    });
    expect(previewPlan(form(), { ...sample, termMonths: null })).toMatchObject({
      ok: false,
      field: 'termMonths',
      message: '期限（月）必须是1到360之间的整数',
    });
    expect(previewPlan(form(), { ...sample, principal: '1.234' })).toMatchObject({
      ok: false,
      field: 'principal',
    });
    expect(previewPlan(form({ method: 'CUSTOM' }), sample)).toMatchObject({
      ok: false,
      field: 'customItems',
    });
  });
});
