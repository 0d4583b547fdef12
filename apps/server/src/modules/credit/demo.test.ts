import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UtilisationRow } from '@portal/contract/credit';
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
  });
});
