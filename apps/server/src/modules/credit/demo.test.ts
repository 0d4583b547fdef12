import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CollateralRow, CreditListRow, GuaranteeRow, UtilisationRow } from '@portal/contract/credit';
import { sql } from 'drizzle-orm';
import { DEBTOR_PATHS, type DebtorLineRow, type DebtorLineView } from '@portal/contract/debtor';
import { queryRows } from '../../platform/db/client';
import { createTestPortal, servedPaths, type TestPortal } from '../../testing/harness';
import { creditApi } from './testkit';

let t: TestPortal;
// Seeding every module's demo takes a while on a busy machine (as collections/demo.test.ts).
beforeAll(async () => {
  t = await createTestPortal({ DEMO_DATA: 'on' });
}, 300_000);
afterAll(() => t?.close());

describe('demo data', () => {
  it('gives a fresh database one approved credit that the utilisation chart shows', async () => {
    const admin = await t.login();
    const util = await admin.ok<UtilisationRow[]>(creditApi.utilisation, {});
    expect(util).toHaveLength(1);
    // The demo contracts occupy part of it (contract/demo.test.ts).
    expect(util[0]).toMatchObject({ limitAmount: '50000000.00' });
    // It requires a guarantee and has two in force (an enterprise, a person) and a property.
    const { list } = await admin.ok<{ list: CreditListRow[] }>(creditApi.creditList, {
      pageNum: 1,
      pageSize: 10,
    });
    const q = { query: { bizCode: list[0]!.bizCode } };
    expect(list[0]).toMatchObject({ guaranteeMode: 'guaranteed', state: 'approved' });
    const gua = await admin.ok<GuaranteeRow[]>(creditApi.creditGua, undefined, q);
    expect(gua.map((g) => [g.guarantorKind, g.status])).toEqual([
      ['enterprise', 'inForce'],
      ['person', 'inForce'],
    ]);
    const coll = await admin.ok<CollateralRow[]>(creditApi.creditCollateral, undefined, q);
    expect(coll).toMatchObject([{ kind: 'realEstate', value: '12000000.00' }]);
  });

  it('shows one of each part of factoring as the trade runs it (docs/credit.md, buyback.md, …)', async () => {
    const admin = await t.login();
    const debtorApi = servedPaths(DEBTOR_PATHS);
    // A debtor line in force, occupied by the receivables of the demo contracts on its debtor.
    const lines = await admin.ok<DebtorLineRow[]>(debtorApi.lines);
    expect(lines).toMatchObject([
      { debtorName: '华东建工集团有限公司', state: 'active', limitAmount: '20000000.00' },
    ]);
    expect(Number(lines[0]!.occupiedAmount)).toBeGreaterThan(0);
    const line = await admin.ok<DebtorLineView>(debtorApi.line, undefined, {
      query: { bizCode: lines[0]!.bizCode },
    });
    expect(line.ledger.filter((l) => l.movement === 'occupy').length).toBeGreaterThan(0);
    const one = async (q: ReturnType<typeof sql>) => (await queryRows<{ n: number }>(t.database.db, q))[0]!.n;
    // A 转让通知书 confirmed by the debtor, a 回购单, a 催收记录, a 客户准入单.
    expect(
      await one(sql`select count(*)::int as n from assignment_notices n join contracts c on c.id = n.contract_id
                     where c.contract_no = 'DEMO-BL-001' and n.confirm_date is not null`),
    ).toBeGreaterThan(0);
    expect(
      await one(sql`select count(*)::int as n from buybacks b join contracts c on c.id = b.contract_id
                     where c.contract_no = 'DEMO-BL-001' and b.deleted_at is null`),
    ).toBe(1);
    expect(await one(sql`select count(*)::int as n from collection_records`)).toBeGreaterThan(0);
    expect(await one(sql`select count(*)::int as n from cust_admissions where state = 'approved'`)).toBe(1);
  });
});
