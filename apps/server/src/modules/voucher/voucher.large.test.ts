import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../platform/db/client';
import { SYSTEM_ACTOR } from '../../platform/db/audit';
import { createTestPortal, type TestPortal } from '../../testing/harness';
import type { JournalLine } from './journal';
import { postJournal } from './service';

/**
 * A voucher with a line per contract (a month-end accrual of a large portfolio, bench/README.md
 * "Ten times the portfolio"): more lines than one statement's 65,535 parameters carry (11 values
 * a line) are all written, numbered and counted in the period's totals.
 */
let t: TestPortal;
beforeAll(async () => {
  t = await createTestPortal();
}, 120_000);
afterAll(() => t.close());

describe('a voucher of 7,001 lines', () => {
  it('is posted whole: every line, in order, in the totals, with its number', async () => {
    const n = 7000;
    const lines: JournalLine[] = [
      ...Array.from({ length: n }, (_, i) => ({
        role: 'bank' as const,
        summary: `计提 ${i + 1}`,
        debit: '1.25',
        credit: '0.00',
        aux: { custCode: `C${i + 1}`, custName: `客户${i + 1}`, contractNo: `BL-${i + 1}` },
      })),
      { role: 'advance', summary: '计提', debit: '0.00', credit: '8750.00', aux: {} },
    ];
    const id = await t.database.db.transaction((tx) =>
      postJournal(
        tx,
        { docType: 'accrual', docCode: '2026-03', date: '2026-03-31', summary: '计提2026-03应收利息', lines },
        SYSTEM_ACTOR,
      ),
    );
    const [v] = await queryRows<{
      lines: number;
      first: number;
      last: number;
      distinct_no: number;
      no: number;
    }>(
      t.database.db,
      sql`select count(*)::int as lines, min(l.line_no)::int as first, max(l.line_no)::int as last,
                 count(distinct l.line_no)::int as distinct_no, max(v.no)::int as no
            from voucher_lines l join vouchers v on v.id = l.voucher_id where v.id = ${id}`,
    );
    expect(v).toEqual({ lines: n + 1, first: 1, last: n + 1, distinct_no: n + 1, no: 1 });
    const [last] = await queryRows<{ contract_no: string | null; summary: string }>(
      t.database.db,
      sql`select contract_no, summary from voucher_lines where voucher_id = ${id} and line_no = ${n}`,
    );
    expect(last).toEqual({ contract_no: `BL-${n}`, summary: `计提 ${n}` });
    const totals = await queryRows<{ role: string; debit: string; credit: string; lines: number }>(
      t.database.db,
      sql`select a.role, t.debit::text, t.credit::text, t.lines::int as lines
            from voucher_account_periods t join voucher_accounts a on a.code = t.account_code
           where t.period = '2026-03' order by a.role`,
    );
    expect(totals).toEqual([
      { role: 'advance', debit: '0.00', credit: '8750.00', lines: 1 },
      { role: 'bank', debit: '8750.00', credit: '0.00', lines: n },
    ]);
  }, 300_000);
});
