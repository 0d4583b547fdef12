import { describe, expect, it } from 'vitest';
import { PlanInputError } from './money';
import { disbursedPlan, generatePlan, type PlanItem, type PlanRule } from './schedule';

const rule = (over: Partial<PlanRule> = {}): PlanRule => ({
  annualRate: '0.0850',
  dayCount: 'ACT/360',
  method: 'BULLET',
  interestCollection: 'BACK',
  feeRate: '0',
  feeCollection: 'BACK',
  countBothEnds: false,
  ...over,
});

/** [dueDate, days, principal, interest, fee] per item, for compact golden tables. */
const rows = (items: PlanItem[]) => items.map((i) => [i.dueDate, i.days, i.principal, i.interest, i.fee]);

function planError(fn: () => unknown): PlanInputError {
  try {
    fn();
  } catch (e) {
    if (e instanceof PlanInputError) return e;
    throw e;
  }
  throw new Error('expected a PlanInputError');
}

describe('generatePlan golden cases', () => {
  it('G1 BULLET, ACT/360, across a leap February', () => {
    const r = generatePlan({
      principal: '1000000',
      startDate: '2024-01-15',
      maturityDate: '2024-04-15',
      rule: rule(),
    });
    // days 2024-01-15 -> 2024-04-15 = 16 (Jan 15..31) + 29 (Feb) + 31 (Mar) + 15 = 91
    // interest 1,000,000 × 0.085 × 91 / 360 = 7,735,000 / 360 = 21,486.111 -> 21486.11
    expect(rows(r.items)).toEqual([['2024-04-15', 91, '1000000.00', '21486.11', '0.00']]);
    expect(r.items[0]!.total).toBe('1021486.11');
    expect([r.totalInterest, r.upfrontInterest, r.maturityDate]).toEqual(['21486.11', '0.00', '2024-04-15']);
  });

  it('G2 BULLET, ACT/365 over 2024-02-29, 计头不计尾 vs 计头又计尾', () => {
    const base = { principal: '500000.00', startDate: '2024-02-01', maturityDate: '2024-03-01' };
    // 2024-02-01 -> 2024-03-01 = 29 days (leap year); 500,000 × 0.06 = 30,000 a year
    // 30,000 × 29 / 365 = 870,000 / 365 = 2,383.5616 -> 2383.56
    const one = generatePlan({ ...base, rule: rule({ annualRate: '0.06', dayCount: 'ACT/365' }) });
    expect(rows(one.items)).toEqual([['2024-03-01', 29, '500000.00', '2383.56', '0.00']]);
    // both ends: 29 + 1 = 30 days; 30,000 × 30 / 365 = 900,000 / 365 = 2,465.7534 -> 2465.75
    const both = generatePlan({
      ...base,
      rule: rule({ annualRate: '0.06', dayCount: 'ACT/365', countBothEnds: true }),
    });
    expect(rows(both.items)).toEqual([['2024-03-01', 30, '500000.00', '2465.75', '0.00']]);
  });

  it('G3 INTEREST_MONTHLY, ACT/360, start on the 31st (month-end roll)', () => {
    const r = generatePlan({
      principal: '1200000',
      startDate: '2024-01-31',
      termMonths: 3,
      rule: rule({ method: 'INTEREST_MONTHLY', annualRate: '0.072' }),
    });
    // 1,200,000 × 0.072 / 360 = 240.00 a day
    // 01-31 -> 02-29: 29 days × 240 = 6960.00; 02-29 -> 03-31: 31 × 240 = 7440.00;
    // 03-31 -> 04-30: 30 × 240 = 7200.00; all principal on the last item
    expect(rows(r.items)).toEqual([
      ['2024-02-29', 29, '0.00', '6960.00', '0.00'],
      ['2024-03-31', 31, '0.00', '7440.00', '0.00'],
      ['2024-04-30', 30, '1200000.00', '7200.00', '0.00'],
    ]);
    expect(r.items.map((i) => i.startDate)).toEqual(['2024-01-31', '2024-02-29', '2024-03-31']);
    expect(r.totalInterest).toBe('21600.00'); // 6960 + 7440 + 7200
  });

  it('G4 INTEREST_MONTHLY, 30/360 Bond Basis, same 31st start', () => {
    const r = generatePlan({
      principal: '1200000',
      startDate: '2024-01-31',
      maturityDate: '2024-04-30',
      rule: rule({ method: 'INTEREST_MONTHLY', annualRate: '0.072', dayCount: '30/360' }),
    });
    // 240.00 a day; 30/360 days: 01-31 -> 02-29 = 30 + (29 − 30) = 29 -> 6960.00;
    // 02-29 -> 03-31 = 30 + (31 − 29) = 32 -> 7680.00; 03-31 -> 04-30 = 30 -> 7200.00
    expect(rows(r.items)).toEqual([
      ['2024-02-29', 29, '0.00', '6960.00', '0.00'],
      ['2024-03-31', 32, '0.00', '7680.00', '0.00'],
      ['2024-04-30', 30, '1200000.00', '7200.00', '0.00'],
    ]);
  });

  it('G5 INTEREST_QUARTERLY, ACT/365, early maturity gives a broken last quarter', () => {
    const r = generatePlan({
      principal: '1000000',
      startDate: '2024-01-10',
      maturityDate: '2024-08-20',
      rule: rule({ method: 'INTEREST_QUARTERLY', annualRate: '0.0730', dayCount: 'ACT/365' }),
    });
    // 1,000,000 × 0.073 / 365 = 200.00 a day
    // 01-10 -> 04-10 = 21 + 29 + 31 + 10 = 91 -> 18200.00; 04-10 -> 07-10 = 20 + 31 + 30 + 10 = 91
    // -> 18200.00; 07-10 -> 08-20 (maturity before the next quarter) = 21 + 20 = 41 -> 8200.00
    expect(rows(r.items)).toEqual([
      ['2024-04-10', 91, '0.00', '18200.00', '0.00'],
      ['2024-07-10', 91, '0.00', '18200.00', '0.00'],
      ['2024-08-20', 41, '1000000.00', '8200.00', '0.00'],
    ]);
  });

  it('G6 ANNUITY, 30/360, 12 months: every instalment but the last is exactly A', () => {
    const r = generatePlan({
      principal: '100000',
      startDate: '2024-01-15',
      termMonths: 12,
      rule: rule({ method: 'ANNUITY', annualRate: '0.12', dayCount: '30/360' }),
    });
    // r = 0.12 / 12 = 0.01; 1.01^12 = 1.12682503; A = 100000 × 0.01 / (1 − 1.01^−12) = 8884.8788
    // -> 8884.88
    // item 1: interest 100000 × 0.01 = 1000.00, principal 8884.88 − 1000.00 = 7884.88, B = 92115.12
    // item 2: interest 92115.12 × 0.01 = 921.1512 -> 921.15, principal 7963.73, B = 84151.39
    // item 3: interest 841.5139 -> 841.51, principal 8043.37, B = 76108.02
    // … items 4..11 the same way; B before item 12 = 8796.88
    // item 12: principal 8796.88 (what is left), interest 87.9688 -> 87.97, total 8884.85
    expect(rows(r.items).slice(0, 3)).toEqual([
      ['2024-02-15', 30, '7884.88', '1000.00', '0.00'],
      ['2024-03-15', 30, '7963.73', '921.15', '0.00'],
      ['2024-04-15', 30, '8043.37', '841.51', '0.00'],
    ]);
    expect(rows(r.items)[11]).toEqual(['2025-01-15', 30, '8796.88', '87.97', '0.00']);
    expect(r.items.slice(0, 11).map((i) => i.total)).toEqual(Array(11).fill('8884.88'));
    expect(r.items[11]!.total).toBe('8884.85');
    // Σ interest = 11 × 8884.88 + 8884.85 − 100000 = 97733.68 + 8884.85 − 100000 = 6618.53
    expect(r.totalInterest).toBe('6618.53');
  });

  it('G6b ANNUITY, ACT/360: the period rate ignores the days, so the table is the 30/360 one', () => {
    // Months of 31, 29, 31, 30 … days: interest still outstanding × 0.12 / 12, totals still A.
    const r = generatePlan({
      principal: '100000',
      startDate: '2024-01-31',
      termMonths: 12,
      rule: rule({ method: 'ANNUITY', annualRate: '0.12', dayCount: 'ACT/360' }),
    });
    expect(r.items.map((i) => [i.principal, i.interest])).toEqual(
      generatePlan({
        principal: '100000',
        startDate: '2024-01-15',
        termMonths: 12,
        rule: rule({ method: 'ANNUITY', annualRate: '0.12', dayCount: '30/360' }),
      }).items.map((i) => [i.principal, i.interest]),
    );
    // 2024-01-31 + 1 month = 2024-02-29 (29 days), + 2 months = 2024-03-31 (31 days)
    expect(r.items.slice(0, 2).map((i) => [i.dueDate, i.days])).toEqual([
      ['2024-02-29', 29],
      ['2024-03-31', 31],
    ]);
    expect(r.items.slice(0, 11).every((i) => i.total === '8884.88')).toBe(true);
    expect(r.items[11]!.total).toBe('8884.85');
  });

  it('G7 ANNUITY, ACT/365, broken last period: only the broken item prorates by days', () => {
    const r = generatePlan({
      principal: '12000',
      startDate: '2023-01-01',
      maturityDate: '2023-03-15',
      rule: rule({ method: 'ANNUITY', annualRate: '0.10', dayCount: 'ACT/365' }),
    });
    // n = 3, r = 0.1 / 12 = 0.00833333; q^3 = 1.02520891; A = 12000 × r / (1 − q^−3) = 4066.8521
    // -> 4066.85
    // item 1: interest 12000 × r = 100.00, principal 3966.85, B = 8033.15
    // item 2: interest 8033.15 × r = 66.9429 -> 66.94, principal 3999.91, B = 4033.24
    // item 3 (03-01 -> 03-15, 14 days, broken): principal 4033.24, interest 4033.24 × 0.1 × 14 / 365
    //    = 15.4700 -> 15.47
    expect(rows(r.items)).toEqual([
      ['2023-02-01', 31, '3966.85', '100.00', '0.00'],
      ['2023-03-01', 28, '3999.91', '66.94', '0.00'],
      ['2023-03-15', 14, '4033.24', '15.47', '0.00'],
    ]);
    expect(r.items.map((i) => i.total)).toEqual(['4066.85', '4066.85', '4048.71']);
  });

  it('G8 ANNUITY, a 1-period loan starting on 2024-02-29', () => {
    const r = generatePlan({
      principal: '50000',
      startDate: '2024-02-29',
      termMonths: 1,
      rule: rule({ method: 'ANNUITY', annualRate: '0.06' }),
    });
    // one whole period 02-29 -> 03-29 (29 days, but a whole month): all principal, interest at the
    // period rate 50000 × 0.06 / 12 = 250.00 (not by its 29 days)
    expect(rows(r.items)).toEqual([['2024-03-29', 29, '50000.00', '250.00', '0.00']]);
  });

  it('G9 EQUAL_PRINCIPAL, ACT/360: residue on the last part, interest on the declining balance', () => {
    const r = generatePlan({
      principal: '10000',
      startDate: '2024-03-15',
      termMonths: 3,
      rule: rule({ method: 'EQUAL_PRINCIPAL', annualRate: '0.09' }),
    });
    // parts 10000 / 3 = 3333.333 -> 3333.33, 3333.33, last 10000 − 6666.66 = 3333.34
    // 03-15 -> 04-15 = 31 days: 10000 × 0.09 × 31 / 360 = 77.50
    // 04-15 -> 05-15 = 30 days: 6666.67 × 0.09 × 30 / 360 = 50.000025 -> 50.00
    // 05-15 -> 06-15 = 31 days: 3333.34 × 0.09 × 31 / 360 = 25.83338 -> 25.83
    expect(rows(r.items)).toEqual([
      ['2024-04-15', 31, '3333.33', '77.50', '0.00'],
      ['2024-05-15', 30, '3333.33', '50.00', '0.00'],
      ['2024-06-15', 31, '3333.34', '25.83', '0.00'],
    ]);
    expect(r.totalInterest).toBe('153.33'); // 77.50 + 50.00 + 25.83
  });

  it('G10 EQUAL_PRINCIPAL, 1 period, maturity before a full month (early maturity)', () => {
    const r = generatePlan({
      principal: '80000.50',
      startDate: '2024-02-10',
      maturityDate: '2024-03-01',
      rule: rule({ method: 'EQUAL_PRINCIPAL', annualRate: '0.0365', dayCount: 'ACT/365' }),
    });
    // 02-10 -> 03-01 = 20 days (Feb 10..29 of a leap year), one broken period
    // 80000.50 × 0.0365 × 20 / 365 = 80000.50 × 0.002 = 160.001 -> 160.00
    expect(rows(r.items)).toEqual([['2024-03-01', 20, '80000.50', '160.00', '0.00']]);
  });

  it('G11 FRONT interest and FRONT fee: deducted at financing, items carry none', () => {
    const r = generatePlan({
      principal: '1000000',
      startDate: '2024-01-15',
      maturityDate: '2024-04-15',
      rule: rule({ interestCollection: 'FRONT', feeRate: '0.01', feeCollection: 'FRONT' }),
    });
    // interest as G1: 21486.11; fee 1,000,000 × 0.01 × 91 / 360 = 910,000 / 360 = 2527.777 -> 2527.78
    expect(rows(r.items)).toEqual([['2024-04-15', 91, '1000000.00', '0.00', '0.00']]);
    expect(r.items[0]!.total).toBe('1000000.00');
    expect([r.upfrontInterest, r.upfrontFee, r.totalInterest, r.totalFee]).toEqual([
      '21486.11',
      '2527.78',
      '21486.11',
      '2527.78',
    ]);
  });

  it('G12 fees: INSTALMENT per item, BACK on the last item (on the financing amount)', () => {
    const input = { principal: '1200000', startDate: '2024-01-31', termMonths: 3 };
    const inst = generatePlan({
      ...input,
      rule: rule({
        method: 'EQUAL_PRINCIPAL',
        annualRate: '0.072',
        feeRate: '0.006',
        feeCollection: 'INSTALMENT',
      }),
    });
    // fee a day: 1,200,000 × 0.006 / 360 = 20.00; 29, 31, 30 days -> 580.00, 620.00, 600.00
    // principal 400000.00 each; interest 240 × 29 = 6960.00, 800000 × 0.072 / 360 × 31 = 160 × 31 =
    // 4960.00, 400000 × 0.072 / 360 × 30 = 80 × 30 = 2400.00
    expect(rows(inst.items)).toEqual([
      ['2024-02-29', 29, '400000.00', '6960.00', '580.00'],
      ['2024-03-31', 31, '400000.00', '4960.00', '620.00'],
      ['2024-04-30', 30, '400000.00', '2400.00', '600.00'],
    ]);
    expect(inst.items[0]!.total).toBe('407540.00'); // 400000 + 6960 + 580
    expect(inst.totalFee).toBe('1800.00');
    const back = generatePlan({
      ...input,
      rule: rule({ method: 'EQUAL_PRINCIPAL', annualRate: '0.072', feeRate: '0.006', feeCollection: 'BACK' }),
    });
    // 20.00 × (29 + 31 + 30) = 1800.00 on the last item
    expect(back.items.map((i) => i.fee)).toEqual(['0.00', '0.00', '1800.00']);
    expect(back.items[2]!.total).toBe('404200.00'); // 400000 + 2400 + 1800
    expect([back.upfrontFee, back.totalFee]).toEqual(['0.00', '1800.00']);
  });

  it('G13 CUSTOM: given dates and principal parts, interest on the declining balance', () => {
    const r = generatePlan({
      principal: '300000',
      startDate: '2024-01-01',
      rule: rule({ method: 'CUSTOM', annualRate: '0.08' }),
      customItems: [
        { dueDate: '2024-02-01', principal: '100000' },
        { dueDate: '2024-04-01', principal: '50000' },
        { dueDate: '2024-06-30', principal: '150000' },
      ],
    });
    // 31 days: 300000 × 0.08 × 31 / 360 = 2066.667 -> 2066.67
    // 02-01 -> 04-01 = 29 + 31 = 60 days: 200000 × 0.08 × 60 / 360 = 2666.667 -> 2666.67
    // 04-01 -> 06-30 = 29 + 31 + 30 = 90 days: 150000 × 0.08 × 90 / 360 = 3000.00
    expect(rows(r.items)).toEqual([
      ['2024-02-01', 31, '100000.00', '2066.67', '0.00'],
      ['2024-04-01', 60, '50000.00', '2666.67', '0.00'],
      ['2024-06-30', 90, '150000.00', '3000.00', '0.00'],
    ]);
    expect(r.maturityDate).toBe('2024-06-30');
  });

  it('G14 rate 0 gives zero interest; a half-cent tie rounds up', () => {
    const zero = generatePlan({
      principal: '999.99',
      startDate: '2024-01-15',
      termMonths: 6,
      rule: rule({ method: 'ANNUITY', annualRate: '0' }),
    });
    expect(zero.items.every((i) => i.interest === '0.00')).toBe(true);
    // r = 0: A = 999.99 / 6 = 166.665 -> 166.67 (tie up) for items 1..5; the last takes
    // 999.99 − 5 × 166.67 = 166.64
    expect(zero.items.map((i) => i.principal)).toEqual([
      '166.67',
      '166.67',
      '166.67',
      '166.67',
      '166.67',
      '166.64',
    ]);
    // exact tie: 10.00 × 0.0365 × 5 / 365 = 1.825 / 365 = 0.005 -> 0.01 (half-up; the product is
    // formed before the division, so no 0.00499… artefact)
    const tie = generatePlan({
      principal: '10.00',
      startDate: '2024-01-01',
      maturityDate: '2024-01-06',
      rule: rule({ annualRate: '0.0365', dayCount: 'ACT/365' }),
    });
    expect(tie.items[0]!.interest).toBe('0.01');
  });
});

describe('generatePlan validation', () => {
  const ok = { principal: '1000', startDate: '2024-01-15', termMonths: 12, rule: rule() };
  it.each([
    [{ principal: '0' }, 'principal', '融资本金必须在0.01到1000000000000之间'],
    [{ principal: '1000000000000.01' }, 'principal', '融资本金必须在0.01到1000000000000之间'],
    [{ principal: '1.234' }, 'principal', '融资本金必须是不为负、最多两位小数的金额'],
    [{ principal: '-5' }, 'principal', '融资本金必须是不为负、最多两位小数的金额'],
    [{ startDate: '2023-02-29' }, 'startDate', '起息日必须是有效日期（YYYY-MM-DD）'],
    [{ termMonths: 0 }, 'termMonths', '期限（月）必须是1到360之间的整数'],
    [{ termMonths: 361 }, 'termMonths', '期限（月）必须是1到360之间的整数'],
    [{ termMonths: 1.5 }, 'termMonths', '期限（月）必须是1到360之间的整数'],
    [{ termMonths: undefined }, 'maturityDate', '到期日和期限不能同时为空'],
    [{ maturityDate: '2024-01-15' }, 'maturityDate', '到期日必须晚于起息日'],
    [{ maturityDate: '2054-01-16' }, 'maturityDate', '到期日不能晚于起息日后360个月'],
    [{ rule: rule({ annualRate: '8.5%' }) }, 'rule.annualRate', '年利率必须是不超过8位小数的非负小数'],
    [{ rule: rule({ annualRate: '10.5' }) }, 'rule.annualRate', '年利率不能大于10'],
    [
      { customItems: [{ dueDate: '2024-02-15', principal: '1000' }] },
      'customItems',
      '只有自定义还款方式可以填写自定义还款计划',
    ],
    [{ rule: rule({ method: 'CUSTOM' }) }, 'customItems', '自定义还款计划不能为空'],
  ])('refuses %j', (patch, field, message) => {
    const e = planError(() => generatePlan({ ...ok, ...patch }));
    expect([e.field, e.message]).toEqual([field, message]);
  });

  it('checks a custom plan: increasing dates and the principal total', () => {
    const custom = { ...ok, termMonths: undefined, rule: rule({ method: 'CUSTOM' }) };
    let e = planError(() =>
      generatePlan({
        ...custom,
        customItems: [
          { dueDate: '2024-03-01', principal: '500' },
          { dueDate: '2024-03-01', principal: '500' },
        ],
      }),
    );
    expect([e.field, e.message]).toEqual(['customItems[1].dueDate', '第2期到期日必须晚于第1期到期日']);
    e = planError(() =>
      generatePlan({ ...custom, customItems: [{ dueDate: '2024-03-01', principal: '999.99' }] }),
    );
    expect(e.message).toBe('自定义还款计划的本金合计必须等于融资本金');
    e = planError(() =>
      generatePlan({
        ...custom,
        maturityDate: '2024-04-01',
        customItems: [{ dueDate: '2024-03-01', principal: '1000' }],
      }),
    );
    expect(e.message).toBe('到期日必须等于自定义还款计划最后一期的到期日');
  });

  it('lets maturityDate win over termMonths', () => {
    const r = generatePlan({ ...ok, maturityDate: '2024-03-15', rule: rule({ method: 'INTEREST_MONTHLY' }) });
    expect(r.items.map((i) => i.dueDate)).toEqual(['2024-02-15', '2024-03-15']);
  });
});

describe('disbursedPlan: the signed due dates stay, the first period runs from the value date', () => {
  const signed = (over: Partial<PlanRule>, maturityDate = '2026-04-15') =>
    generatePlan({ principal: '400000', startDate: '2026-01-15', maturityDate, rule: rule(over) }).items;

  it('前置 bullet: principal × rate × days(value date → maturity) / basis, with 计头又计尾 +1', () => {
    const front = { annualRate: '0.09', interestCollection: 'FRONT' as const };
    // 2026-01-15 → 04-15 is 90 days: 400000 × 9 % × 90 / 360 = 9000.00; from 01-17, 88 days: 8800.00.
    const atStart = disbursedPlan({
      principal: '400000',
      rule: rule(front),
      items: signed(front),
      valueDate: '2026-01-15',
    });
    expect([atStart.changed, atStart.upfrontInterest]).toEqual([false, '9000.00']);
    const later = disbursedPlan({
      principal: '400000',
      rule: rule(front),
      items: signed(front),
      valueDate: '2026-01-17',
    });
    expect([later.changed, later.upfrontInterest]).toEqual([true, '8800.00']);
    expect(rows(later.items)).toEqual([['2026-04-15', 88, '400000.00', '0.00', '0.00']]);
    expect(later.items[0]!.startDate).toBe('2026-01-17');
    // 计头又计尾: 89 days, 8900.00; under 30/360, 01-17 → 04-15 is 88 days as well.
    const both = { ...front, countBothEnds: true };
    expect(
      disbursedPlan({ principal: '400000', rule: rule(both), items: signed(both), valueDate: '2026-01-17' })
        .upfrontInterest,
    ).toBe('8900.00');
    const b360 = { ...front, dayCount: '30/360' as const };
    expect(
      disbursedPlan({ principal: '400000', rule: rule(b360), items: signed(b360), valueDate: '2026-01-17' })
        .upfrontInterest,
    ).toBe('8800.00');
  });

  it('后置 monthly: only the first item changes; at the signed start nothing does', () => {
    const monthly = { method: 'INTEREST_MONTHLY' as const };
    const items = signed(monthly);
    const same = disbursedPlan({ principal: '400000', rule: rule(monthly), items, valueDate: '2026-01-15' });
    expect(same).toEqual({ items, changed: false, upfrontInterest: '0.00' });
    const moved = disbursedPlan({ principal: '400000', rule: rule(monthly), items, valueDate: '2026-02-01' });
    // 2026-02-01 → 02-15: 14 days, 400000 × 8.5 % × 14 / 360 = 1322.22.
    expect(rows(moved.items)).toEqual([
      ['2026-02-15', 14, '0.00', '1322.22', '0.00'],
      ...rows(items).slice(1),
    ]);
    expect(moved.items[0]!.total).toBe('1322.22');
  });

  it('refuses a value date on or after the first due date', () => {
    const items = signed({ method: 'INTEREST_MONTHLY' });
    for (const valueDate of ['2026-02-15', '2026-03-01']) {
      const e = planError(() =>
        disbursedPlan({ principal: '400000', rule: rule({ method: 'INTEREST_MONTHLY' }), items, valueDate }),
      );
      expect([e.field, e.message]).toEqual(['valueDate', '放款日不能晚于或等于首期还款日，请先做合同变更']);
    }
  });

  it('前置 等额本息 at the signed start sums what generatePlan charged', () => {
    const annuity = { method: 'ANNUITY' as const, interestCollection: 'FRONT' as const };
    const plan = generatePlan({
      principal: '400000',
      startDate: '2026-01-15',
      maturityDate: '2026-07-15',
      rule: rule(annuity),
    });
    const kept = disbursedPlan({
      principal: '400000',
      rule: rule(annuity),
      items: plan.items,
      valueDate: '2026-01-15',
    });
    expect(kept.upfrontInterest).toBe(plan.upfrontInterest);
  });
});
