import type { RuleView } from '@portal/contract/ruler';

/** An enabled interest rule as the view call answers it, for the ruler screens' tests. */
export const SAMPLE_RULE: RuleView = {
  bizCode: '000000000007',
  version: 4,
  name: '按月付息 7.2%',
  state: 'enabled',
  contBizCode: null,
  remark: null,
  updatedAt: '2026-01-01T00:00:00Z',
  annualRate: '0.0720',
  dayCount: 'ACT/365',
  method: 'INTEREST_MONTHLY',
  interestCollection: 'BACK',
  feeRate: '0',
  feeCollection: 'BACK',
  penalty: { mode: 'MULTIPLE', value: '1.5' },
  graceDays: 0,
  countBothEnds: false,
  allocationOrder: ['PENALTY', 'INTEREST', 'FEE', 'PRINCIPAL'],
  inAdvanceOrder: ['PRINCIPAL', 'PENALTY', 'FEE', 'INTEREST'],
};
