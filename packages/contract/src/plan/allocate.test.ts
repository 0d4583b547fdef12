import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocate, linesTotal, type OpenItem } from './allocate';
import { D } from './money';
import { COMPONENTS, DEFAULT_ALLOCATION_ORDER, DEFAULT_IN_ADVANCE_ORDER, type Component } from './rule';

const item = (id: number, dueDate: string, p: string, i: string, f = '0.00', pen = '0.00'): OpenItem => ({
  id,
  period: id,
  dueDate,
  open: { PRINCIPAL: p, INTEREST: i, FEE: f, PENALTY: pen },
});
const orders = { dueOrder: DEFAULT_ALLOCATION_ORDER, inAdvanceOrder: DEFAULT_IN_ADVANCE_ORDER };

describe('allocate (来款核销的分配顺序)', () => {
  it('serves due items oldest first, penalty → interest → fee → principal, then not-yet-due principal first', () => {
    const items = [
      item(3, '2026-03-31', '1000.00', '50.00'),
      item(1, '2026-01-31', '1000.00', '50.00', '0.00', '12.34'),
      item(2, '2026-02-28', '1000.00', '50.00', '5.00'),
    ];
    const r = allocate({ amount: '2200.00', valueDate: '2026-03-01', items, ...orders });
    expect(r.lines.map((l) => [l.period, l.component, l.amount])).toEqual([
      [1, 'PENALTY', '12.34'],
      [1, 'INTEREST', '50.00'],
      [1, 'PRINCIPAL', '1000.00'],
      [2, 'INTEREST', '50.00'],
      [2, 'FEE', '5.00'],
      [2, 'PRINCIPAL', '1000.00'],
      [3, 'PRINCIPAL', '82.66'],
    ]);
    expect(r.allocated).toBe('2200.00');
    expect(r.unallocated).toBe('0.00');
  });

  it('leaves an overpayment unallocated and never takes more than is open', () => {
    const r = allocate({
      amount: '100.00',
      valueDate: '2026-05-01',
      items: [item(1, '2026-01-31', '30.00', '5.00')],
      ...orders,
    });
    expect(r.allocated).toBe('35.00');
    expect(r.unallocated).toBe('65.00');
  });

  it('refuses an order that misses a component', () => {
    expect(() =>
      allocate({
        amount: '1.00',
        valueDate: '2026-01-01',
        items: [],
        dueOrder: ['PRINCIPAL', 'INTEREST', 'FEE', 'FEE'],
        inAdvanceOrder: DEFAULT_IN_ADVANCE_ORDER,
      }),
    ).toThrow('分配顺序');
  });

  it('never allocates beyond the amount nor beyond any component (random plans)', () => {
    // Cents as a decimal string built from the integer, never through a float.
    const cents = fc
      .bigInt({ min: 0n, max: 10_000_000n })
      .map((n) => `${n / 100n}.${String(n % 100n).padStart(2, '0')}`);
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            day: fc.integer({ min: 1, max: 28 }),
            open: fc.record({ PRINCIPAL: cents, INTEREST: cents, FEE: cents, PENALTY: cents }),
          }),
          { maxLength: 12 },
        ),
        cents,
        fc.shuffledSubarray([...COMPONENTS], { minLength: 4, maxLength: 4 }),
        (rows, amount, order) => {
          const items = rows.map((r, i) => ({
            id: i + 1,
            period: i + 1,
            dueDate: `2026-${String((i % 12) + 1).padStart(2, '0')}-${String(r.day).padStart(2, '0')}`,
            open: r.open,
          }));
          const r = allocate({
            amount,
            valueDate: '2026-06-15',
            items,
            dueOrder: order as Component[],
            inAdvanceOrder: DEFAULT_IN_ADVANCE_ORDER,
          });
          expect(new D(linesTotal(r.lines)).plus(r.unallocated).eq(amount)).toBe(true);
          expect(r.allocated).toBe(linesTotal(r.lines));
          const open = items.reduce((s, i) => COMPONENTS.reduce((t, c) => t.plus(i.open[c]), s), new D(0));
          expect(new D(r.allocated).eq(D.min(open, amount))).toBe(true);
          for (const l of r.lines) {
            const it = items.find((i) => i.id === l.itemId)!;
            expect(new D(l.amount).lte(it.open[l.component])).toBe(true);
            expect(new D(l.amount).gt(0)).toBe(true);
          }
        },
      ),
    );
  });
});
