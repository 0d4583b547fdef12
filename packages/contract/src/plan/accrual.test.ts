import { describe, expect, it } from 'vitest';
import { accrueItem, settlementQuote, type AccrualRule, type Payment, type SettlementRule } from './accrual';
import { PlanInputError } from './money';
import { generatePlan, type PlanRule } from './schedule';

const rule = (over: Partial<AccrualRule> = {}): AccrualRule => ({
  annualRate: '0.0730',
  dayCount: 'ACT/365',
  penalty: { mode: 'MULTIPLE', value: '1.5' },
  graceDays: 3,
  ...over,
});

// Due 2024-01-31. With 7.3 % × 1.5 / 365 = 0.0003 a day, 100,000 of principal bears 30.00 a day.
const item = { dueDate: '2024-01-31', principal: '100000.00', interest: '620.00', fee: '0.00' };
const accrue = (asOf: string, payments: Payment[] = [], over: Partial<AccrualRule> = {}) =>
  accrueItem({ item, payments, asOf, rule: rule(over) });

describe('accrueItem: penalty golden cases', () => {
  it('A1 accrues over a month end from the day after due + grace, through asOf', () => {
    // due 01-31 + 3 grace days = 02-03; penalty days 02-04 .. 02-10 = 7 × 30.00 = 210.00
    expect(accrue('2024-02-10')).toEqual({
      penaltyAccrued: '210.00',
      principalOutstanding: '100000.00',
      interestOutstanding: '620.00',
      feeOutstanding: '0.00',
      penaltyOutstanding: '210.00',
      overdueDays: 10, // 02-10 − 01-31, grace days included
      status: '逾期',
    });
  });

  it('A2 principal paid on a value date stops accruing from that date', () => {
    const r = accrue('2024-02-10', [{ valueDate: '2024-02-07', principal: '40000', interest: '620' }]);
    // 02-04, 02-05, 02-06 on 100,000: 3 × 30.00 = 90.00;
    // 02-07 .. 02-10 on 60,000 (the value date itself no longer bears it): 4 × 18.00 = 72.00
    expect([r.penaltyAccrued, r.principalOutstanding, r.interestOutstanding, r.status]).toEqual([
      '162.00',
      '60000.00',
      '0.00',
      '逾期',
    ]);
  });

  it('A3 a payment on value date v owes what accrued through v − 1', () => {
    // asOf 02-04 with nothing paid: one day (02-04) = 30.00
    expect(accrue('2024-02-04').penaltyAccrued).toBe('30.00');
    // paid in full on 02-05: penalty through 02-04 only = 30.00, then nothing more, ever
    const paid = [{ valueDate: '2024-02-05', principal: '100000', interest: '620', penalty: '30' }];
    expect(accrue('2024-02-05', paid)).toMatchObject({
      penaltyAccrued: '30.00',
      status: '已结清',
      overdueDays: 0,
    });
    expect(accrue('2024-03-31', paid)).toMatchObject({ penaltyAccrued: '30.00', penaltyOutstanding: '0.00' });
    // paid on the first penalty day (02-04): that day does not bear penalty on the paid principal
    const onFirst = [{ valueDate: '2024-02-04', principal: '100000', interest: '620' }];
    expect(accrue('2024-02-10', onFirst)).toMatchObject({ penaltyAccrued: '0.00', status: '已结清' });
  });

  it('A4 DAILY rate across 2024-02-29 (and the same dates in 2023)', () => {
    const daily = { penalty: { mode: 'DAILY' as const, value: '0.0005' }, graceDays: 0 };
    const leap = accrueItem({
      item: { dueDate: '2024-02-27', principal: '50000', interest: '0', fee: '0' },
      payments: [],
      asOf: '2024-03-02',
      rule: rule(daily),
    });
    // 02-28, 02-29, 03-01, 03-02 = 4 days × 50,000 × 0.0005 (25.00) = 100.00
    expect([leap.penaltyAccrued, leap.overdueDays]).toEqual(['100.00', 4]);
    const plain = accrueItem({
      item: { dueDate: '2023-02-27', principal: '50000', interest: '0', fee: '0' },
      payments: [],
      asOf: '2023-03-02',
      rule: rule(daily),
    });
    expect(plain.penaltyAccrued).toBe('75.00'); // 02-28, 03-01, 03-02 = 3 × 25.00
  });

  it('A5 MULTIPLE on ACT/360 and 30/360 uses a 360-day year per calendar day', () => {
    const r = accrueItem({
      item: { dueDate: '2024-06-30', principal: '10000', interest: '0', fee: '0' },
      payments: [],
      asOf: '2024-07-03',
      rule: rule({ annualRate: '0.09', dayCount: '30/360', graceDays: 0 }),
    });
    // 0.09 × 1.5 / 360 = 0.000375 a day; 07-01, 07-02, 07-03: 10000 × 0.000375 × 3 = 11.25
    expect(r.penaltyAccrued).toBe('11.25');
  });

  it('A6 adds a penalty assessed outside the engine and never lets penalty outstanding go negative', () => {
    const withBase = accrueItem({
      item: { ...item, penalty: '5.50' },
      payments: [],
      asOf: '2024-02-04',
      rule: rule(),
    });
    expect(withBase.penaltyAccrued).toBe('35.50'); // 5.50 + 1 day × 30.00
    // A back-dated principal payment shrinks the accrual below what was already collected.
    const r = accrue('2024-02-10', [
      { valueDate: '2024-02-04', principal: '100000', interest: '620' },
      { valueDate: '2024-02-10', penalty: '210' },
    ]);
    expect([r.penaltyAccrued, r.penaltyOutstanding, r.status]).toEqual(['0.00', '0.00', '已结清']);
  });
});

describe('accrueItem: status', () => {
  it('walks 未到期 -> 待还 -> 部分还款 / 逾期 -> 已结清', () => {
    expect(accrue('2024-01-30')).toMatchObject({ status: '未到期', overdueDays: 0, penaltyAccrued: '0.00' });
    expect(accrue('2024-01-31').status).toBe('待还'); // due today
    expect(accrue('2024-02-03')).toMatchObject({ status: '待还', overdueDays: 3, penaltyAccrued: '0.00' }); // in grace
    const part = [{ valueDate: '2024-02-01', interest: '620' }];
    expect(accrue('2024-02-03', part).status).toBe('部分还款');
    expect(accrue('2024-02-04', part).status).toBe('逾期');
    expect(
      accrue('2024-01-20', [{ valueDate: '2024-01-20', principal: '100000', interest: '620' }]).status,
    ).toBe('已结清');
    // a payment dated after asOf is not seen yet
    expect(
      accrue('2024-01-20', [{ valueDate: '2024-01-25', principal: '100000', interest: '620' }]).status,
    ).toBe('未到期');
    // an item with nothing to pay is 未到期 before its date and 已结清 from it
    const empty = { dueDate: '2024-01-31', principal: '0', interest: '0', fee: '0' };
    expect(accrueItem({ item: empty, payments: [], asOf: '2024-01-30', rule: rule() }).status).toBe('未到期');
    expect(accrueItem({ item: empty, payments: [], asOf: '2024-01-31', rule: rule() }).status).toBe('已结清');
  });

  it('refuses overpayment and bad dates with the field named', () => {
    expect(() => accrue('2024-02-10', [{ valueDate: '2024-02-01', principal: '100000.01' }])).toThrow(
      '已还本金超过应还本金',
    );
    try {
      accrue('2024-02-30');
      throw new Error('no error');
    } catch (e) {
      expect(e).toBeInstanceOf(PlanInputError);
      expect([(e as PlanInputError).field, (e as PlanInputError).message]).toEqual([
        'asOf',
        '计算日必须是有效日期（YYYY-MM-DD）',
      ]);
    }
  });
});

describe('settlementQuote', () => {
  const planRule = (over: Partial<PlanRule>): PlanRule => ({
    annualRate: '0.072',
    dayCount: 'ACT/360',
    method: 'INTEREST_MONTHLY',
    interestCollection: 'BACK',
    feeRate: '0',
    feeCollection: 'BACK',
    countBothEnds: false,
    ...over,
  });
  const settleRule = (p: PlanRule): SettlementRule => ({
    ...p,
    penalty: { mode: 'MULTIPLE', value: '1.5' },
    graceDays: 0,
  });

  it('S1 recomputes the current period to the settlement date and drops later interest', () => {
    const p = planRule({});
    // The G3 plan: 1,200,000 at 7.2 % ACT/360 = 240.00 a day; items due 02-29, 03-31, 04-30.
    const { items } = generatePlan({ principal: '1200000', startDate: '2024-01-31', termMonths: 3, rule: p });
    const q = settlementQuote(
      items,
      [{ period: 1, valueDate: '2024-02-29', interest: '6960' }],
      '2024-03-10',
      settleRule(p),
    );
    // current item 2 (02-29 -> 03-31): 02-29 -> 03-10 = 10 days × 240.00 = 2400.00 (7440 − 2400 = 5040 waived)
    expect(q.lines.map((l) => [l.period, l.principal, l.interest, l.interestWaived])).toEqual([
      [1, '0.00', '0.00', '0.00'],
      [2, '0.00', '2400.00', '5040.00'],
      [3, '1200000.00', '0.00', '7200.00'],
    ]);
    expect([q.principal, q.interest, q.penalty, q.total]).toEqual([
      '1200000.00',
      '2400.00',
      '0.00',
      '1202400.00',
    ]);
  });

  it('S2 charges overdue items with penalty through the day before settlement, INSTALMENT fee prorated', () => {
    const p = planRule({ method: 'EQUAL_PRINCIPAL', feeRate: '0.006', feeCollection: 'INSTALMENT' });
    // The G12 plan: 400,000 a month; interest 6960 / 4960 / 2400; fee 580 / 620 / 600.
    const { items } = generatePlan({ principal: '1200000', startDate: '2024-01-31', termMonths: 3, rule: p });
    const q = settlementQuote(items, [], '2024-03-10', settleRule(p));
    // item 1 (due 02-29) unpaid: penalty 03-01 .. 03-09 = 9 days × 400,000 × 0.072 × 1.5 / 360 (120.00)
    //   = 1080.00
    // item 2 current: 800,000 × 0.072 × 10 / 360 = 1600.00 (4960 − 1600 = 3360 waived);
    //   fee 1,200,000 × 0.006 × 10 / 360 = 200.00 (620 − 200 = 420 waived)
    // item 3: principal only; 2400 interest and 600 fee waived
    expect(
      q.lines.map((l) => [l.principal, l.interest, l.fee, l.penalty, l.interestWaived, l.feeWaived]),
    ).toEqual([
      ['400000.00', '6960.00', '580.00', '1080.00', '0.00', '0.00'],
      ['400000.00', '1600.00', '200.00', '0.00', '3360.00', '420.00'],
      ['400000.00', '0.00', '0.00', '0.00', '2400.00', '600.00'],
    ]);
    // 1,200,000 + (6960 + 1600) + (580 + 200) + 1080 = 1,210,420.00
    expect([q.interest, q.fee, q.penalty, q.total]).toEqual(['8560.00', '780.00', '1080.00', '1210420.00']);
    // Same penalty as accrueItem through 03-09, or on 03-10 with the settling payment included.
    const r = settleRule(p);
    expect(accrueItem({ item: items[0]!, payments: [], asOf: '2024-03-09', rule: r }).penaltyAccrued).toBe(
      '1080.00',
    );
    const settle = [
      { valueDate: '2024-03-10', principal: '400000', interest: '6960', fee: '580', penalty: '1080' },
    ];
    expect(accrueItem({ item: items[0]!, payments: settle, asOf: '2024-03-10', rule: r })).toMatchObject({
      penaltyAccrued: '1080.00',
      status: '已结清',
    });
  });

  it('S3 prepaid principal inside the period: interest segment by segment; 计头又计尾 adds the last day', () => {
    const p = planRule({ method: 'BULLET' }); // 1,000,000 × 0.072 / 360 = 200.00 a day
    const { items } = generatePlan({
      principal: '1000000',
      startDate: '2024-01-01',
      maturityDate: '2024-12-31',
      rule: p,
    });
    const pay = [{ period: 1, valueDate: '2024-01-21', principal: '400000' }];
    const q = settlementQuote(items, pay, '2024-02-10', settleRule(p));
    // 01-01 -> 01-21: 20 days on 1,000,000 = 20 × 200.00 = 4000.00
    // 01-21 -> 02-10: 20 days on 600,000 = 20 × 120.00 = 2400.00; total 6400.00
    expect([q.principal, q.interest, q.total]).toEqual(['600000.00', '6400.00', '606400.00']);
    const both = settlementQuote(items, pay, '2024-02-10', settleRule({ ...p, countBothEnds: true }));
    expect(both.interest).toBe('6520.00'); // + 1 day on 600,000 = 120.00
  });

  it('S4 BACK fee recomputed to the date; FRONT interest is neither charged again nor refunded', () => {
    const p = planRule({ annualRate: '0.085', method: 'BULLET', feeRate: '0.01', feeCollection: 'BACK' });
    const { items } = generatePlan({
      principal: '1000000',
      startDate: '2024-01-15',
      maturityDate: '2024-04-15',
      rule: p,
    });
    const q = settlementQuote(items, [], '2024-02-14', settleRule(p));
    // 01-15 -> 02-14 = 30 days: interest 1,000,000 × 0.085 × 30 / 360 = 7083.333 -> 7083.33
    // (21486.11 − 7083.33 = 14402.78 waived); fee 1,000,000 × 0.01 × 30 / 360 = 833.333 -> 833.33
    // (2527.78 − 833.33 = 1694.45 waived)
    expect(q.lines[0]).toMatchObject({
      interest: '7083.33',
      interestWaived: '14402.78',
      fee: '833.33',
      feeWaived: '1694.45',
    });
    expect(q.total).toBe('1007916.66'); // 1,000,000 + 7083.33 + 833.33
    const front = { ...p, interestCollection: 'FRONT' as const };
    const f = generatePlan({
      principal: '1000000',
      startDate: '2024-01-15',
      maturityDate: '2024-04-15',
      rule: front,
    });
    expect(settlementQuote(f.items, [], '2024-02-14', settleRule(front)).interest).toBe('0.00');
  });

  it('S5 after maturity it is the outstanding plus penalty; before the start it is refused', () => {
    const p = planRule({ method: 'BULLET' });
    const { items } = generatePlan({
      principal: '1000000',
      startDate: '2024-01-01',
      maturityDate: '2024-01-31',
      rule: p,
    });
    // interest 30 × 200.00 = 6000.00; penalty 02-01 .. 02-04 = 4 days × 1,000,000 × 0.072 × 1.5 / 360
    // (300.00) = 1200.00
    const q = settlementQuote(items, [], '2024-02-05', settleRule(p));
    expect([q.principal, q.interest, q.penalty, q.total]).toEqual([
      '1000000.00',
      '6000.00',
      '1200.00',
      '1007200.00',
    ]);
    expect(() => settlementQuote(items, [], '2023-12-31', settleRule(p))).toThrow('结清日不能早于起息日');
    expect(() =>
      settlementQuote(items, [{ period: 2, valueDate: '2024-01-10' }], '2024-02-05', settleRule(p)),
    ).toThrow('还款记录的期次2不存在');
  });
});
