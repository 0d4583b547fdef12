import Decimal from 'decimal.js';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { addDays } from '@portal/contract/plan/dates';
import {
  VOUCHER_PATHS,
  type VoucherDocType,
  type VoucherPage,
  type VoucherView,
} from '@portal/contract/voucher';
import { SYSTEM_ACTOR } from '../../platform/db/audit';
import type { Database } from '../../platform/db/client';
import { servedPaths, type TestClient } from '../../testing/harness';
import type { MoneyEvent } from './journal';
import { reverseDocument } from './service';

/** Test helpers of the voucher module: reading the vouchers through the real API. */
export const voucherApi = servedPaths(VOUCHER_PATHS);

export function voucherReader(client: () => TestClient) {
  const list = (body: Record<string, unknown> = {}) =>
    client().ok<VoucherPage>(voucherApi.list, {
      pageNum: 1,
      pageSize: 50,
      orderBy: 'voucherNo',
      order: 'asc',
      ...body,
    });
  const view = (voucherId: number) =>
    client().ok<VoucherView>(voucherApi.view, undefined, { query: { voucherId: String(voucherId) } });
  /** The one voucher of a source document. */
  const voucherOf = async (docType: string, docCode: string): Promise<VoucherView> => {
    const page = await list({ docType, docCode });
    expect(page.total).toBe(1);
    return view(page.list[0]!.voucherId);
  };
  return { list, view, voucherOf };
}

/** A money event of a document as the random histories make it: everything but its document code. */
export type MoneyEventDraft = DraftOf<
  Extract<MoneyEvent, { kind: 'disbursement' | 'prepayment' | 'income' | 'writeOff' }>
>;
type DraftOf<E> = E extends unknown ? Omit<E, 'docCode'> & { docCode?: string } : never;

/** The ranges of the random money events: days from 2026-01-01, and how many contracts (HT-1 …). */
export interface MoneyEventRange {
  days: number;
  contracts: number;
}

/**
 * A random money event of the voucher journal (docs/accounting.md "What the tests prove"): a
 * disbursement (financing = net + Σ deducted), a prepayment, an income or a write-off, on a day
 * within `days` of 2026-01-01, amounts 0.00 to 500,000.00, for one of two customers and of
 * `contracts` contract numbers.
 */
export function moneyEvent({ days, contracts }: MoneyEventRange): fc.Arbitrary<MoneyEventDraft> {
  const cents = fc.integer({ min: 0, max: 50_000_000 }).map((n) => new Decimal(n).div(100).toFixed(2));
  const day = fc.integer({ min: 0, max: days }).map((n) => addDays('2026-01-01', n));
  const aux = fc.record({
    custCode: fc.constantFrom('000000000001', '000000000002'),
    custName: fc.constantFrom('甲供应商', '乙供应商'),
    contractNo: fc.constantFrom(...Array.from({ length: contracts }, (_, i) => `HT-${i + 1}`)),
  });
  const upfront = fc.record({ margin: cents, upfrontInterest: cents, upfrontFee: cents });
  return fc.oneof(
    fc.record({ date: day, net: cents, deducted: upfront, aux }).map((e) => ({
      kind: 'disbursement' as const,
      ...e,
      financing: new Decimal(e.net)
        .plus(e.deducted.margin)
        .plus(e.deducted.upfrontInterest)
        .plus(e.deducted.upfrontFee)
        .toFixed(2),
    })),
    fc.record({ date: day, received: upfront, aux }).map((e) => ({ kind: 'prepayment' as const, ...e })),
    fc.record({ date: day, amount: cents, payer: fc.constantFrom('买方A', '买方B') }).map((e) => ({
      kind: 'income' as const,
      ...e,
    })),
    fc
      .record({ date: day, principal: cents, interest: cents, fee: cents, penalty: cents, aux })
      .map((e) => ({ kind: 'writeOff' as const, ...e })),
  );
}

/**
 * A random history of 1 to `maxLength` money events, each with, or without (null), the index of an
 * earlier one to reverse in red after it (modulo the events so far) and that reversal's lag in days
 * after the reversed event (0 to `maxLag`).
 */
export function moneyHistory(range: MoneyEventRange & { maxLength: number; maxLag: number }) {
  return fc.array(
    fc.tuple(moneyEvent(range), fc.option(fc.nat(), { nil: null }), fc.nat({ max: range.maxLag })),
    { minLength: 1, maxLength: range.maxLength },
  );
}

/**
 * The red reversal of a document posted as the document `${code}R` (冲红), `lag` days after the
 * reversed one's date: 放款 and 核销 reverse as their own red types, the others as themselves.
 */
export function postRed(
  db: Database['db'],
  of: { docType: VoucherDocType; docCode: string; date: string },
  code: string,
  lag: number,
): Promise<number[]> {
  const red: VoucherDocType =
    of.docType === 'loan' ? 'loanRed' : of.docType === 'paid' ? 'paidRed' : of.docType;
  return db.transaction((tx) =>
    reverseDocument(
      tx,
      { docType: of.docType, docCode: of.docCode },
      { docType: red, docCode: `${code}R`, date: addDays(of.date, lag), summary: '冲红' },
      SYSTEM_ACTOR,
    ),
  );
}

/** Every voucher, line and period numbering gone: a random history starts from an empty journal. */
export async function clearVouchers(db: Database['db']): Promise<void> {
  await db.execute(sql`delete from voucher_lines`);
  await db.execute(sql`delete from vouchers`);
  await db.execute(sql`delete from voucher_periods`);
}
