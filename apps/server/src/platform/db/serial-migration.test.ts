import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeSerial } from '@portal/contract/fields';
import { serverRoot } from '../../server';
import { createTestDb, type TestDb } from '../../testing/harness';
import { queryRows } from './client';
import { migrate } from './migrate';

/**
 * migrations/0023: serial numbers typed before they were normalised are rewritten the way the
 * application stores them now (docs/money-rules.md "Bank serial numbers"), except where that would
 * make two live receipts of one account the same serial: those stay as typed, and the upgrade
 * goes through. On PGlite, or PostgreSQL with TEST_DATABASE_URL.
 */
const MIGRATION = '0023_serial_normalised.sql';

let t: TestDb;
let before: string;
beforeAll(async () => {
  t = await createTestDb({ empty: true });
  before = mkdtempSync(join(tmpdir(), 'portal-migrations-'));
  const all = join(serverRoot(), 'migrations');
  for (const f of readdirSync(all)) if (f < MIGRATION) copyFileSync(join(all, f), join(before, f));
});
afterAll(async () => {
  await t.drop();
  rmSync(before, { recursive: true, force: true });
});

describe('serial numbers entered before normalisation', () => {
  it('are stored normalised after the upgrade, unless two receipts of one account would collide', async () => {
    await migrate(t.database, before);
    const typed: [code: string, account: string, serial: string][] = [
      ['000000000001', 'BK0000000001', 'ab\u200B12 '], // → AB12
      ['000000000002', 'BK0000000001', 'x1'], // collides with the next one: both stay
      ['000000000003', 'BK0000000001', '\uFF38\uFF11'], // full-width X1
      ['000000000004', 'BK0000000002', '\u3000q9'], // ideographic space, lower case → Q9
      ['000000000005', 'BK0000000002', 'FK-2026-001'], // already normal
    ];
    for (const [code, account, serial] of typed)
      await t.database.db.execute(
        sql`insert into incomes (biz_code, bank_biz_code, payer_name, amount, value_date, serial_no)
            values (${code}, ${account}, '付款方', 100.00, '2026-01-15', ${serial})`,
      );

    await migrate(t.database, join(serverRoot(), 'migrations'));

    const rows = await queryRows<{ code: string; serial: string }>(
      t.database.db,
      sql`select biz_code as code, serial_no as serial from incomes order by biz_code`,
    );
    expect(rows.map((r) => r.serial)).toEqual(['AB12', 'x1', '\uFF38\uFF11', 'Q9', 'FK-2026-001']);
    // The SQL agrees with the application's normalisation wherever it rewrote.
    expect(normalizeSerial('ab\u200B12 ')).toBe('AB12');
    expect(normalizeSerial('\u3000q9')).toBe('Q9');
  });
});
