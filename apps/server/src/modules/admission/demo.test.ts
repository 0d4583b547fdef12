import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../platform/db/client';
import { createTestPortal, type TestPortal } from '../../testing/harness';

let t: TestPortal;
beforeAll(async () => {
  t = await createTestPortal({ DEMO_DATA: 'on' });
});
afterAll(() => t.close());

describe('demo data', () => {
  it('shows one customer admitted through 客户准入 and one waiting for 风控', async () => {
    const rows = await queryRows<{ comp_name: string; admission: string; state: string; maker: string }>(
      t.database.db,
      sql`select c.comp_name, c.admission, a.state, u.user_name as maker
            from cust_admissions a join companies c on c.comp_code = a.comp_code
            left join users u on u.id = a.created_by
           order by a.id`,
    );
    expect(rows).toEqual([
      { comp_name: '苏州新锐智能装备有限公司', admission: 'admitted', state: 'approved', maker: 'maker' },
      { comp_name: '合肥未来新能源科技有限公司', admission: 'pending', state: 'pending', maker: 'maker' },
    ]);
    // The customers that hold the demo credits and contracts are admitted.
    const held = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from credits r join companies c on c.comp_code = r.cust_code
           where c.admission <> 'admitted'`,
    );
    expect(held[0]!.n).toBe(0);
  });
});
