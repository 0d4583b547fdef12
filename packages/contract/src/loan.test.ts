import { describe, expect, it } from 'vitest';
import { disbursementFigures, type UpfrontDue } from './loan';
import { D } from './plan/money';

// Financing 1,000,000.00; margin 50,000.00, 前置利息 21,250.00, 手续费 1,000.05 (hand-computed nets).
const dues = (received: [string, string, string]): UpfrontDue[] => [
  { dueId: 1, kind: 'margin', amount: '50000.00', received: received[0] },
  { dueId: 2, kind: 'upfrontInterest', amount: '21250.00', received: received[1] },
  { dueId: 3, kind: 'upfrontFee', amount: '1000.05', received: received[2] },
];

describe('disbursementFigures (net = financing − items not received)', () => {
  const cases: { received: [string, string, string]; net: string; deducted: string; prepaid: string }[] = [
    { received: ['0', '0', '0'], net: '927749.95', deducted: '72250.05', prepaid: '0.00' },
    { received: ['50000.00', '0', '0'], net: '977749.95', deducted: '22250.05', prepaid: '50000.00' },
    { received: ['0', '21250.00', '0'], net: '948999.95', deducted: '51000.05', prepaid: '21250.00' },
    { received: ['0', '0', '1000.05'], net: '928750.00', deducted: '71250.00', prepaid: '1000.05' },
    { received: ['50000.00', '21250.00', '0'], net: '998999.95', deducted: '1000.05', prepaid: '71250.00' },
    { received: ['50000.00', '0', '1000.05'], net: '978750.00', deducted: '21250.00', prepaid: '51000.05' },
    { received: ['0', '21250.00', '1000.05'], net: '950000.00', deducted: '50000.00', prepaid: '22250.05' },
    {
      received: ['50000.00', '21250.00', '1000.05'],
      net: '1000000.00',
      deducted: '0.00',
      prepaid: '72250.05',
    },
    // A partly prepaid margin is deducted for the rest only: 1,000,000 − 30,000 − 21,250 − 1,000.05.
    { received: ['20000.00', '0', '0'], net: '947749.95', deducted: '52250.05', prepaid: '20000.00' },
  ];
  for (const c of cases) {
    it(`received ${c.received.join(' / ')} → net ${c.net}`, () => {
      const f = disbursementFigures('1000000.00', dues(c.received));
      expect([f.netAmount, f.deductedTotal, f.prepaidTotal]).toEqual([c.net, c.deducted, c.prepaid]);
      for (const [i, l] of f.lines.entries()) {
        // Each item collected once: prepaid + deducted = its amount.
        expect(new D(l.prepaid).plus(l.deducted).toFixed(2)).toBe(dues(c.received)[i]!.amount);
      }
    });
  }

  it('前置利息 from the value date: deducts what is open, returns what was prepaid above it', () => {
    // The disbursement charges 20,000.00 of 前置利息 (the contract said 21,250.00).
    const open = disbursementFigures('1000000.00', dues(['0', '0', '0']), '20000.00');
    expect(open.lines[1]).toMatchObject({
      amount: '20000.00',
      dueAmount: '21250.00',
      deducted: '20000.00',
      returned: '0.00',
    });
    expect(open.netAmount).toBe('928999.95'); // 1,000,000 − 50,000 − 20,000 − 1,000.05
    // 21,250.00 prepaid: 1,250.00 goes back with the net.
    const over = disbursementFigures('1000000.00', dues(['0', '21250.00', '0']), '20000.00');
    expect(over.lines[1]).toMatchObject({
      amount: '20000.00',
      prepaid: '21250.00',
      deducted: '0.00',
      returned: '1250.00',
    });
    expect([over.deductedTotal, over.returnedTotal, over.netAmount]).toEqual([
      '51000.05',
      '1250.00',
      '950249.95',
    ]);
  });

  it('with no up-front items pays the financing in full', () => {
    expect(disbursementFigures('12345.67', [])).toMatchObject({ netAmount: '12345.67', lines: [] });
  });
});
