import { describe, expect, it } from 'vitest';
import { PLAN_MISSING_MSG, planProblem, planTermsChanged } from './complete';

const terms = {
  financingAmount: '400000.00',
  startDate: '2026-01-15',
  maturityDate: '2026-07-15',
  ruleBizCode: 'R1',
};

describe('a saved plan ready for submission', () => {
  it('needs items and a frozen rule', () => {
    expect(planProblem([], '400000.00', true)).toBe(PLAN_MISSING_MSG);
    expect(planProblem([{ principal: '400000.00' }], '400000.00', false)).toBe(PLAN_MISSING_MSG);
    expect(planProblem([{ principal: '150000.00' }, { principal: '250000' }], '400000.00', true)).toBeNull();
  });

  it('names both figures when the principal is not the financing amount', () => {
    expect(planProblem([{ principal: '399999.99' }], '400000.00', true)).toBe(
      '还款计划本金合计 399,999.99元 与融资金额 400,000.00元 不一致',
    );
  });

  it('is discarded by a change of amount, dates or rule, not by how the amount is written', () => {
    expect(planTermsChanged(terms, { ...terms, financingAmount: '400000' })).toBe(false);
    expect(planTermsChanged(terms, { ...terms, financingAmount: '400000.01' })).toBe(true);
    expect(planTermsChanged(terms, { ...terms, maturityDate: '2026-07-16' })).toBe(true);
    expect(planTermsChanged(terms, { ...terms, ruleBizCode: 'R2' })).toBe(true);
  });
});
