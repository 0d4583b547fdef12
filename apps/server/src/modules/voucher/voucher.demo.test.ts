import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../platform/db/client';
import { createTestPortal, createUserWithCodes, type TestPortal } from '../../testing/harness';
import { voucherApi } from './testkit';

let t: TestPortal;
beforeAll(async () => {
  t = await createTestPortal({ DEMO_DATA: 'on' });
});
afterAll(() => t.close());

describe('the demo’s read-only role (复核 checker, 审计 auditor)', () => {
  it('may export the vouchers and the trial balance it may read, and change nothing', async () => {
    const codes = await queryRows<{ code: string }>(
      t.database.db,
      sql`select m.menu_code as code from role_menus m join roles r on r.id = m.role_id where r.code = 'viewer'`,
    );
    await createUserWithCodes(
      t.database.db,
      'demoviewer',
      'Viewer@123456789',
      codes.map((c) => c.code),
    );
    const viewer = await t.login('demoviewer', 'Viewer@123456789');
    expect((await viewer.call(voucherApi.trialExport, { period: '2026-05' })).httpStatus).toBe(200);
    expect((await viewer.call(voucherApi.export, { format: 'xlsx' })).httpStatus).toBe(200);
    const save = await viewer.call(voucherApi.accountSave, {
      role: 'bank',
      code: '1002',
      name: '银行存款',
      version: 0,
    });
    expect(save.status).toBe(401);
  });
});
