import { interestRuleCalc, type InterestRuleCalcInput } from '@portal/contract/plan/rule';
import type { SeedContext } from '../../platform/module';
import { nextCode } from '../../platform/db/codes';
import { interestRules } from './schema';

const DEMO: { name: string; calc: InterestRuleCalcInput }[] = [
  {
    name: '标准保理-到期还本付息 8.5%',
    calc: {
      annualRate: '0.0850',
      dayCount: 'ACT/360',
      method: 'BULLET',
      interestCollection: 'BACK',
      feeRate: '0.005',
      feeCollection: 'FRONT',
      penalty: { mode: 'MULTIPLE', value: '1.5' },
      graceDays: 3,
    },
  },
  {
    name: '按月付息到期还本 7.2%',
    calc: {
      annualRate: '0.0720',
      dayCount: 'ACT/365',
      method: 'INTEREST_MONTHLY',
      interestCollection: 'BACK',
      feeRate: '0',
      feeCollection: 'BACK',
      penalty: { mode: 'DAILY', value: '0.0005' },
      graceDays: 0,
    },
  },
  {
    name: '等额本息 6.5%',
    calc: {
      annualRate: '0.0650',
      dayCount: '30/360',
      method: 'ANNUITY',
      interestCollection: 'BACK',
      feeRate: '0.003',
      feeCollection: 'INSTALMENT',
      penalty: { mode: 'MULTIPLE', value: '1.5' },
      graceDays: 5,
    },
  },
  {
    name: '前置收息保理 9%',
    calc: {
      annualRate: '0.0900',
      dayCount: 'ACT/360',
      method: 'BULLET',
      interestCollection: 'FRONT',
      feeRate: '0.002',
      feeCollection: 'FRONT',
      penalty: { mode: 'MULTIPLE', value: '1.5' },
      graceDays: 0,
    },
  },
];

export async function seedDemoRules({ db }: SeedContext): Promise<void> {
  for (const r of DEMO) {
    const calc = interestRuleCalc.parse(r.calc);
    await db.insert(interestRules).values({
      bizCode: await nextCode(db, 'rule'),
      name: r.name,
      calc,
      annualRate: calc.annualRate,
      method: calc.method,
    });
  }
}
