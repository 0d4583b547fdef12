import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@portal/contract/api';
import { PERMIT_PATHS, type PermitRow, type RoleChangeRow } from '@portal/contract/permit';
import { createTestPortal, type TestPortal } from '../../testing/harness';

let t: TestPortal;
beforeAll(async () => {
  t = await createTestPortal({ DEMO_DATA: 'on' });
});
afterAll(() => t.close());

describe('admission demo data', () => {
  it('admits demo customers to every area, one saved only, with a role change', async () => {
    const admin = await t.login();
    const list = await admin.ok<Page<PermitRow>>(`/api${PERMIT_PATHS.custList}`, { pageSize: 100 });
    expect(new Set(list.list.map((r) => r.area))).toEqual(new Set(['ec', 'dw', 'fc']));
    expect(list.list.filter((r) => r.state === 'saved')).toHaveLength(1);
    const changes = await admin.ok<Page<RoleChangeRow>>(`/api${PERMIT_PATHS.roleChgList}`, { area: 'ec' });
    expect(changes.list.some((c) => c.kind === 'change' && c.reason === '核心企业开立凭证')).toBe(true);
  });
});
