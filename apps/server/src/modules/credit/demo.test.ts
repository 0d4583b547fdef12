import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CollateralRow, CreditListRow, GuaranteeRow, UtilisationRow } from '@portal/contract/credit';
import { createTestPortal, type TestPortal } from '../../testing/harness';
import { creditApi } from './testkit';

let t: TestPortal;
beforeAll(async () => {
  t = await createTestPortal({ DEMO_DATA: 'on' });
});
afterAll(() => t.close());

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
});
