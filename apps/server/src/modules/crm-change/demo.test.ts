import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManagerChangeInit } from '@portal/contract/crm-change';
import { queryRows } from '../../platform/db/client';
import { createTestPortal, type TestPortal } from '../../testing/harness';
import { candidatesOf, cq, compManagerApi } from './testkit';

let t: TestPortal;
beforeAll(async () => {
  t = await createTestPortal({ DEMO_DATA: 'on' });
});
afterAll(() => t.close());

describe('demo data', () => {
  it('gives the first demo customer an administrator for 管理员变更', async () => {
    const [first] = await queryRows<{ comp_code: string }>(
      t.database.db,
      sql`select comp_code from companies where deleted_at is null order by id limit 1`,
    );
    const admin = await t.login();
    const init = await admin.ok<ManagerChangeInit>(compManagerApi.init, undefined, cq(first!.comp_code));
    expect(init.current).toMatchObject({
      userName: expect.any(String),
      mobile: expect.stringMatching(/^1\d{10}$/),
    });
    const candidates = await candidatesOf(admin, first!.comp_code);
    expect(candidates.list.some((u) => u.isManager || u.userName === init.current?.userName)).toBe(false);
  });
});
