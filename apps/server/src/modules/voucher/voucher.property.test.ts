import Decimal from 'decimal.js';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_DEFAULTS, type AccountRole } from '@portal/contract/voucher';
import { addDays } from '@portal/contract/plan/dates';
import { SYSTEM_ACTOR } from '../../platform/db/audit';
import { queryRows } from '../../platform/db/client';
import { createTestPortal, type TestPortal } from '../../testing/harness';
import { journalOf, totals, type MoneyEvent } from './journal';
import { postEvent, trialBalance } from './service';
import { clearVouchers, moneyEvent, moneyHistory, postRed } from './testkit';

/**
 * Over random histories of money events and red reversals of earlier ones (docs/accounting.md
 * "What the tests prove"): every journal balances; every period's trial balance has Σ debit =
 * Σ credit; each account's closing balance is the next period's opening; each account's
 * balance after all events is what the events say it should be (a reversed event counts for 0);
 * and the per-period account totals the trial balance reads equal the lines summed.
 */
const event = moneyEvent({ days: 180, contracts: 3 });

/** A history: events, some followed later by the red reversal of an earlier one (by index). */
const history = moneyHistory({ days: 180, contracts: 3, maxLength: 25, maxLag: 30 });

let t: TestPortal;
beforeAll(async () => {
  t = await createTestPortal({ BUSINESS_DATE: '2026-07-31' });
}, 60_000);
afterAll(() => t.close());

describe('journals', () => {
  it('balance for every event', () => {
    fc.assert(
      fc.property(event, (e) => {
        const j = journalOf({ ...e, docCode: '000000000001' } as MoneyEvent);
        const s = totals(j.lines);
        expect(s.debit.eq(s.credit)).toBe(true);
        for (const l of j.lines)
          expect(new Decimal(l.debit).isZero() !== new Decimal(l.credit).isZero()).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

describe('the trial balance over random histories', () => {
  it('balances per voucher and per period, and each account moves by what the events say', async () => {
    const db = t.database.db;
    let run = 0;
    await fc.assert(
      fc.asyncProperty(history, async (steps) => {
        run++;
        await clearVouchers(db);
        const expected = new Map<string, Decimal>();
        const posted: {
          type: MoneyEvent['kind'];
          code: string;
          date: string;
          journal: ReturnType<typeof journalOf>;
          red: boolean;
        }[] = [];
        let n = 0;
        for (const [e, redOf, lag] of steps) {
          n++;
          const code = `${run}-${n}`;
          const ev = { ...e, docCode: code } as MoneyEvent;
          await db.transaction((tx) => postEvent(tx, ev, SYSTEM_ACTOR));
          posted.push({ type: ev.kind, code, date: ev.date, journal: journalOf(ev), red: false });
          if (redOf !== null) {
            const target = posted[redOf % posted.length]!;
            if (!target.red) {
              const j = target.journal;
              await postRed(db, { docType: j.docType, docCode: j.docCode, date: target.date }, code, lag);
              target.red = true;
            }
          }
        }
        for (const p of posted) {
          if (p.red) continue;
          for (const l of p.journal.lines) {
            const code = ACCOUNT_DEFAULTS[l.role as AccountRole].code;
            expected.set(code, (expected.get(code) ?? new Decimal(0)).plus(l.debit).minus(l.credit));
          }
        }

        const unbalanced = await queryRows<{ id: number }>(
          db,
          sql`select voucher_id::int as id from voucher_lines group by voucher_id having sum(debit) <> sum(credit)`,
        );
        expect(unbalanced).toEqual([]);

        // The per-period account totals the trial balance reads are the lines summed, row for row
        // (the deletes above between runs go through the same trigger).
        const kept = await queryRows<Record<string, string>>(
          db,
          sql`select period, account_code, account_name, debit::text, credit::text, lines::text
                from voucher_account_periods order by 1, 2, 3`,
        );
        const summed = await queryRows<Record<string, string>>(
          db,
          sql`select v.period, l.account_code, l.account_name, sum(l.debit)::text as debit,
                     sum(l.credit)::text as credit, count(*)::text as lines
                from voucher_lines l join vouchers v on v.id = l.voucher_id group by 1, 2, 3 order by 1, 2, 3`,
        );
        expect(kept).toEqual(summed);

        const periods = await queryRows<{ p: string }>(
          db,
          sql`select distinct period as p from vouchers order by period`,
        );
        if (periods.length === 0) {
          expect([...expected.values()].every((v) => v.isZero())).toBe(true);
          return;
        }
        const months: string[] = [];
        for (let m = periods[0]!.p; m <= periods.at(-1)!.p; m = addDays(`${m}-28`, 5).slice(0, 7))
          months.push(m);
        let previous: Map<string, Decimal> | null = null;
        let last = new Map<string, Decimal>();
        for (const m of months) {
          const tb = await trialBalance(db, m);
          expect(tb.balanced).toBe(true);
          expect(tb.totals.debit).toBe(tb.totals.credit);
          const opening = new Map(
            tb.rows.map((r) => [r.accountCode, new Decimal(r.openingDebit).minus(r.openingCredit)]),
          );
          const closing = new Map(
            tb.rows.map((r) => [r.accountCode, new Decimal(r.closingDebit).minus(r.closingCredit)]),
          );
          for (const r of tb.rows)
            expect(
              closing.get(r.accountCode)!.eq(opening.get(r.accountCode)!.plus(r.debit).minus(r.credit)),
            ).toBe(true);
          if (previous)
            for (const [code, bal] of previous)
              expect((opening.get(code) ?? new Decimal(0)).eq(bal)).toBe(true);
          previous = closing;
          last = closing;
        }
        const codes = new Set([...expected.keys(), ...last.keys()]);
        for (const code of codes)
          expect([code, (last.get(code) ?? new Decimal(0)).toFixed(2)]).toEqual([
            code,
            (expected.get(code) ?? new Decimal(0)).toFixed(2),
          ]);
      }),
      { numRuns: 25 },
    );
  }, 240_000);
});

describe('numbers under concurrent postings', () => {
  it('gives eight transactions at once eight consecutive numbers of the period', async () => {
    const db = t.database.db;
    await clearVouchers(db);
    const ids = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        db.transaction((tx) =>
          postEvent(
            tx,
            { kind: 'income', docCode: `C${i}`, date: '2026-03-15', amount: `${i + 1}.00`, payer: '并发' },
            SYSTEM_ACTOR,
          ),
        ),
      ),
    );
    expect(ids.every((id) => id !== null)).toBe(true);
    const nos = await queryRows<{ no: number }>(
      db,
      sql`select no from vouchers where period = '2026-03' order by no`,
    );
    expect(nos.map((r) => r.no)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });
});
